"""Wakes this process's scheduler at once instead of at its next poll.

Set after a commit that hands the turn to a bot, and when a bot's answer is
ready; the poll remains for work that another process created.
"""

from __future__ import annotations

import threading

_event = threading.Event()


def wake() -> None:
    _event.set()


def wait(timeout: float) -> None:
    _event.wait(timeout)
    _event.clear()
