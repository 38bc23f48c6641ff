"""The close codes reach a real client through the real server, as a browser meets them.

Channels' test communicator reports a close before the handshake as a
refusal with its code; a browser gets HTTP 403 and sees only 1006. So this
asks a running server (uvicorn, as `make run` serves) with a plain client.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest
import websockets

from tests.servers import Server, fresh_sqlite_env


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(fresh_sqlite_env("close-codes")) as running:
        yield running


async def close_code(url: str) -> tuple[int | None, str]:
    async with websockets.connect(url) as socket:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), timeout=10)
    received = closed.value.rcvd
    return (received.code, received.reason) if received else (None, "")


def token_of(server: Server, name: str) -> str:
    response = httpx.post(f"{server.url}/api/auth/register/", json={"username": name, "password": "a long enough pass 1"})
    assert response.status_code == 201, response.text
    return str(response.json()["token"])


def test_a_socket_without_a_login_is_closed_with_4401(server: Server) -> None:
    ws = server.url.replace("http", "ws", 1)
    assert asyncio.run(close_code(f"{ws}/ws/rooms/1/")) == (4401, "log in first")
    assert asyncio.run(close_code(f"{ws}/ws/me/")) == (4401, "log in first")
    assert asyncio.run(close_code(f"{ws}/ws/rooms/1/?token=not-a-token"))[0] == 4401


def test_a_socket_to_a_missing_room_is_closed_with_4404(server: Server) -> None:
    ws = server.url.replace("http", "ws", 1)
    token = token_of(server, "closecodes")
    assert asyncio.run(close_code(f"{ws}/ws/rooms/424242/?token={token}")) == (4404, "no such room")
