"""The API edge every app's views share: the one error shape, request bodies, pages.

Every error a client sees is ``{"code": "...", "detail": "..."}`` (plus fields
that help act, such as a running job's id). Services raise domain errors
(core.errors); this module alone decides which HTTP status each kind is, and
puts the detail in the requester's language (core.i18n: their own choice if
they are logged in, else their browser's). The ``code`` is never translated.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import Conflict, DomainError, Forbidden, Invalid, NotFound, TooMany
from .i18n import language_for, translate_in

# Each kind of domain error and the status it is answered with.
STATUS: dict[type[DomainError], int] = {
    Invalid: status.HTTP_400_BAD_REQUEST,
    Forbidden: status.HTTP_403_FORBIDDEN,
    NotFound: status.HTTP_404_NOT_FOUND,
    Conflict: status.HTTP_409_CONFLICT,
    TooMany: status.HTTP_429_TOO_MANY_REQUESTS,
}


def status_of(error: DomainError) -> int:
    return next((code for kind, code in STATUS.items() if isinstance(error, kind)), status.HTTP_400_BAD_REQUEST)


def error_json(error: DomainError, language: str | None = None) -> dict[str, Any]:
    """The error's JSON, its detail (and any words among its extra fields) in ``language``
    (None: the active language)."""
    extra = {name: translate_in(language, value) for name, value in error.extra.items()}
    return {"code": error.code, "detail": translate_in(language, error.detail), **extra}


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


# DRF's own exceptions (authentication, parsing, methods) and their codes.
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
    language = language_for(context.get("request"))
    if isinstance(exc, DomainError):
        response = Response(error_json(exc, language), status=status_of(exc))
        if isinstance(exc, TooMany):
            response["Retry-After"] = str(exc.retry_after)
        return response
    with translation.override(language):
        if isinstance(exc, Http404):
            exc = exceptions.NotFound(str(exc) or gettext("not found"))
        elif isinstance(exc, PermissionDenied):
            exc = exceptions.PermissionDenied(str(exc) or gettext("forbidden"))
        response = drf_exception_handler(exc, context)
        if response is None:
            return None
        code = next((c for kind, c in _CODES.items() if isinstance(exc, kind)), "error")
        detail = _flatten(getattr(exc, "detail", str(exc)))
        if isinstance(exc, exceptions.NotFound) and (
            detail in ("Not found.", gettext("Not found.")) or detail.startswith("No ")
        ):
            detail = gettext("not found")
    response.data = {"code": code, "detail": detail}
    return response


def body(request: Request) -> dict[str, Any]:
    """The JSON object of the request; anything else is refused."""
    data = request.data
    if not hasattr(data, "get"):
        raise Invalid("malformed_request", gettext_lazy("the request body must be a JSON object"))
    return dict(data.items()) if not isinstance(data, dict) else data


_PAGES: dict[type, serializers.Serializer] = {}  # type: ignore[type-arg]


def page_of(item: type[serializers.Serializer]) -> serializers.Serializer:  # type: ignore[type-arg]
    """The schema of one page of ``item``s, as ``paginated`` answers (for extend_schema).

    One per item type, shared by every list of it (the schema names it once).
    """
    if item not in _PAGES:
        _PAGES[item] = inline_serializer(
            f"{item.__name__.removesuffix('Out')}Page",
            {
                "count": serializers.IntegerField(),
                "next": serializers.URLField(allow_null=True),
                "previous": serializers.URLField(allow_null=True),
                "results": item(many=True),
            },
        )
    return _PAGES[item]


class Pages(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200


def paginated(request: Request, view: APIView, items: Any, to_json: Any, prepare: Any = None) -> Response:
    """One page of ``items``; ``prepare(page)`` may read what the whole page needs in one go."""
    paginator = Pages()
    page = list(paginator.paginate_queryset(items, request, view=view) or [])
    if prepare is not None:
        prepare(page)
    return paginator.get_paginated_response([to_json(item) for item in page])


class ErrorOut(serializers.Serializer):  # type: ignore[misc]
    code = serializers.CharField()
    detail = serializers.CharField()


# The error responses every endpoint documents.
ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut}
