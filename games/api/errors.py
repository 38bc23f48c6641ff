"""The one error shape: every 4xx is ``{"code": "...", "detail": "..."}``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class ApiError(exceptions.APIException):
    """An error a service raises on purpose: a code clients switch on and a reason."""

    def __init__(self, code: str, detail: str, status: int = 400, **extra: Any) -> None:
        super().__init__(detail=detail, code=code)
        self.status_code = status
        self.error_code = code
        # Fields beside code and detail that let a client act (e.g. the running job's id).
        self.extra = extra


def _flatten(detail: Any) -> str:
    """DRF validation details (dicts of lists) as one sentence a person can read."""
    if isinstance(detail, dict):
        parts = []
        for field, value in detail.items():
            text = _flatten(value)
            parts.append(text if field in ("non_field_errors", "detail") else f"{field}: {text}")
        return "; ".join(parts)
    if isinstance(detail, list):
        return " ".join(_flatten(item) for item in detail)
    return str(detail)


_CODES = {
    exceptions.ParseError: "malformed_request",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "invalid",
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "not found")
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or "forbidden")
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ApiError):
        code = exc.error_code
    else:
        code = next((c for kind, c in _CODES.items() if isinstance(exc, kind)), "error")
    detail = _flatten(getattr(exc, "detail", str(exc)))
    if isinstance(exc, exceptions.NotFound) and (detail == "Not found." or detail.startswith("No ")):
        detail = "not found"
    response.data = {"code": code, "detail": detail}
    if isinstance(exc, ApiError):
        response.data.update(exc.extra)
    return response


def error_response(code: str, detail: str, status_code: int = status.HTTP_400_BAD_REQUEST) -> Response:
    return Response({"code": code, "detail": detail}, status=status_code)
