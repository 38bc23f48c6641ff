"""A request id for every request, in the log beside a failure and in the answer the client gets.

A 500 says only "something went wrong" to the client; the id lets an
operator find its traceback in the log (and a player quote it).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

log = logging.getLogger("boardgames.errors")


class RequestId:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.request_id = uuid.uuid4().hex[:16]  # type: ignore[attr-defined]
        response = self.get_response(request)
        response["X-Request-Id"] = request.request_id  # type: ignore[attr-defined]
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> None:
        log.error(
            "request %s failed: %s %s",
            getattr(request, "request_id", "-"),
            request.method,
            request.get_full_path(),
            exc_info=exception,
        )
