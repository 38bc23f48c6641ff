"""Quick pairing under races: many seekers at the same moment, cancels racing pairings.

The in-process races run on the configured database (SQLite in `make test`,
PostgreSQL in the CI round). The two-server race needs PostgreSQL and Redis:
two real server processes, each pairing from the requests it receives and
from its own scheduler, over one database.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import psycopg
import pytest
from django.db import connections

from games.models import Match, Player
from matchmaking import services
from matchmaking.models import Seek
from tests.conftest import make_player
from tests.servers import Server, manage, server_env

SEEKERS = 16


def seated_once(matches: list[Any], players: list[Any]) -> None:
    """Exactly one match per pair of seekers, and every seeker in exactly one."""
    seated = Counter(player.user_id for player in Player.objects.filter(match__in=matches))
    assert len(matches) == len(players) // 2
    assert sorted(seated.values()) == [1] * len(players)


@pytest.mark.django_db(transaction=True)
def test_sixteen_seekers_at_the_same_moment_make_eight_matches() -> None:
    people = [make_player(f"s{i}") for i in range(SEEKERS)]
    barrier = threading.Barrier(SEEKERS)

    def seek(person: Any) -> int:
        try:
            barrier.wait()
            return int(person.post("/api/seeks/", {"game": "connect-four"}).status_code)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(SEEKERS) as pool:
        statuses = list(pool.map(seek, people))
    assert statuses == [201] * SEEKERS
    services.pairing_pass()  # what the scheduler does next, for a pass a lock wait may have postponed
    seated_once(list(Match.objects.all()), people)
    assert Seek.objects.filter(status="paired").count() == SEEKERS


@pytest.mark.django_db(transaction=True)
def test_a_cancel_racing_a_pairing_either_pairs_or_cancels() -> None:
    for round_ in range(6):
        alice, bob = make_player(f"a{round_}"), make_player(f"b{round_}")
        first = alice.post("/api/seeks/", {"game": "eskimo"}).json()
        barrier = threading.Barrier(2)
        outcome: dict[str, Any] = {}

        def cancel() -> None:
            try:
                barrier.wait()
                outcome["cancel"] = alice.client.delete(f"/api/seeks/{first['id']}/").status_code
            finally:
                connections.close_all()

        def pair() -> None:
            try:
                barrier.wait()
                outcome["seek"] = bob.post("/api/seeks/", {"game": "eskimo"}).json()
            finally:
                connections.close_all()

        threads = [threading.Thread(target=cancel), threading.Thread(target=pair)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        ended = Seek.objects.get(pk=first["id"])
        if ended.status == "paired":
            assert outcome["cancel"] == 409 and outcome["seek"]["status"] == "paired"
            assert Match.objects.filter(pk=ended.match_id).exists()
        else:
            assert (ended.status, ended.reason, outcome["cancel"]) == ("cancelled", "cancelled", 204)
            assert outcome["seek"]["status"] == "waiting"
            assert not Match.objects.filter(players__user=alice.user).exists()
        Seek.objects.filter(status="waiting").update(status="cancelled")


@pytest.mark.postgres
@pytest.mark.redis
def test_sixteen_seekers_through_two_servers_make_eight_matches() -> None:
    base = os.environ["DATABASE_URL"]
    name = f"boardgames_seek_{uuid.uuid4().hex[:8]}"
    admin_url = base.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    database_url = base.rsplit("/", 1)[0] + f"/{name}"
    try:
        env = server_env(DATABASE_URL=database_url, REDIS_URL=os.environ["REDIS_URL"])
        manage(env, "migrate", "--noinput")
        with Server(env) as one, Server(env) as two:
            urls = [one.url, two.url] * (SEEKERS // 2)
            tokens = []
            for i, url in enumerate(urls):
                response = httpx.post(f"{url}/api/auth/register/", json={"username": f"r{i}", "password": "secret-pass"})
                assert response.status_code == 201, response.text
                tokens.append(response.json()["token"])
            barrier = threading.Barrier(SEEKERS)

            def seek(i: int) -> dict[str, Any]:
                barrier.wait()
                headers = {"Authorization": f"Token {tokens[i]}"}
                response = httpx.post(f"{urls[i]}/api/seeks/", json={"game": "connect-four"}, headers=headers, timeout=30)
                assert response.status_code == 201, response.text
                return dict(response.json())

            with ThreadPoolExecutor(SEEKERS) as pool:
                list(pool.map(seek, range(SEEKERS)))
            # Each server's scheduler pairs whatever a lock wait left waiting, within a second or two.
            for _ in range(50):
                seeks = [
                    httpx.get(f"{urls[i]}/api/seeks/", headers={"Authorization": f"Token {tokens[i]}"}).json()["results"]
                    for i in range(SEEKERS)
                ]
                if all(s[0]["status"] == "paired" for s in seeks):
                    break
                threading.Event().wait(0.2)
        with psycopg.connect(database_url) as db:
            matches = db.execute("SELECT count(*) FROM games_match").fetchone()[0]
            seated = db.execute(
                "SELECT user_id, count(*) FROM games_player WHERE user_id IS NOT NULL GROUP BY user_id"
            ).fetchall()
            paired = db.execute("SELECT count(*) FROM matchmaking_seek WHERE status = 'paired'").fetchone()[0]
        assert matches == SEEKERS // 2
        assert len(seated) == SEEKERS and all(count == 1 for _, count in seated)
        assert paired == SEEKERS
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
