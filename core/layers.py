"""The channel layer of a single server process (the embedded default, no Redis).

Channels' in-memory layer sweeps for expired messages and group
memberships before every receive and every group send, and the sweep walks
every membership of every group: with a few hundred sockets open (three
groups each) each push paid for all of them, so the cost of a move grew with
the number of people online. Expiry is a matter of seconds (a message
unread for a minute, a membership a day old), so sweeping once a second
keeps its meaning and makes a push cost the same with ten sockets or a
thousand.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer

SWEEP_SECONDS = 1.0


class InProcessChannelLayer(InMemoryChannelLayer):
    _swept = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept < SWEEP_SECONDS:
            return
        self._swept = now
        super()._clean_expired()  # type: ignore[no-untyped-call]
