"""/ws/me/: the paired players learn it at once, their seeks stay alive while it is open,
and a rated game's final state carries both players' new ratings.

On the in-memory layer in `make test`, on Redis in the CI round.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.utils import timezone

from config.asgi import application
from core import hooks
from matchmaking.models import Seek
from tests.conftest import Player, make_player, play
from tests.ws.test_room_socket import closed_with

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def close_thread_connections() -> Any:
    yield
    await sync_to_async(connections.close_all)()


@sync_to_async
def cast(*names: str) -> list[Player]:
    return [make_player(name) for name in names]


@sync_to_async
def post(player: Player, url: str, data: Any = None) -> Any:
    return player.post(url, data).json()


async def my_socket(player: Player) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, f"/ws/me/?token={player.token}")
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def receive(communicator: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == kind:
            return dict(message)
    raise AssertionError(f"no {kind} message")


async def test_the_user_socket_needs_a_login() -> None:
    assert await closed_with(WebsocketCommunicator(application, "/ws/me/")) == 4401


async def test_both_players_hear_of_their_pairing_at_once() -> None:
    alice, bob = await cast("alice", "bob")
    alice_socket, bob_socket = await my_socket(alice), await my_socket(bob)
    assert (await receive(alice_socket, "seeks"))["seeks"] == []
    first = await post(alice, "/api/seeks/", {"game": "connect-four"})
    waiting = await receive(alice_socket, "seek")
    assert waiting["seek"]["id"] == first["id"] and waiting["seek"]["status"] == "waiting"
    second = await post(bob, "/api/seeks/", {"game": "connect-four"})
    for socket, seek_id in ((alice_socket, first["id"]), (bob_socket, second["id"])):
        paired = await receive(socket, "paired")
        assert paired == {"type": "paired", "seek": seek_id, "room": second["room"], "match": second["match"]}
    await alice_socket.disconnect()
    await bob_socket.disconnect()


async def test_a_new_socket_is_told_of_the_users_waiting_seeks() -> None:
    (alice,) = await cast("alice")
    first = await post(alice, "/api/seeks/", {"game": "eskimo"})
    socket = await my_socket(alice)
    greeting = await receive(socket, "seeks")
    assert [seek["id"] for seek in greeting["seeks"]] == [first["id"]]
    await socket.disconnect()


async def test_an_open_socket_keeps_its_users_seeks_alive(monkeypatch: Any) -> None:
    (alice,) = await cast("alice")
    first = await post(alice, "/api/seeks/", {"game": "eskimo"})
    stale = timezone.now() - timedelta(minutes=5)
    await sync_to_async(Seek.objects.filter(pk=first["id"]).update)(last_seen=stale)
    monkeypatch.setattr(hooks, "PRESENCE_SECONDS", 0.05)
    socket = await my_socket(alice)
    for _ in range(100):
        seen = (await sync_to_async(Seek.objects.get)(pk=first["id"])).last_seen
        if seen > stale + timedelta(minutes=4):
            break
        await socket.receive_nothing(timeout=0.05)
    assert seen > timezone.now() - timedelta(seconds=30)
    await socket.disconnect()


async def test_a_rated_games_final_push_carries_both_new_ratings() -> None:
    alice, bob = await cast("alice", "bob")
    await post(alice, "/api/seeks/", {"game": "connect-four"})
    paired = await post(bob, "/api/seeks/", {"game": "connect-four"})
    room_socket = WebsocketCommunicator(application, f"/ws/rooms/{paired['room']}/?token={alice.token}")
    assert (await room_socket.connect(timeout=5))[0]
    detail = (await receive(room_socket, "state"))["match"]
    people = {"alice": alice, "bob": bob}
    seats = {p["seat"]: people[p["username"]] for p in detail["players"]}
    for column in "1212121":
        mover = seats[detail["to_move"][0]]
        mine = await sync_to_async(lambda: mover.get(f"/api/matches/{detail['id']}/").json())()
        response = await sync_to_async(play)(mover, mine, column)
        assert response.status_code == 201
        while True:
            pushed = (await receive(room_socket, "state"))["match"]
            if pushed["version"] == mine["version"] + 1:
                detail = pushed
                break
    assert detail["status"] == "finished" and detail["rated"] is True
    changes = {change["username"]: change for change in detail["result"]["ratings"]}
    assert sorted(change["after"] for change in changes.values()) == [1338, 1662]
    assert {change["change"] for change in changes.values()} == {162, -162}
    await room_socket.disconnect()
