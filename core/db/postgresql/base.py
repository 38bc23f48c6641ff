"""PostgreSQL through psycopg's pool, with a connection checked before use only once it has rested.

The pool (Django's ``OPTIONS["pool"]``) can check each connection it hands
out, and Django has it do so when CONN_HEALTH_CHECKS is on: one more round
trip to PostgreSQL at the start of every request, for a connection that
answered another request a millisecond before. Here a connection given back
to the pool less than RESTED_SECONDS ago is handed out as it is; one that
rested longer (on a quiet server; and every connection after PostgreSQL
restarted, which takes longer than that) is checked first, and replaced if
it fails, as Django's check would.
"""

from __future__ import annotations

import time
import weakref
from typing import Any

from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg import Connection
from psycopg_pool import ConnectionPool

RESTED_SECONDS = 1.0

_returned_at: weakref.WeakKeyDictionary[Connection[Any], float] = weakref.WeakKeyDictionary()


def returned(connection: Connection[Any]) -> None:
    """A connection made, or given back to the pool: it starts resting."""
    _returned_at[connection] = time.monotonic()


def rested(connection: Connection[Any]) -> bool:
    return time.monotonic() - _returned_at.get(connection, float("-inf")) >= RESTED_SECONDS


def _check(pool: ConnectionPool[Any], connection: Connection[Any]) -> None:
    """The pool's ``check``: raises if a rested connection no longer works (the pool then drops it).

    One that fails most likely failed with the others resting beside it
    (PostgreSQL restarted): the pool then checks those too, at once. Else
    it would find them dead one request at a time, waiting a second, then
    two, then four before each next try, and the requests would fail with a
    pool timeout meanwhile.
    """
    if not rested(connection):
        return
    try:
        ConnectionPool.check_connection(connection)
    except Exception:
        pool.check()
        raise


class DatabaseWrapper(base.DatabaseWrapper):  # type: ignore[misc]
    @property
    def pool(self) -> ConnectionPool[Any] | None:
        # As Django makes its pool, with our check in place of its own.
        options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not options:
            return None
        if self.alias not in self._connection_pools:
            params = self.get_connection_params()
            params["autocommit"] = True  # Django sets its own mode on each connection it takes
            made = ConnectionPool(
                kwargs=params,
                open=False,  # opened on first use, as Django's
                configure=self._configure_and_start_resting,
                check=lambda connection: _check(made, connection),
                **({} if options is True else options),
            )
            self._connection_pools.setdefault(self.alias, made)  # the first of racing threads wins
        pool: ConnectionPool[Any] = self._connection_pools[self.alias]
        return pool

    def _configure_and_start_resting(self, connection: Connection[Any]) -> None:
        self._configure_connection(connection)
        returned(connection)

    def _close(self) -> None:
        # Given back to the pool here, not by the pool's ``reset``: with a
        # reset the pool hands every returned connection to a worker thread
        # of its own, one more thread hand-off at the end of every request.
        if self.pool is not None and self.connection is not None:
            returned(self.connection)
        super()._close()
