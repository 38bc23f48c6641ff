"""The Redis channel layer (core.layers.RedisChannelLayer) against a real Redis.

Two layer objects stand for two server processes: each has its own
connections and subscriptions, as a process would.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
import redis

from core.layers import RedisChannelLayer

pytestmark = pytest.mark.redis


def layer() -> Any:
    return RedisChannelLayer(hosts=[os.environ["REDIS_URL"]], prefix=f"test{os.getpid()}")


def test_a_sockets_channel_needs_no_subscription_of_its_own_and_is_reachable_from_another_process() -> None:
    async def run() -> None:
        here, there = layer(), layer()
        channels = [await here.new_channel() for _ in range(3)]
        shard = here._get_layer()._shards[0]
        # One pattern for all of this process's channels, nothing per channel.
        assert len(shard._subscribed_to) == 1 and next(iter(shard._subscribed_to)).endswith("!*")
        numsub = dict(await asyncio.to_thread(redis.Redis.from_url(os.environ["REDIS_URL"]).pubsub_numsub, *channels))
        assert all(count == 0 for count in numsub.values())
        await asyncio.sleep(0.2)  # the pattern's subscription reaches Redis
        await there.send(channels[1], {"type": "hello", "n": 1})
        assert await asyncio.wait_for(here.receive(channels[1]), 5) == {"type": "hello", "n": 1}
        await here.flush()
        await there.flush()

    asyncio.run(run())


def test_a_group_push_reaches_the_other_process_even_while_this_ones_subscriptions_are_held() -> None:
    async def run() -> None:
        here, there = layer(), layer()
        listener = await there.new_channel()
        await there.group_add("room-1", listener)
        own = await here.new_channel()  # this process's subscribing connection is set up
        await asyncio.sleep(0.2)
        shard = here._get_layer()._shards[0]
        # channels-redis held this lock for every PUBLISH; a push now does not wait for it.
        async with shard._lock:
            for n in range(20):
                await asyncio.wait_for(here.group_send("room-1", {"type": "push", "n": n}), 5)
        got = [await asyncio.wait_for(there.receive(listener), 5) for _ in range(20)]
        assert [message["n"] for message in got] == list(range(20))
        await here.group_discard("room-1", own)
        await here.flush()
        await there.flush()

    asyncio.run(run())


def test_a_changes_pushes_sent_together_arrive_in_order_in_each_group() -> None:
    async def run() -> None:
        here, there = layer(), layer()
        public, own = await there.new_channel(), await there.new_channel()
        await there.group_add("room-2", public)
        await there.group_add("room-2", own)
        await there.group_add("room-2-user-7", own)
        await here.new_channel()
        await asyncio.sleep(0.2)
        pushes = [("room-2", {"type": "public", "n": 1}), ("room-2-user-7", {"type": "seat", "n": 2}), ("room-2", {"type": "public", "n": 3})]
        await asyncio.wait_for(here.group_send_many(pushes), 5)
        assert [(await asyncio.wait_for(there.receive(public), 5))["n"] for _ in range(2)] == [1, 3]
        assert [(await asyncio.wait_for(there.receive(own), 5))["n"] for _ in range(3)] == [1, 2, 3]
        await here.flush()
        await there.flush()

    asyncio.run(run())


def test_a_request_thread_publishes_itself_and_a_failure_is_left_to_the_loop() -> None:
    from games.broadcast import _published_from_this_thread

    async def run() -> None:
        there = layer()
        listener = await there.new_channel()
        await there.group_add("room-3", listener)
        await asyncio.sleep(0.2)
        here = layer()  # another process's layer, used from a thread with no loop
        pushes = [("room-3", {"type": "public", "n": 1}), ("room-3", {"type": "public", "n": 2})]
        assert await asyncio.to_thread(here.publish_from_thread, pushes) is True
        assert [(await asyncio.wait_for(there.receive(listener), 5))["n"] for _ in range(2)] == [1, 2]
        # Redis away: the thread says so at once, for the loop to retry.
        away = RedisChannelLayer(hosts=["redis://127.0.0.1:1"], prefix="away")
        assert await asyncio.to_thread(_published_from_this_thread, away, pushes) is False
        await there.flush()

    asyncio.run(run())
