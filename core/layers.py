"""The channel layers: one server process's (the embedded default, no Redis), several
processes' on one machine (HubChannelLayer, through core.hub), and Redis's
(RedisChannelLayer, at the end).

In one process: Channels' in-memory layer sweeps for expired messages and group
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
import functools
import logging
import os
import random
import string
import time
import uuid
from collections.abc import Callable
from typing import Any

import msgpack
import redis
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _consistent_hash, _wrap_close, decode_hosts

from . import hub

log = logging.getLogger(__name__)

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
        self._put_group(group, message)

    async def group_send_many(self, pushes: list[tuple[str, dict[str, Any]]]) -> None:
        """Several group sends, in order (one change's pushes; see RedisChannelLayer's)."""
        for group, message in pushes:
            await self.group_send(group, message)

    def _put_group(self, group: str, message: dict[str, Any]) -> None:
        self._clean_expired()
        for channel in self.groups.get(group, {}):
            try:
                self._put(channel, message)
            except ChannelFull:
                pass  # as Channels does: a full socket misses the push, and resyncs on the next


class HubChannelLayer(InProcessChannelLayer):
    """The layer of one of several server processes on one machine, without Redis (core.hub).

    Each push is delivered to this process's own sockets at once, as by the
    single process's layer, and handed to the hub once, which passes it on
    to the other processes; they deliver it to theirs. Group memberships stay
    in the process that has the socket: a process learns nothing of another's
    groups, and a push to a group no socket of it is in costs it one read.
    A channel's name says which process has it, so a message to one socket
    goes only where that socket is.

    If the hub cannot be reached, pushes to other processes are dropped (and
    counted in the log) until it can: the sockets there see a version gap at
    their next push and resync, as after any lost message.
    """

    RECONNECT_SECONDS = 0.2

    def __init__(self, path: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.path = path or os.environ.get(hub.HUB_ENV, "")
        # Letters only: the token must fit in a channel name.
        self.process = "".join(random.choice(string.ascii_letters) for _ in range(8))
        self._writer: asyncio.StreamWriter | None = None
        self._link: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._linked = asyncio.Event()
        self.dropped = 0

    def _ensure_link(self) -> None:
        """The link to the hub runs on the loop the sockets live on (the server's), made on first use.

        A layer used from a loop of its own later (a push made with no server
        loop running, as in plain tests) links again from there once the old
        loop is gone.
        """
        loop = asyncio.get_running_loop()
        if self._loop is not None and self._loop is not loop and self._loop.is_closed():
            self._link, self._writer, self._linked = None, None, asyncio.Event()
        if self._link is None:
            self._loop = loop
            self._link = loop.create_task(self._keep_linked())

    async def new_channel(self, prefix: str = "specific.") -> str:
        await self.start()
        tail = "".join(random.choice(string.ascii_letters) for _ in range(12))
        return f"{prefix}.{self.process}!{tail}"

    def _is_here(self, channel: str) -> bool:
        return channel.partition("!")[0].endswith("." + self.process)

    async def start(self) -> None:
        """Connect to the hub (once; reconnects by itself), waiting briefly for the first link."""
        self._ensure_link()
        if not self._linked.is_set():
            try:
                await asyncio.wait_for(self._linked.wait(), 2.0)
            except asyncio.TimeoutError:
                log.error("hub at %s not reachable; pushes stay in this process until it is", self.path)

    async def _keep_linked(self) -> None:
        while True:
            try:
                reader, writer = await asyncio.open_unix_connection(self.path)
            except OSError:
                await asyncio.sleep(self.RECONNECT_SECONDS)
                continue
            try:
                writer.write(hub.frame(hub.SUBSCRIBE, None))
                await reader.readexactly(int.from_bytes(await reader.readexactly(4), "big"))  # the hub's answer
                self._writer = writer
                self._linked.set()
                while True:
                    header = await reader.readexactly(4)
                    self._arrived(await reader.readexactly(int.from_bytes(header, "big")))
            except (asyncio.IncompleteReadError, ConnectionError):
                log.error("lost the hub at %s; reconnecting", self.path)
            finally:
                self._writer = None
                self._linked.clear()
                writer.close()
            await asyncio.sleep(self.RECONNECT_SECONDS)

    def _arrived(self, payload: bytes) -> None:
        try:
            target, name, message = hub.unpack(payload)
        except (ValueError, TypeError, msgpack.UnpackException):
            # Dropped, and the link goes on: one bad frame must not end this
            # process's reading of every later push.
            log.error("hub: unreadable publication dropped")
            return
        if target == "group":
            self._put_group(name, message)
        elif target == "channel":
            if self._is_here(name):
                try:
                    self._put(name, message)
                except ChannelFull:
                    pass
        elif target == "signal":
            hub.signalled(name)

    def _publish(self, target: str, name: str, message: Any) -> None:
        self._publish_many([(target, name, message)])

    def _publish_many(self, publications: list[tuple[str, str, Any]]) -> None:
        self._ensure_link()
        if self._writer is None:
            self.dropped += 1
            target, name, _ = publications[0]
            if self.dropped % 1000 == 1:  # the first, then one line a thousand: an outage must not flood the log
                log.warning("hub not linked: a %s message for %s stays in this process (%d so far)", target, name, self.dropped)
            return
        data = b"".join(hub.frame(hub.PUBLISH, list(publication)) for publication in publications)
        if asyncio.get_running_loop() is self._loop:
            self._writer.write(data)
        else:  # the link is another running loop's: write from there
            assert self._loop is not None
            self._loop.call_soon_threadsafe(self._writer.write, data)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        if self._is_here(channel):
            await super().send(channel, message)
            return
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)  # type: ignore[no-untyped-call]
        self._publish("channel", channel, message)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await super().group_send(group, message)
        self._publish("group", group, message)

    async def group_send_many(self, pushes: list[tuple[str, dict[str, Any]]]) -> None:
        """Delivered here in order, and handed to the hub in one write."""
        for group, message in pushes:
            await super().group_send(group, message)
        self._publish_many([("group", group, message) for group, message in pushes])

    def signal(self, name: str) -> None:
        """Run the handlers registered for ``name`` (core.hub.on_signal) in the other processes.

        Callable from any thread; a layer not linked yet has no other process to tell.
        """
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._publish, "signal", name, None)


class _RedisShard(RedisSingleShardConnection):  # type: ignore[misc]
    """channels-redis's connection to one Redis, with publishing not queued behind one lock.

    channels-redis takes the shard's lock for every PUBLISH, held across the
    round trip: on a busy server each push then waited for every push before
    it to be answered, one per turn of the event loop. A PUBLISH goes over a
    connection of redis-py's pool, which needs no lock; the lock stays where
    it is needed, around the one subscribing connection.
    """

    async def publish(self, channel: str, message: bytes) -> None:
        self._ensure_redis()
        await self._redis.publish(channel, message)

    async def publish_many(self, publications: list[tuple[str, bytes]]) -> None:
        """Several PUBLISHes in one round trip (a pipeline: one write, the replies read together)."""
        self._ensure_redis()
        async with self._redis.pipeline(transaction=False) as pipe:
            for channel, message in publications:
                pipe.publish(channel, message)
            await pipe.execute()

    async def psubscribe(self, pattern: str) -> None:
        async with self._lock:
            if pattern not in self._subscribed_to:
                self._ensure_redis()
                self._ensure_receiver()
                await self._pubsub.psubscribe(pattern)
                self._subscribed_to.add(pattern)


class _RedisLoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    """One event loop's side of RedisChannelLayer."""

    def __init__(self, hosts: Any = None, prefix: str = "asgi", **kwargs: Any) -> None:
        super().__init__(hosts, prefix, **kwargs)
        self._shards = [_RedisShard(host, self) for host in decode_hosts(hosts)]
        # Letters only: the token must fit in a channel name (and in a pattern, as itself).
        token = "".join(random.choice(string.ascii_letters) for _ in range(12))
        self._own = f"{self.prefix}specific.{token}!"

    async def group_send_many(self, pushes: list[tuple[str, dict[str, Any]]]) -> None:
        """One change's pushes, in order, in one round trip to each Redis they go to.

        A move pushes three messages (the public view, and each player's own);
        sent one by one, each waited for its reply before the next left, and
        the request thread waited for all three.
        """
        for shard, publications in _by_shard(pushes, self.prefix, len(self._shards), self.channel_layer.serialize).items():
            await self._shards[shard].publish_many(publications)

    async def new_channel(self, prefix: str = "specific.") -> str:
        """A channel of this process: subscribed once for all of them, by pattern.

        channels-redis subscribes each new channel on its own: a SUBSCRIBE at
        every socket's connect and an UNSUBSCRIBE at its close, and their
        replies to read, for a channel that the server never sends to (pushes
        go to groups). One pattern for the process's channels keeps them
        reachable by ``send`` from anywhere at no cost per socket.
        """
        channel = f"{self._own}{uuid.uuid4().hex}"
        self.channels[channel] = asyncio.Queue()
        for shard in self._shards:
            await shard.psubscribe(f"{self._own}*")
        return channel


def _by_shard(
    pushes: list[tuple[str, dict[str, Any]]], prefix: str, shards: int, serialize: Callable[[dict[str, Any]], bytes]
) -> dict[int, list[tuple[str, bytes]]]:
    """Pushes as (channel, serialized message) PUBLISHes, by the index of the Redis
    their group's channel lives on (as channels-redis names and places it), in order."""
    by_shard: dict[int, list[tuple[str, bytes]]] = {}
    for group, message in pushes:
        channel = f"{prefix}__group__{group}"
        by_shard.setdefault(_consistent_hash(channel, shards), []).append((channel, serialize(message)))
    return by_shard


class RedisChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """channels-redis's pub/sub layer (a push is one PUBLISH per group, read by the
    processes with sockets in it), with pushes that do not queue behind each other
    and no Redis subscription per socket of its own (_RedisShard, _RedisLoopLayer)."""

    # A publish from a request's thread waits this long for Redis before the
    # pushes are handed to the loop instead, which retries them (games/broadcast.py).
    THREAD_PUBLISH_TIMEOUT = 1.0

    async def group_send_many(self, pushes: list[tuple[str, dict[str, Any]]]) -> None:
        await self._get_layer().group_send_many(pushes)

    def publish_from_thread(self, pushes: list[tuple[str, dict[str, Any]]]) -> bool:
        """One change's pushes from a thread that is not the loop's, over blocking connections.

        A request's thread published through the server's loop: a hand-over
        to the loop, the loop's round trip to Redis, and a hand-over back,
        two wake-ups of each thread on every move. Here the thread sends
        the same PUBLISHes (one pipeline for each Redis) itself and waits for
        their replies with the interpreter free for the others. False when
        this layer's hosts are not plain addresses (a sentinel), for the
        loop to send; raises if Redis fails, for the loop to retry.
        """
        clients = self._thread_clients
        if clients is None:
            return False
        for shard, publications in _by_shard(pushes, self._kwargs.get("prefix", "asgi"), len(clients), self.serialize).items():
            with clients[shard].pipeline(transaction=False) as pipe:
                for channel, message in publications:
                    pipe.publish(channel, message)
                pipe.execute()
        return True

    @functools.cached_property
    def _thread_clients(self) -> list[redis.Redis] | None:
        """A blocking client for each Redis, made at the first publish from a thread
        (None: hosts that are not plain addresses)."""
        hosts = decode_hosts(self._kwargs.get("hosts"))
        if not all(set(host) <= {"address", "socket_timeout", "socket_connect_timeout"} for host in hosts):
            return None
        timeout = self.THREAD_PUBLISH_TIMEOUT
        return [redis.Redis.from_url(host["address"], socket_timeout=timeout, socket_connect_timeout=timeout) for host in hosts]

    def _get_layer(self) -> _RedisLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _RedisLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer
