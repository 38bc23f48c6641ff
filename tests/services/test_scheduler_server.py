"""The scheduler in a real server: AI turns and timeouts with nobody connected,
and after a restart."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from tests.servers import Server, manage, server_env, wait_until


def register(client: httpx.Client, name: str) -> None:
    token = client.post("/api/auth/register/", json={"username": name, "password": "secret-pass"}).json()["token"]
    client.headers["Authorization"] = f"Token {token}"


def test_bot_turns_are_played_after_a_restart_and_timeouts_with_nobody_connected(tmp_path: Path) -> None:
    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    manage(env, "migrate", "--noinput")
    quiet = Server({**env, "SCHEDULER": "off"})
    with quiet:
        client = httpx.Client(base_url=quiet.url)
        register(client, "alice")
        room = client.post("/api/rooms/", json={"game": "connect-four", "options": {"ai": "random"}}).json()
        match = client.post(f"/api/rooms/{room['id']}/start/").json()
        moved = client.post(f"/api/matches/{match['id']}/moves/", json={"move": "4", "version": 0})
        assert moved.status_code == 201
        time.sleep(1.0)
        assert client.get(f"/api/matches/{match['id']}/").json()["version"] == 1  # no scheduler, no bot move
    # A new server process on the same database: its scheduler finds the bot's turn.
    with Server(env, port=quiet.port) as server:
        client = httpx.Client(base_url=server.url, headers=client.headers)
        detail = wait_until(lambda: (d := client.get(f"/api/matches/{match['id']}/").json())["version"] == 2 and d)
        assert detail["to_move"] == [0]
        # A 1-second turn limit: alice walks away, the server moves for her.
        timed = client.post("/api/rooms/", json={"game": "connect-four", "options": {"turn_seconds": 1}}).json()
        timed_match = client.post(f"/api/rooms/{timed['id']}/start/").json()
        assert timed_match["turn_deadline"]
        moves = wait_until(lambda: (m := client.get(f"/api/matches/{timed_match['id']}/moves/").json()) and m)
        assert moves[0]["made_by"] == "timeout" and moves[0]["seat"] == 0
        # ... and then the bot answers the timed-out move.
        later = wait_until(lambda: len(client.get(f"/api/matches/{timed_match['id']}/moves/").json()) >= 2 and True)
        assert later
