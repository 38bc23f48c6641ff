"""A small HTTP/1.1 client for the load benchmark: one kept-alive connection, one request at a time.

The load benchmark plays hundreds of games from one process on the same
machine as the server, and what its players cost that machine is taken from
the server. httpx spent about 1 ms of CPU on each request here (against
0.03-0.07 ms for the same request written and read by hand): at 300 moves a
second that was a third of a core of the two, and the client's own loop
woke late while it worked (bench/load.py's client_lag_ms_*). This client
does only what the benchmark asks of HTTP: JSON requests on a connection
kept open, answers with a length or in chunks.

It is a measuring instrument, not the API's client: tests and tools use
httpx or the browser.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit


class HTTPFailure(Exception):
    """The server closed the connection mid-answer, or sent what is not HTTP."""


class Reply:
    def __init__(self, status_code: int, body: bytes) -> None:
        self.status_code = status_code
        self.content = body

    def json(self) -> Any:
        return json.loads(self.content)

    @property
    def text(self) -> str:
        return self.content.decode(errors="replace")

    def raise_for_status(self) -> None:
        if self.status_code >= 400:
            raise HTTPFailure(f"{self.status_code}: {self.text[:200]}")


class KeptAlive:
    """Requests to one server over one connection, opened when needed and kept."""

    def __init__(self, base: str, timeout: float = 30.0) -> None:
        parts = urlsplit(base)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.timeout = timeout
        self.headers: dict[str, str] = {}
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._turn = asyncio.Lock()

    async def get(self, path: str) -> Reply:
        return await self.request("GET", path)

    async def post(self, path: str, json: Any = None) -> Reply:  # noqa: A002 (httpx's name for it)
        return await self.request("POST", path, json)

    async def request(self, method: str, path: str, body: Any = None) -> Reply:
        payload = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept: application/json"]
        head += [f"{name}: {value}" for name, value in self.headers.items()]
        if body is not None:
            head.append("Content-Type: application/json")
        head.append(f"Content-Length: {len(payload)}")
        message = ("\r\n".join(head) + "\r\n\r\n").encode() + payload
        async with self._turn:
            try:
                return await asyncio.wait_for(self._exchange(message), self.timeout)
            except asyncio.TimeoutError:
                # An answer left half read would be taken for the next request's.
                await self.aclose()
                raise

    async def _exchange(self, message: bytes) -> Reply:
        for attempt in range(2):
            fresh = self._writer is None
            if fresh:
                self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
            assert self._reader is not None and self._writer is not None
            self._writer.write(message)
            try:
                status_line = await self._reader.readuntil(b"\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                # A kept connection the server had closed meanwhile (its
                # keep-alive timeout): nothing of this request was read, so
                # it is sent again once, on a new connection, as browsers do.
                await self.aclose()
                if fresh or attempt:
                    raise HTTPFailure("the server closed the connection before answering") from None
                continue
            return await self._rest(status_line)
        raise AssertionError("unreachable")

    async def _rest(self, status_line: bytes) -> Reply:
        assert self._reader is not None
        try:
            status = int(status_line.split(b" ", 2)[1])
            length, chunked, close = 0, False, False
            while (line := await self._reader.readuntil(b"\r\n")) != b"\r\n":
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"transfer-encoding":
                    chunked = b"chunked" in value.lower()
                elif name == b"connection":
                    close = b"close" in value.lower()
            if chunked:
                parts = []
                while size := int((await self._reader.readuntil(b"\r\n")).split(b";")[0], 16):
                    parts.append(await self._reader.readexactly(size))
                    await self._reader.readexactly(2)
                await self._reader.readuntil(b"\r\n")  # the last chunk's end (no trailers are sent)
                body = b"".join(parts)
            else:
                body = await self._reader.readexactly(length)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError, IndexError) as error:
            await self.aclose()
            raise HTTPFailure(f"a broken answer: {error!r}") from None
        if close:
            await self.aclose()
        return Reply(status, body)

    async def aclose(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
