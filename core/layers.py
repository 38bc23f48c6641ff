"""The channel layer of a single server process (the embedded default, no Redis).

Channels' in-memory layer sweeps for expired messages and group
memberships before every receive and every group send, and the sweep walks
every membership of every group: with a few hundred sockets open (three
groups each) each push paid for all of them, so the cost of a move grew with
the number of people online. Expiry is a matter of seconds (a message
unread for a minute, a membership a day old), so sweeping once a second
keeps its meaning and makes a push cost the same with ten sockets or a
thousand.

It also hands each socket the message itself instead of a deep copy. The
copy stands in for the serialising a networked layer does, so that no
receiver can change what another receives; here the receivers only read
what they are sent (a handler that changed a message would be a bug with
Redis too, where each gets its own), and the copies were an eighth of the
server's CPU per move. A group send puts the message on each member's
queue at once, without a task per member.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from channels.exceptions import ChannelFull
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

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)  # type: ignore[no-untyped-call]
        self._put(channel, message)

    def _put(self, channel: str, message: dict[str, Any]) -> None:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))  # type: ignore[no-untyped-call]
        try:
            queue.put_nowait((time.time() + self.expiry, message))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)  # type: ignore[no-untyped-call]
        self._clean_expired()
        for channel in self.groups.get(group, {}):
            try:
                self._put(channel, message)
            except ChannelFull:
                pass  # as Channels does: a full socket misses the push, and resyncs on the next
