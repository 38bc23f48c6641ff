"""SQLite's writers queue on a lock of the process (core/db/sqlite/base.py).

The lock is held from BEGIN to COMMIT or ROLLBACK, whatever ends the
transaction: a leak would stop every later write in the server.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from typing import Any

import pytest
from django.db import connection, transaction

from core.db.sqlite import base
from games.models import ChatMessage

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="the embedded default's backend"),
]


def test_a_transaction_holds_the_writers_lock_until_it_commits() -> None:
    assert not base._writer.locked()
    with transaction.atomic():
        assert base._writer.locked()
        with transaction.atomic():  # a savepoint: no second BEGIN
            assert base._writer.locked()
        assert base._writer.locked()
    assert not base._writer.locked()


def test_the_lock_is_given_back_on_rollback_and_on_errors() -> None:
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        ChatMessage.objects.count()
        1 / 0
    assert not base._writer.locked()
    with transaction.atomic():
        transaction.set_rollback(True)
    assert not base._writer.locked()


def test_a_second_writer_waits_for_the_first_and_then_goes_on() -> None:
    order: list[str] = []
    begun = threading.Event()

    def other() -> None:
        begun.wait(5)
        with transaction.atomic():
            order.append("second")
        connection.close()

    thread = threading.Thread(target=other)
    thread.start()
    with transaction.atomic():
        begun.set()
        # The other thread is now queued on the lock, not inside SQLite.
        thread.join(0.2)
        assert thread.is_alive()
        order.append("first")
    thread.join(5)
    assert order == ["first", "second"]
    assert not base._writer.locked()


def test_a_writer_that_waits_too_long_fails_as_sqlite_would() -> None:
    failures: list[str] = []

    def other() -> None:
        try:
            with transaction.atomic():
                pass
        except Exception as error:  # noqa: BLE001 - the error is what is checked
            failures.append(str(error))
        finally:
            connection.close()

    # Every thread's connection reads the one settings dict of the alias.
    with transaction.atomic():
        timeout = connection.settings_dict["OPTIONS"]["timeout"]
        connection.settings_dict["OPTIONS"]["timeout"] = 0.1
        try:
            thread = threading.Thread(target=other)
            thread.start()
            thread.join(5)
        finally:
            connection.settings_dict["OPTIONS"]["timeout"] = timeout
    assert failures and "database is locked" in failures[0]


WRITER = """
import os, sys, time
import django
django.setup()
from django.db import connection, transaction
role = sys.argv[1]
if role == "waiter":
    # SQLite's own wait would give up after 0.1 s; the holder keeps its lock a second.
    connection.settings_dict["OPTIONS"]["timeout"] = 0.1
with transaction.atomic():
    connection.cursor().execute("CREATE TABLE IF NOT EXISTS probe (who text)")
    connection.cursor().execute("INSERT INTO probe VALUES (%s)", [role])
    if role == "holder":
        print("holding", flush=True)
        time.sleep(1.0)
print("done", flush=True)
"""


def test_a_writer_in_another_process_queues_behind_this_ones_commit(tmp_path: Any) -> None:
    from tests.servers import ROOT, server_env

    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    holder = subprocess.Popen([sys.executable, "-c", WRITER, "holder"], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    waiter = subprocess.run([sys.executable, "-c", WRITER, "waiter"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
    assert holder.wait(30) == 0
    # It waited on the writers' lock file for the commit, not in SQLite's busy
    # handler (which would have failed it with "database is locked").
    assert waiter.returncode == 0, waiter.stderr
    assert waiter.stdout.strip() == "done"
    rows = sqlite3.connect(tmp_path / "db.sqlite3").execute("SELECT who FROM probe").fetchall()
    assert rows == [("holder",), ("waiter",)]
