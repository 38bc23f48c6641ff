"""The hub of `serve --workers N` (core/hub.py) and the layer that uses it
(core.layers.HubChannelLayer): two layers on one hub stand for two server
processes, each with its own sockets."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

from core import hub
from core.hub import HubCache
from core.layers import HubChannelLayer


@pytest.fixture(scope="module")
def hub_path() -> Iterator[str]:
    path = hub.hub_path()
    hub.start_in_thread(path)
    yield path


async def receive(layer: HubChannelLayer, channel: str, timeout: float = 2.0) -> Any:
    return await asyncio.wait_for(layer.receive(channel), timeout)


def test_a_group_push_reaches_the_members_in_every_process_once(hub_path: str) -> None:
    async def run() -> None:
        one, two = HubChannelLayer(hub_path), HubChannelLayer(hub_path)
        here, there, elsewhere = await one.new_channel(), await two.new_channel(), await two.new_channel()
        await one.group_add("room-1", here)
        await two.group_add("room-1", there)
        await two.group_add("room-2", elsewhere)
        message = {"type": "match.public", "view": {"version": 3, "seats": {0: "alice", 1: "bob"}}}
        await one.group_send("room-1", message)
        assert await receive(one, here) is message  # its own process: handed over as it is
        assert await receive(two, there) == message  # the other: through the hub, int keys and all
        for layer, channel in ((one, here), (two, there), (two, elsewhere)):
            with pytest.raises(asyncio.TimeoutError):
                await receive(layer, channel, 0.1)

    asyncio.run(run())


def test_a_message_to_one_socket_goes_only_to_the_process_that_has_it(hub_path: str) -> None:
    async def run() -> None:
        one, two, three = HubChannelLayer(hub_path), HubChannelLayer(hub_path), HubChannelLayer(hub_path)
        await one.start()  # as each server process does at start-up
        target = await two.new_channel()
        await three.new_channel()
        await one.send(target, {"type": "solve.done", "job": 7})
        assert await receive(two, target) == {"type": "solve.done", "job": 7}
        # The third process holds no queue for it: nothing was put there.
        await asyncio.sleep(0.1)
        assert target not in three.channels

    asyncio.run(run())


def test_a_signal_runs_its_handlers_in_the_other_processes(hub_path: str) -> None:
    heard: list[str] = []
    hub.on_signal("test.bell", lambda: heard.append("rung"))

    async def run() -> None:
        one, two = HubChannelLayer(hub_path), HubChannelLayer(hub_path)
        await one.start()
        await two.start()
        await asyncio.to_thread(one.signal, "test.bell")  # from another thread, as a request thread would
        deadline = time.monotonic() + 2
        while not heard and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    asyncio.run(run())
    # The other layer heard it; the one that rang it did not ring itself.
    assert heard == ["rung"]


def test_without_the_hub_pushes_stay_in_the_process_and_are_counted(tmp_path: Any) -> None:
    async def run() -> None:
        layer = HubChannelLayer(str(tmp_path / "no-hub.sock"))
        channel = await layer.new_channel()
        await layer.group_add("room-1", channel)
        await layer.group_send("room-1", {"type": "match.public"})
        assert await receive(layer, channel) == {"type": "match.public"}
        assert layer.dropped == 1

    asyncio.run(run())


def test_the_cache_is_one_for_every_process(hub_path: str) -> None:
    one, two = HubCache(hub_path, {"KEY_PREFIX": "t1"}), HubCache(hub_path, {"KEY_PREFIX": "t1"})
    assert one.add("hits", 1, timeout=60)
    assert not two.add("hits", 1, timeout=60)
    assert two.incr("hits") == 2
    assert one.incr("hits", 3) == 5
    assert two.get("hits") == 5
    one.set("board", {"rows": [1, 2]}, timeout=60)
    assert two.get("board") == {"rows": [1, 2]}
    assert two.get("missing", "default") == "default"
    with pytest.raises(ValueError):
        two.incr("missing")
    assert one.delete("board") and two.get("board") is None
    one.set("brief", 1, timeout=0.2)
    assert two.get("brief") == 1
    time.sleep(0.3)
    assert two.get("brief") is None and not two.touch("brief")
    # Another prefix (another site on the same hub) is another key.
    assert HubCache(hub_path, {"KEY_PREFIX": "t2"}).get("hits") is None


def test_the_cache_connects_again_when_its_connection_broke(hub_path: str) -> None:
    cache = HubCache(hub_path, {"KEY_PREFIX": "t3"})
    cache.set("x", 1, timeout=60)
    cache._local.connection.close()  # as when the hub went away and came back
    assert cache.get("x") == 1


def test_waking_the_scheduler_from_a_request_thread_is_safe_on_every_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    # channels-redis's pub/sub layer answers any attribute from the running
    # loop's layer, and raises without one: a request thread's after-commit
    # wake must not ask it for anything (this was a 500 on moves handing the
    # turn to a bot, on Redis).
    from channels import layers
    from channels_redis.pubsub import RedisPubSubChannelLayer

    from games import wakeup

    monkeypatch.setitem(layers.channel_layers.backends, "default", RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:1"]))
    wakeup._event.clear()
    wakeup.wake()
    assert wakeup._event.is_set()


def test_a_publication_it_cannot_read_is_dropped_and_the_next_one_arrives(hub_path: str) -> None:
    async def run() -> None:
        one, two = HubChannelLayer(hub_path), HubChannelLayer(hub_path)
        await one.start()
        there = await two.new_channel()
        await two.group_add("room-1", there)
        assert one._writer is not None
        one._writer.write(hub.frame(hub.PUBLISH, "not a triple"))
        one._writer.write(hub.frame(hub.PUBLISH, ["group"]))
        one._writer.write(hub.frame(hub.PUBLISH, 5))
        await one.group_send("room-1", {"type": "match.public"})
        assert await receive(two, there) == {"type": "match.public"}

    asyncio.run(run())
