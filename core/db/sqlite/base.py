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
starts the moment the last one ends. Between processes (the server processes
of `serve --workers N`, a management command) the holder of that lock then
takes an exclusive lock on a file beside the database (flock), on which the
kernel wakes a waiting process the moment the lock is given back: the
processes' writers queue the same way. The kernel drops the file lock of a
process that dies, kill -9 included.
"""

from __future__ import annotations

import fcntl
import os
import threading
from typing import Any

from django.db import OperationalError
from django.db.backends.sqlite3 import base

# The longest a writer waits for its turn; then it fails as SQLite would
# have ("database is locked"), which services turn into 409 busy.
WAIT_SECONDS = 20.0

_writer = threading.Lock()
# The open lock file of each database file this process writes (path -> fd),
# only ever used by the thread holding _writer.
_files: dict[str, int] = {}


def _lock_file(database: str) -> int | None:
    """This process's descriptor of ``database``'s writers' lock file; None for a database in memory."""
    if not database or database == ":memory:" or "mode=memory" in database:
        return None
    descriptor = _files.get(database)
    if descriptor is None:
        descriptor = _files[database] = os.open(f"{database}-writers", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    return descriptor


class DatabaseWrapper(base.DatabaseWrapper):
    holds_writer = False
    # The lock file this connection holds while it holds _writer (None: none).
    writer_file: int | None = None

    def _start_transaction_under_autocommit(self) -> None:
        if not _writer.acquire(timeout=self.settings_dict.get("OPTIONS", {}).get("timeout", WAIT_SECONDS)):
            raise OperationalError("database is locked (waited for the other writers of this process)")
        self.holds_writer = True
        try:
            descriptor = _lock_file(str(self.settings_dict["NAME"]))
            if descriptor is not None:
                # Blocks until the other processes' writer of the moment commits
                # or rolls back (or dies); SQLite's own lock would have it sleep.
                fcntl.flock(descriptor, fcntl.LOCK_EX)
                self.writer_file = descriptor
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writer()
            raise

    def _release_writer(self) -> None:
        if self.holds_writer:
            self.holds_writer = False
            # The file locked at BEGIN, not one looked up again by name.
            if self.writer_file is not None:
                fcntl.flock(self.writer_file, fcntl.LOCK_UN)
                self.writer_file = None
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
