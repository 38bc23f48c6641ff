"""Racing writers: exactly one move is stored, the rest get a 409, never a 500.

Runs on the configured database: SQLite in `make test`, PostgreSQL in the CI
round (DATABASE_URL). Each thread has its own connection, as requests do.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connection, connections

from games.models import Match, Move, Seat
from tests.conftest import Player, make_player, start_match

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 12


def race(calls: list[tuple[Player, str, Any]]) -> list[tuple[int, Any]]:
    """Fire every (player, url, payload) POST at once; return (status, body) for each."""
    barrier = threading.Barrier(len(calls))
    results: list[tuple[int, Any]] = [(0, None)] * len(calls)

    def worker(i: int, player: Player, url: str, payload: Any) -> None:
        try:
            barrier.wait()
            response = player.post(url, payload)
            results[i] = (response.status_code, response.json())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, *call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture
def players() -> tuple[Player, Player]:
    return make_player("alice"), make_player("bob")


def test_one_player_submitting_many_times_at_once_stores_one_move(players: tuple[Player, Player]) -> None:
    alice, bob = players
    match = start_match(alice, bob)
    url = f"/api/matches/{match['id']}/moves/"
    results = race([(alice, url, {"move": str(1 + i % 7), "version": 0}) for i in range(THREADS)])
    statuses = Counter(status for status, _ in results)
    assert statuses[201] == 1, results
    assert statuses[409] == THREADS - 1, results
    assert {body["code"] for status, body in results if status == 409} <= {"stale_version", "not_your_turn", "busy", "conflict"}
    assert Move.objects.filter(match_id=match["id"]).count() == 1
    assert Match.objects.get(pk=match["id"]).version == 1


def test_both_players_at_once_store_exactly_one_move(players: tuple[Player, Player]) -> None:
    alice, bob = players
    match = start_match(alice, bob)
    url = f"/api/matches/{match['id']}/moves/"
    calls = [(alice if i % 2 == 0 else bob, url, {"move": "4", "version": 0}) for i in range(THREADS)]
    results = race(calls)
    statuses = Counter(status for status, _ in results)
    assert statuses[201] == 1 and statuses[409] == THREADS - 1, results
    stored = Move.objects.get(match_id=match["id"])
    assert stored.seat == 0 and stored.ply == 1


def test_racing_for_the_last_seat_seats_exactly_one(players: tuple[Player, Player]) -> None:
    alice, _ = players
    room = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    guests = [make_player(f"guest{i}") for i in range(6)]
    results = race([(g, f"/api/rooms/{room['id']}/join/", None) for g in guests])
    statuses = Counter(status for status, _ in results)
    assert statuses[200] == 1 and statuses[409] == len(guests) - 1, results
    assert Seat.objects.filter(room_id=room["id"], user__isnull=False).count() == 2
    assert Match.objects.filter(room_id=room["id"]).count() == 1


def test_racing_rematches_start_one_match(players: tuple[Player, Player]) -> None:
    alice, bob = players
    match = start_match(alice, bob)
    alice.post(f"/api/matches/{match['id']}/resign/")
    url = f"/api/rooms/{match['room']}/rematch/"
    results = race([(alice if i % 2 else bob, url, None) for i in range(8)])
    statuses = Counter(status for status, _ in results)
    # A rematch is an offer the other accepts (issue #11): the first request
    # offers (202) or, once accepted, starts the match (201, exactly once);
    # requests after the start find a match in play (409).
    assert statuses[201] == 1 and statuses[201] + statuses[202] + statuses[409] == 8, results
    assert Match.objects.filter(room_id=match["room"]).count() == 2


@pytest.mark.postgres
def test_the_ci_round_really_runs_on_postgres() -> None:
    # Guards the CI round against silently falling back to SQLite.
    assert connection.vendor == "postgresql"
