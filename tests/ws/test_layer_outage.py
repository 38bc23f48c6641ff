"""A slow or briefly unreachable Redis kills no socket and loses no move.

Two players on a real server over one PostgreSQL database and Redis; mid-game
Redis drops every connection (CLIENT KILL), then stops answering for a while
(CLIENT PAUSE). Moves made meanwhile are stored; the sockets stay open and
catch up with the newest version once Redis answers again.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any

import httpx
import pytest
import redis
import websockets

from tests.servers import Server, manage, server_env
from tests.ws.test_multi_server import database_url, register  # noqa: F401 - the fixture

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def newest_state(socket: Any, version: int, seconds: float = 20.0) -> dict[str, Any]:
    """Read the socket until a state of at least ``version`` arrives (the socket must stay open)."""
    deadline = time.monotonic() + seconds
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == "state" and message["match"]["version"] >= version:
            return dict(message["match"])


def test_sockets_survive_redis_dropping_and_pausing_and_catch_up(database_url: str) -> None:  # noqa: F811
    env = server_env(DATABASE_URL=database_url, REDIS_URL=os.environ["REDIS_URL"])
    manage(env, "migrate", "--noinput")
    admin = redis.Redis.from_url(os.environ["REDIS_URL"])
    with Server(env) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        tokens = {name: register(http, name) for name in ("alice", "bob")}
        auth = {name: {"Authorization": f"Token {token}"} for name, token in tokens.items()}
        room = http.post("/api/rooms/", json={"game": "connect-four"}, headers=auth["alice"]).json()
        match_id = http.post(f"/api/rooms/{room['id']}/join/", headers=auth["bob"]).json()["match"]

        async def play() -> None:
            sockets = {
                name: await websockets.connect(f"{server.ws_url}/ws/rooms/{room['id']}/?token={token}")
                for name, token in tokens.items()
            }
            detail = await newest_state(sockets["alice"], 0)
            seats = {p["seat"]: p["username"] for p in detail["players"]}

            def move(version: int, column: str) -> None:
                mover = seats[version % 2]
                response = http.post(
                    f"/api/matches/{match_id}/moves/", json={"move": column, "version": version}, headers=auth[mover]
                )
                assert response.status_code == 201, response.text

            move(0, "4")
            for socket in sockets.values():
                await newest_state(socket, 1)
            # Redis drops every connection: a move made right after still reaches both.
            admin.client_kill_filter(_type="normal", skipme=True)
            await asyncio.to_thread(move, 1, "4")
            for socket in sockets.values():
                assert (await newest_state(socket, 2))["version"] >= 2
            # Redis stops answering for three seconds: the move is stored at once,
            # and both sockets, still open, see it once Redis is back.
            admin.execute_command("CLIENT", "PAUSE", "3000", "ALL")
            await asyncio.to_thread(move, 2, "3")
            for socket in sockets.values():
                assert (await newest_state(socket, 3))["version"] >= 3
            await asyncio.to_thread(move, 3, "3")
            for socket in sockets.values():
                assert (await newest_state(socket, 4))["version"] == 4
                await socket.close()

        asyncio.run(play())
