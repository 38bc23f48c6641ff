"""Database hygiene for the long-lived background threads (scheduler, solves)."""

from __future__ import annotations

from django.db import connections


def keep_connections_usable() -> None:
    """Drop only connections that broke (a database restart, a network blip).

    ``close_old_connections`` would close and reopen the connection on every
    poll here (CONN_MAX_AGE is 0): on PostgreSQL a new backend process several
    times a second per server, for an idle thread.
    """
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None and not connection.in_atomic_block and not connection.is_usable():
            connection.close()
