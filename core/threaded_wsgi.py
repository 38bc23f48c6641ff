"""Django's WSGI application served from an ASGI server, on a fixed pool of threads.

Each request is read whole on the event loop, handed to a pool thread once,
answered whole, and written back by the loop: one hand-over each way. The
threads live as long as the server, so each keeps its database connection
(Django's ASGI handler, by contrast, starts a thread and a connection per
request). Request bodies are bounded; responses here are small JSON or pages,
and static files are a few hundred kilobytes at most, so a response is
collected in the thread rather than streamed.
"""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

Headers = list[tuple[bytes, bytes]]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class ThreadedWSGI:
    def __init__(self, app: WSGIApp, *, threads: int, max_body: int) -> None:
        self.app = app
        self.max_body = max_body
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="http")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                await _answer(send, 413, [(b"content-type", b"application/json")],
                              b'{"code": "request_too_large", "detail": "the request body is too large"}')
                return
        loop = asyncio.get_running_loop()
        status, headers, content = await loop.run_in_executor(self.pool, self._run, scope, bytes(body))
        await _answer(send, status, headers, content)

    def _run(self, scope: dict[str, Any], body: bytes) -> tuple[int, Headers, bytes]:
        answer: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
            answer["status"] = int(status.split(" ", 1)[0])
            answer["headers"] = [(name.lower().encode("latin1"), value.encode("latin1")) for name, value in headers]
            return _no_write

        result = self.app(_environ(scope, body), start_response)
        try:
            content = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        return answer["status"], answer["headers"], content


def _no_write(data: bytes) -> None:
    raise RuntimeError("the legacy WSGI write() callable is not supported")


async def _answer(send: Any, status: int, headers: Headers, content: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})


def _environ(scope: dict[str, Any], body: bytes) -> dict[str, Any]:
    """The WSGI environ of an ASGI HTTP scope (PEP 3333 strings: latin-1 of the bytes)."""
    server = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode("utf8").decode("latin1"),
        "PATH_INFO": scope["path"].encode("utf8").decode("latin1"),
        "QUERY_STRING": scope["query_string"].decode("latin1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] or 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = str(client[0]), str(client[1])
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin1").upper().replace("-", "_")
        if name not in ("CONTENT_LENGTH", "CONTENT_TYPE"):
            name = "HTTP_" + name
        value = raw_value.decode("latin1")
        environ[name] = f"{environ[name]},{value}" if name in environ else value
    if "CONTENT_LENGTH" not in environ and body:
        environ["CONTENT_LENGTH"] = str(len(body))
    return environ
