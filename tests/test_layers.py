"""The single process's channel layer (core/layers.py): what Channels' in-memory
layer does, with its sweep once a second and each message handed over as it is."""

from __future__ import annotations

import asyncio
import time

import pytest

from core import layers
from core.layers import InProcessChannelLayer


def test_a_group_send_reaches_every_member_once_and_nothing_else() -> None:
    async def run() -> None:
        layer = InProcessChannelLayer()
        members = [await layer.new_channel() for _ in range(3)]
        outsider = await layer.new_channel()
        for channel in members:
            await layer.group_add("room-1", channel)
        await layer.group_add("room-2", outsider)
        message = {"type": "match.public", "view": {"version": 3}}
        await layer.group_send("room-1", message)
        received = [await asyncio.wait_for(layer.receive(channel), 1) for channel in members]
        # The same message, not a copy of it: receivers only read it.
        assert all(got is message for got in received)
        for channel in members:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(layer.receive(channel), 0.05)
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(outsider), 0.05)

    asyncio.run(run())


def test_a_full_socket_misses_a_group_push_but_the_others_get_it() -> None:
    async def run() -> None:
        layer = InProcessChannelLayer(capacity=2)
        full, free = await layer.new_channel(), await layer.new_channel()
        for channel in (full, free):
            await layer.group_add("room-1", channel)
        for n in range(2):
            await layer.send(full, {"type": "x", "n": n})
        await layer.group_send("room-1", {"type": "match.public", "n": 2})
        assert (await layer.receive(free))["n"] == 2
        assert [(await layer.receive(full))["n"] for _ in range(2)] == [0, 1]
        with pytest.raises(layers.ChannelFull):
            for n in range(3):
                await layer.send(full, {"type": "x", "n": n})

    asyncio.run(run())


def test_unread_messages_still_expire_and_take_their_socket_out_of_its_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        layer = InProcessChannelLayer(expiry=1)
        gone, here = await layer.new_channel(), await layer.new_channel()
        for channel in (gone, here):
            await layer.group_add("room-1", channel)
        await layer.send(gone, {"type": "x"})
        later = time.time() + 5
        monkeypatch.setattr(layers.time, "time", lambda: later)
        layer._swept = float("-inf")  # a second has passed since the last sweep
        await layer.group_send("room-1", {"type": "y"})
        assert list(layer.groups["room-1"]) == [here]
        assert (await layer.receive(here))["type"] == "y"

    asyncio.run(run())
