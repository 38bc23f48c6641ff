"""Bursts: a hundred sign-ups, logins and moves at once are answered 2xx or 4xx, never 5xx.

On the configured database (SQLite in `make test`, PostgreSQL in the CI
round); each thread has its own connection, as the server's threads do.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from tests.conftest import make_player, start_match

pytestmark = pytest.mark.django_db(transaction=True)

BURST = 100


def at_once(calls: list[Any]) -> list[int]:
    """Run every call (returning a status code) in its own thread, all released together."""
    barrier = threading.Barrier(len(calls))
    statuses = [0] * len(calls)

    def worker(i: int) -> None:
        try:
            barrier.wait()
            statuses[i] = calls[i]()
        except Exception:  # an exception escaping a view is what a 500 is
            statuses[i] = 500
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses


def test_a_hundred_sign_ups_at_once_are_all_answered_without_a_server_error() -> None:
    def sign_up(i: int) -> Any:
        return lambda: APIClient().post(
            "/api/auth/register/", {"username": f"burst{i}", "password": "burst-pass-9"}, format="json"
        ).status_code

    statuses = at_once([sign_up(i) for i in range(BURST)])
    assert all(status < 500 for status in statuses), Counter(statuses)
    assert statuses.count(201) >= BURST * 9 // 10, Counter(statuses)


def test_a_hundred_logins_and_moves_at_once_are_all_answered_without_a_server_error() -> None:
    alice, bob = make_player("alice"), make_player("bob")
    matches = [start_match(alice, bob) for _ in range(10)]

    def log_in() -> int:
        return int(APIClient().post("/api/auth/login/", {"username": "alice", "password": "secret-pass"}, format="json").status_code)

    def move(match: dict[str, Any]) -> Any:
        mover = alice if match["players"][0]["username"] == "alice" else bob
        return lambda: mover.post(f"/api/matches/{match['id']}/moves/", {"move": "4", "version": 0}).status_code

    calls = [log_in] * (BURST // 2) + [move(matches[i % len(matches)]) for i in range(BURST // 2)]
    statuses = at_once(calls)
    assert all(status < 500 for status in statuses), Counter(statuses)
    logins, moves = Counter(statuses[: BURST // 2]), Counter(statuses[BURST // 2 :])
    assert logins == {200: BURST // 2}
    assert moves[201] == len(matches) and set(moves) <= {201, 409}


def test_a_password_is_hashed_before_the_sign_up_transaction_begins(monkeypatch: Any) -> None:
    from django.contrib.auth import base_user

    seen: list[bool] = []
    real = base_user.make_password

    def watched(*args: Any, **kwargs: Any) -> str:
        seen.append(connection.in_atomic_block)
        return str(real(*args, **kwargs))

    # The model's set_password hashes with the make_password it imported.
    monkeypatch.setattr(base_user, "make_password", watched)
    response = APIClient().post("/api/auth/register/", {"username": "carol", "password": "carol-pass-9"}, format="json")
    assert response.status_code == 201
    assert seen == [False], "the hash must not hold the database's write lock"
