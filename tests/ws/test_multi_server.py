"""Two servers, one PostgreSQL database and one Redis: a move made through one
reaches a player connected to the other. This is how the service grows past
one process."""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from typing import Any

import httpx
import psycopg
import pytest
import websockets

from tests.servers import Server, manage, server_env

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def database_url() -> Any:
    """A fresh PostgreSQL database beside the one DATABASE_URL names."""
    base = os.environ["DATABASE_URL"]
    name = f"boardgames_multi_{uuid.uuid4().hex[:8]}"
    admin_url = base.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield base.rsplit("/", 1)[0] + f"/{name}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def register(client: httpx.Client, name: str) -> str:
    response = client.post("/api/auth/register/", json={"username": name, "password": "secret-pass"})
    assert response.status_code == 201, response.text
    return str(response.json()["token"])


async def next_of(socket: Any, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout=10))
        if message["type"] == kind:
            return dict(message)


def test_a_move_through_one_server_reaches_a_player_on_the_other(database_url: str) -> None:
    env = server_env(DATABASE_URL=database_url, REDIS_URL=os.environ["REDIS_URL"])
    manage(env, "migrate", "--noinput")
    with Server(env) as one, Server(env) as two:
        with httpx.Client(base_url=one.url) as via_one, httpx.Client(base_url=two.url) as via_two:
            alice = register(via_one, "alice")
            bob = register(via_two, "bob")
            room = via_one.post("/api/rooms/", json={"game": "connect-four"}, headers={"Authorization": f"Token {alice}"}).json()
            joined = via_two.post(f"/api/rooms/{room['id']}/join/", headers={"Authorization": f"Token {bob}"})
            assert joined.status_code == 200
            match_id = joined.json()["match"]

            async def scenario() -> dict[str, Any]:
                async with websockets.connect(f"{two.ws_url}/ws/rooms/{room['id']}/?token={bob}") as socket:
                    snapshot = await next_of(socket, "state")
                    assert snapshot["match"]["version"] == 0
                    moved = await asyncio.to_thread(
                        via_one.post,
                        f"/api/matches/{match_id}/moves/",
                        json={"move": "4", "version": 0},
                        headers={"Authorization": f"Token {alice}"},
                    )
                    assert moved.status_code == 201, moved.text
                    return await next_of(socket, "state")

            pushed = asyncio.run(scenario())
    assert pushed["match"]["version"] == 1
    assert pushed["match"]["seat"] == 1
    assert pushed["match"]["legal_moves"] == [str(c) for c in range(1, 8)]
