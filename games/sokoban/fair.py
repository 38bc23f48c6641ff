"""Slots for work that takes a core each, shared fairly between players.

Checking an uploaded level runs the solver in a child process for up to a
few seconds. With one slot for the whole server, one player's upload of 20
levels made everyone else's single level wait for all 20. Here up to
``size`` checks run at once, and when a slot frees it goes to the player
whose turn it is, round-robin: a player with many levels waiting gets one
slot in turn with everyone else, not all of them.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager


def default_size() -> int:
    """One check per core but one, which is left to the players' requests."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 2
    return max(1, cores - 1)


class FairSlots:
    def __init__(self, size: int) -> None:
        self.size = size
        self.busy = 0
        self.changed = threading.Condition()
        # Each owner's waiting tickets, and whose turn comes next.
        self.waiting: dict[object, deque[object]] = {}
        self.turns: deque[object] = deque()

    def acquire(self, owner: object) -> None:
        ticket = object()
        with self.changed:
            queue = self.waiting.setdefault(owner, deque())
            if not queue:
                self.turns.append(owner)
            queue.append(ticket)
            while not (self.busy < self.size and self.turns[0] is owner and queue[0] is ticket):
                self.changed.wait()
            self.busy += 1
            queue.popleft()
            self.turns.popleft()
            if queue:
                self.turns.append(owner)  # to the back of the line for its next one
            else:
                del self.waiting[owner]
            self.changed.notify_all()

    def release(self) -> None:
        with self.changed:
            self.busy -= 1
            self.changed.notify_all()

    @contextmanager
    def slot(self, owner: object) -> Iterator[None]:
        self.acquire(owner)
        try:
            yield
        finally:
            self.release()
