"""PostgreSQL's pool checks a rested connection before handing it out (core/db/postgresql)."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection
from django.test import Client

from accounts.models import User
from core.db.postgresql import base as pool

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def _kill_other_backends() -> int:
    """End every other session on the test database, as a PostgreSQL restart would."""
    params = connection.get_connection_params()
    with psycopg.connect(dbname=params["dbname"], host=params.get("host"), port=params.get("port"), user=params.get("user"), autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return len(rows)


def _me(client: Client) -> int:
    return client.get("/api/auth/me/").status_code


def test_a_connection_that_rested_is_checked_and_replaced_when_postgresql_dropped_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "RESTED_SECONDS", 0.2)
    User.objects.create_user("alice", password="secret-pass")
    client = Client(raise_request_exception=False)
    assert client.login(username="alice", password="secret-pass")
    assert _me(client) == 200
    connection.close()  # back to the pool, as at the end of a served request (the test client keeps it)
    assert _kill_other_backends() >= 1
    time.sleep(0.3)
    assert _me(client) == 200


@pytest.mark.parametrize(("rested_seconds", "pinged"), [(60.0, 0), (0.0, 5)])
def test_a_connection_just_returned_is_handed_out_without_a_round_trip(
    monkeypatch: pytest.MonkeyPatch, rested_seconds: float, pinged: int
) -> None:
    User.objects.create_user("alice", password="secret-pass")
    client = Client()
    assert client.login(username="alice", password="secret-pass")
    assert _me(client) == 200
    monkeypatch.setattr(pool, "RESTED_SECONDS", rested_seconds)
    checked: list[object] = []
    monkeypatch.setattr(pool.ConnectionPool, "check_connection", staticmethod(checked.append))
    for _ in range(5):
        connection.close()  # back to the pool, as at the end of a served request (the test client keeps it)
        assert _me(client) == 200
    # Each request took a connection that had come back a moment before:
    # pinged only when every connection counts as rested.
    assert len(checked) == pinged

