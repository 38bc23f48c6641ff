"""A request's objects are freed by reference counting once it is answered (core/handler.py).

Left to the garbage collector, a busy server's young collections found tens
of thousands of them at a time and paused every request and push behind
them. Each request here runs through the WSGI handler with the collector
off, as it would between two collections; what is still alive after the
response is closed would have waited for one.

Left alone: a page rendered from a template keeps its request alive until a
collection through Django's template context (a cycle of its own); pages
are loaded once a visit, the API and the sockets make up the move path.
"""

from __future__ import annotations

import gc
import io
import json
import logging
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponseBase

from core.handler import CycleFreeWSGIHandler
from tests.conftest import Player


@pytest.fixture
def collector_off() -> Iterator[None]:
    # pytest keeps every log record, and the record of a refused request
    # holds the request: that would keep it alive here, not in a server.
    logger = logging.getLogger("django.request")
    logger.disabled = True
    # As the test client does: the test's transaction must outlive the request.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        logger.disabled = False
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def watched(handler_class: type[WSGIHandler]) -> tuple[WSGIHandler, list[weakref.ref[Any]]]:
    """A handler of ``handler_class`` that keeps weak references to each request's objects."""
    refs: list[weakref.ref[Any]] = []

    class Watched(handler_class):  # type: ignore[valid-type,misc]
        def get_response(self, request: HttpRequest) -> HttpResponseBase:
            response = super().get_response(request)
            refs.extend([weakref.ref(request), weakref.ref(response)])
            context = getattr(response, "renderer_context", None) or {}
            refs.extend(weakref.ref(context[part]) for part in ("view", "request") if part in context)
            return response

    return Watched(), refs


def call(handler: WSGIHandler, method: str, path: str, token: str = "", body: Any = None) -> tuple[int, bytes]:
    """One request as the server makes it: the answer read whole, then the response closed."""
    content = json.dumps(body).encode() if body is not None else b""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(content)),
        "wsgi.input": io.BytesIO(content),
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
    }
    if token:
        environ["HTTP_AUTHORIZATION"] = f"Token {token}"
    status: list[str] = []
    result = handler(environ, lambda line, headers, exc_info=None: status.append(line))
    try:
        answer = b"".join(result)
    finally:
        result.close()  # type: ignore[attr-defined]
    return int(status[0].split()[0]), answer


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/api/auth/me/", None, 200),  # REST framework, authenticated
        ("POST", "/api/rooms/", {"game": "connect-four"}, 201),  # a write
        ("POST", "/api/rooms/", {"game": "chess"}, 400),  # refused, and logged
        ("GET", "/api/no-such-thing/", None, 404),
        ("GET", "/", None, 302),  # a page (sessions, messages) that sends the visitor to log in
    ],
)
def test_a_requests_objects_are_freed_as_soon_as_it_is_answered(
    alice: Player, collector_off: None, method: str, path: str, body: Any, status: int
) -> None:
    handler, refs = watched(CycleFreeWSGIHandler)
    assert call(handler, method, path, alice.token, body)[0] == status
    assert refs and all(ref() is None for ref in refs), [ref() for ref in refs]


@pytest.mark.django_db
def test_without_it_the_objects_wait_for_the_collector(alice: Player, collector_off: None) -> None:
    handler, refs = watched(WSGIHandler)
    assert call(handler, "GET", "/api/auth/me/", alice.token)[0] == 200
    assert any(ref() is not None for ref in refs)
    gc.collect()
    assert all(ref() is None for ref in refs)
