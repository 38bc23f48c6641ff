"""SQLite with writers queued in the process, first come first served.

Every transaction here begins IMMEDIATE (config/settings.py), taking
SQLite's one write lock at BEGIN. A thread that finds the lock taken waits
in SQLite's busy handler, which does not wait for the lock to be released:
it sleeps and tries again, sleeping longer each time (up to 100 ms a try).
Under load the lock is then free much of the time while every waiter
sleeps, and a waiter can lose to newcomers again and again: with 120 games
of players who think two seconds a move, moves waited seconds for a lock
held for a millisecond at a time.

So within a process, transactions take a lock of ours before BEGIN and give
it back at COMMIT or ROLLBACK: waiting writers queue on it and the next one
starts the moment the last one ends. Between processes (a second server, a
management command) SQLite's own lock still decides, as before.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db import OperationalError
from django.db.backends.sqlite3 import base

# The longest a writer waits for its turn; then it fails as SQLite would
# have ("database is locked"), which services turn into 409 busy.
WAIT_SECONDS = 20.0

_writer = threading.Lock()


class DatabaseWrapper(base.DatabaseWrapper):
    holds_writer = False

    def _start_transaction_under_autocommit(self) -> None:
        if not _writer.acquire(timeout=self.settings_dict.get("OPTIONS", {}).get("timeout", WAIT_SECONDS)):
            raise OperationalError("database is locked (waited for the other writers of this process)")
        self.holds_writer = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writer()
            raise

    def _release_writer(self) -> None:
        if self.holds_writer:
            self.holds_writer = False
            _writer.release()

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._release_writer()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._release_writer()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._release_writer()

    def _set_autocommit(self, autocommit: bool) -> Any:
        # Back to autocommit with the transaction neither committed nor rolled
        # back is not a path Django takes, but the lock must never outlive it.
        result = super()._set_autocommit(autocommit)
        if autocommit:
            self._release_writer()
        return result
