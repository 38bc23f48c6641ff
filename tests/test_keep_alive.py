"""An idle HTTP connection stays open longer than clients keep theirs.

With uvicorn's default (5 s, the same as httpx's and Go's idle expiry) a
client that reused its connection after a pause of about five seconds could
have it closed under it and get a reset instead of an answer: the load
benchmark saw it as ReadError when a game's first move came late.
"""

from __future__ import annotations

import http.client
import time
from collections.abc import Iterator

import pytest

from core.management.commands.serve import KEEP_ALIVE_SECONDS
from tests.servers import Server, fresh_sqlite_env


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(fresh_sqlite_env("keep-alive")) as running:
        yield running


def test_a_connection_idle_past_the_clients_expiry_is_still_open(server: Server) -> None:
    assert KEEP_ALIVE_SECONDS > 5
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/api/games/")
    first = connection.getresponse()
    assert first.status == 200
    first.read()
    time.sleep(6)
    # http.client does not reconnect: a closed connection would raise here.
    connection.request("GET", "/api/games/")
    again = connection.getresponse()
    assert again.status == 200
    again.read()
    connection.close()
