"""Wakes this process's scheduler at once instead of at its next poll.

Set after a commit that hands the turn to a bot, and when a bot's answer is
ready, in this process and (over the hub of `serve --workers N`) in the
others; the poll remains for work that another machine created.
"""

from __future__ import annotations

import threading

from channels.layers import get_channel_layer

from core import hub
from core.layers import HubChannelLayer

_event = threading.Event()
# Several server processes on one machine run one scheduler between them
# (games.scheduler): a bot's turn made in another process wakes it there.
WAKE = "scheduler.wake"
hub.on_signal(WAKE, _event.set)


def wake() -> None:
    _event.set()
    # Only the hub's layer has other processes of this machine to tell. (Not
    # getattr: channels-redis's layer looks every attribute up on the running
    # loop's layer, and raises where no loop runs, as in a request thread.)
    layer = get_channel_layer()
    if isinstance(layer, HubChannelLayer):
        layer.signal(WAKE)


def wait(timeout: float) -> None:
    _event.wait(timeout)
    _event.clear()
