"""Who watches a room: open sockets of people with no seat, counted when sockets
come and go (games.watchers), pushed in the room's detail when the count changes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import watchers
from games.models import Room, RoomSocket

from .test_room_socket import call, cast, close_thread_connections, create_room, open_socket, receive  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def watchers_in(communicator: Any) -> int:
    return int((await receive(communicator, "room"))["room"]["watchers"])


async def test_everyone_hears_how_many_watch_as_spectators_come_and_go() -> None:
    alice, bob, carol, dave = await cast("alice", "bob", "carol", "dave")
    room = await create_room(alice)
    await call(bob, "POST", f"/api/rooms/{room['id']}/join/")
    players = await open_socket(room["id"], alice)
    assert (await receive(players, "room"))["room"]["watchers"] == 0
    # A seated player's own socket is not a watcher: nothing changes, nothing is pushed.
    bobs = await open_socket(room["id"], bob)
    carols = await open_socket(room["id"], carol)
    assert await watchers_in(players) == 1
    # A second tab of the same spectator is still one watcher.
    carols_again = await open_socket(room["id"], carol)
    daves = await open_socket(room["id"], dave)
    assert await watchers_in(players) == 2
    status, detail = await call(alice, "GET", f"/api/rooms/{room['id']}/")
    assert status == 200 and detail["watchers"] == 2
    await daves.disconnect()
    assert await watchers_in(players) == 1
    await carols.disconnect()
    await carols_again.disconnect()
    assert await watchers_in(players) == 0
    for socket in (players, bobs):
        await socket.disconnect()
    assert await sync_to_async(RoomSocket.objects.count)() == 0


async def test_sockets_of_a_dead_process_stop_counting() -> None:
    alice, carol = await cast("alice", "carol")
    room = await create_room(alice)
    await sync_to_async(watchers.socket_opened)(room_id=room["id"], user_id=carol.user.pk, channel="gone.1")
    assert await sync_to_async(watchers.watcher_count)(room["id"]) == 1
    stale = timezone.now() - timedelta(seconds=watchers.STALE_SECONDS + 1)
    await sync_to_async(RoomSocket.objects.filter(channel="gone.1").update)(seen_at=stale)
    assert await sync_to_async(watchers.watcher_count)(room["id"]) == 0
    status, detail = await call(alice, "GET", f"/api/rooms/{room['id']}/")
    assert detail["watchers"] == 0
    # The next heartbeat in the room clears the row away.
    sockets = await open_socket(room["id"], alice)
    await sync_to_async(watchers.socket_seen)(room_id=room["id"], user_id=alice.user.pk, channel="alive.1")
    assert not await sync_to_async(RoomSocket.objects.filter(channel="gone.1").exists)()
    await sockets.disconnect()


async def test_a_watcher_leaving_a_room_that_is_gone_is_no_error() -> None:
    alice, carol = await cast("alice", "carol")
    room = await create_room(alice)
    carols = await open_socket(room["id"], carol)
    await sync_to_async(Room.objects.filter(pk=room["id"]).delete)()
    # Her socket closing recounts the watchers of a room that no longer exists.
    await carols.disconnect()
    assert not await sync_to_async(RoomSocket.objects.filter(room_id=room["id"]).exists)()
