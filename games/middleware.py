"""Refuse NUL characters, and oversized bodies, before they reach a view.

PostgreSQL text and JSON columns cannot hold U+0000 (SQLite can), so a NUL in
any request would be a 500 on one database and stored on the other. One
check here covers every field, filter and form.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse

RAW_NUL = b"\x00"
JSON_NUL = b"\\u0000"
FORM_NUL = b"%00"


class RejectNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "").encode()
        try:
            body = request.body if request.method in ("POST", "PUT", "PATCH") else b""
        except RequestDataTooBig:
            return _refuse(request, "request_too_large", "the request body is too large", 413)
        form = request.content_type == "application/x-www-form-urlencoded"
        if (
            RAW_NUL in query + body + request.path.encode()
            or FORM_NUL in query
            or JSON_NUL in body
            or (form and FORM_NUL in body)
        ):
            return _refuse(request, "invalid", "text may not contain NUL characters", 400)
        return self.get_response(request)


def _refuse(request: HttpRequest, code: str, detail: str, status: int) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"code": code, "detail": detail}, status=status)
    return HttpResponse(detail, status=status, content_type="text/plain")
