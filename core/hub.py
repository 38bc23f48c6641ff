"""What the server processes of one machine share when there is no Redis.

`manage.py serve --workers N` on the embedded default (SQLite, no REDIS_URL)
runs N server processes under uvicorn's supervisor. The supervisor's process
is otherwise idle; it runs this hub on a Unix socket, and every server
process connects to it:

- a push made in one process reaches the sockets of every other
  (core.layers.HubChannelLayer): each process delivers to its own sockets
  itself and hands the hub one copy, which the hub passes on, bytes as
  they came, to the other processes;
- the throttles' counters live in the hub (HubCache, a Django cache
  backend), so a limit holds for a user whatever process answers;
- a *signal* (a name, no data) wakes something in the other processes: the
  scheduler, which runs in one of them only (games.scheduler).

Frames on the socket: a 4-byte big-endian length, then a kind byte and a
msgpack body. ``S`` subscribes the connection to what others publish, ``P``
publishes (the hub forwards it to every other subscriber), ``C`` is a
cache request answered by an ``R`` frame on the same connection. The hub
keeps nothing on disk: a counter lost with it is a throttle window restarted,
and a push it could not pass on is caught up by the versioned resync.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import pickle
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

import msgpack
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache

log = logging.getLogger(__name__)

# The environment variable naming the hub's socket: set by `serve` for its
# server processes; settings choose the hub's layer and cache when it is there.
HUB_ENV = "BOARDGAMES_HUB"

SUBSCRIBE, PUBLISH, CACHE, REPLY = b"S", b"P", b"C", b"R"
# A subscriber that stops reading (a stuck process) is dropped once this much
# waits for it, rather than the hub's memory growing without end; it
# reconnects, and its sockets resync.
MAX_BACKLOG = 16 * 1024 * 1024
SWEEP_SECONDS = 60.0


def frame(kind: bytes, body: Any) -> bytes:
    payload = kind + msgpack.packb(body, use_bin_type=True)
    return len(payload).to_bytes(4, "big") + payload


def unpack(payload: bytes) -> Any:
    # Pushes may key a mapping by seat number, as channels-redis allows.
    return msgpack.unpackb(payload[1:], raw=False, strict_map_key=False)


def hub_path() -> str:
    """A fresh path for a hub's socket (short: Unix socket paths are limited to about 100 bytes)."""
    return os.path.join(tempfile.gettempdir(), f"boardgames-hub-{os.getpid()}-{os.urandom(3).hex()}.sock")


class Hub:
    """The hub's side: passes publications on and keeps the shared counters."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.subscribers: set[asyncio.StreamWriter] = set()
        # key -> (value, expiry as time.time(), or None for never)
        self.store: dict[str, tuple[Any, float | None]] = {}
        self._swept = time.time()

    async def serve(self, started: threading.Event | None = None) -> None:
        server = await asyncio.start_unix_server(self._connection, path=self.path)
        os.chmod(self.path, 0o600)  # only this user's processes may push or count
        if started is not None:
            started.set()
        async with server:
            await server.serve_forever()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                header = await reader.readexactly(4)
                payload = await reader.readexactly(int.from_bytes(header, "big"))
                kind = payload[:1]
                if kind == PUBLISH:
                    self._forward(header + payload, writer)
                elif kind == CACHE:
                    writer.write(frame(REPLY, self.cache(*unpack(payload))))
                elif kind == SUBSCRIBE:
                    self.subscribers.add(writer)
                    # Answered, so that a process counts itself linked only
                    # once what others publish reaches it.
                    writer.write(frame(REPLY, True))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        except Exception:
            log.exception("hub: a connection sent what it cannot read; closing it")
        finally:
            self.subscribers.discard(writer)
            writer.close()

    def _forward(self, data: bytes, sender: asyncio.StreamWriter) -> None:
        for other in list(self.subscribers):
            if other is sender:
                continue
            if other.transport.get_write_buffer_size() > MAX_BACKLOG:
                log.error("hub: a server process stopped reading; dropping its connection")
                self.subscribers.discard(other)
                other.close()
                continue
            other.write(data)

    def cache(self, op: str, key: str, *args: Any) -> Any:
        """One cache operation; values are ints or pickled bytes, as the client sent them."""
        now = time.time()
        if now - self._swept > SWEEP_SECONDS:
            self._swept = now
            for stale in [k for k, (_, expiry) in self.store.items() if expiry is not None and expiry <= now]:
                del self.store[stale]
        held = self.store.get(key)
        if held is not None and held[1] is not None and held[1] <= now:
            del self.store[key]
            held = None
        if op == "get":
            return [held is not None, held[0] if held else None]
        if op == "add":
            if held is not None:
                return False
            self.store[key] = (args[0], args[1])
            return True
        if op == "set":
            self.store[key] = (args[0], args[1])
            return True
        if op == "incr":
            if held is None or not isinstance(held[0], int):
                return None
            value = held[0] + args[0]
            self.store[key] = (value, held[1])
            return value
        if op == "touch":
            if held is None:
                return False
            self.store[key] = (held[0], args[0])
            return True
        if op == "delete":
            return self.store.pop(key, None) is not None
        if op == "clear":
            self.store.clear()
            return True
        raise ValueError(f"unknown cache operation {op!r}")


def start_in_thread(path: str) -> threading.Thread:
    """Run a hub on ``path`` in a daemon thread of this process; returns once it listens."""
    started = threading.Event()

    def run() -> None:
        asyncio.run(Hub(path).serve(started))

    thread = threading.Thread(target=run, name="boardgames-hub", daemon=True)
    thread.start()
    if not started.wait(10):
        raise RuntimeError(f"the hub did not start on {path}")
    atexit.register(_remove, path)
    return thread


def scheduler_lock(path: str) -> str:
    """The file whose lock says which server process runs the scheduler (games.scheduler), beside the hub's socket."""
    return f"{path}.scheduler"


def _remove(path: str) -> None:
    for leftover in (path, scheduler_lock(path)):
        with contextlib.suppress(OSError):
            os.unlink(leftover)


class HubCache(BaseCache):
    """A Django cache kept in the hub: every server process of the machine sees the same counters.

    Each thread keeps its own connection and asks one question at a time.
    """

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.path = location or os.environ.get(HUB_ENV, "")
        self._local = threading.local()

    def _ask(self, op: str, key: str, *args: Any) -> Any:
        for attempt in (1, 2):
            connection: socket.socket | None = getattr(self._local, "connection", None)
            try:
                if connection is None:
                    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    connection.settimeout(5)
                    connection.connect(self.path)
                    self._local.connection = connection
                return _question(connection, op, key, *args)
            except OSError:
                # The hub restarted or the connection broke: once more on a new one.
                if connection is not None:
                    connection.close()
                self._local.connection = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    @staticmethod
    def _encode(value: Any) -> Any:
        # Counters stay ints so the hub can add to them; anything else is pickled.
        return value if type(value) is int else pickle.dumps(value, pickle.HIGHEST_PROTOCOL)

    @staticmethod
    def _decode(value: Any) -> Any:
        return pickle.loads(value) if isinstance(value, bytes) else value

    def _expiry(self, timeout: Any) -> float | None:
        seconds = self.get_backend_timeout(timeout)
        return None if seconds is None else float(seconds)

    def add(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        return bool(self._ask("add", key, self._encode(value), self._expiry(timeout)))

    def set(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        key = self.make_and_validate_key(key, version=version)
        self._ask("set", key, self._encode(value), self._expiry(timeout))

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        found, value = self._ask("get", key)
        return self._decode(value) if found else default

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        key = self.make_and_validate_key(key, version=version)
        value = self._ask("incr", key, delta)
        if value is None:
            raise ValueError(f"Key '{key}' not found")
        return int(value)

    def touch(self, key: str, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        return bool(self._ask("touch", key, self._expiry(timeout)))

    def delete(self, key: str, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        return bool(self._ask("delete", key))

    def clear(self) -> None:
        self._ask("clear", "")


def ping(path: str, timeout: float) -> None:
    """Ask the hub at ``path`` one question on a new connection; OSError if it does not answer in time."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(timeout)
        connection.connect(path)
        _question(connection, "get", "healthz")


def _question(connection: socket.socket, op: str, key: str, *args: Any) -> Any:
    """Send one cache request on ``connection`` and read the hub's answer."""
    connection.sendall(frame(CACHE, [op, key, *args]))
    return unpack(_read(connection, int.from_bytes(_read(connection, 4), "big")))


def _read(connection: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the hub closed the connection")
        data += chunk
    return bytes(data)


# Signals: callbacks by name, run in this process when another process signals.
_signal_handlers: dict[str, list[Callable[[], None]]] = {}


def on_signal(name: str, handler: Callable[[], None]) -> None:
    _signal_handlers.setdefault(name, []).append(handler)


def signalled(name: str) -> None:
    for handler in _signal_handlers.get(name, []):
        try:
            handler()
        except Exception:
            log.exception("hub: signal %s's handler failed", name)
