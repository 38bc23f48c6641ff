"""Hidden information never leaves the server except to the seat that may see it.

Whole Manhattan games between four people, with a spectator watching: every
payload each of them receives over the WebSocket, and every REST detail and
replay position they fetch, is scanned. A seat's own hand must be exactly its
hand; no other hand, and never the deck, may appear anywhere.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from config.asgi import application
from games.models import Match
from games.selectors import state_after
from tests.conftest import Player, make_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SECRET_KEYS = {"hands", "deck", "deck_order", "hidden"}


@pytest.fixture(autouse=True)
async def close_thread_connections() -> Any:
    yield
    await sync_to_async(connections.close_all)()


def scan(payload: Any, viewer_seat: int | None, hands: list[list[int]], path: str = "") -> None:
    """Fail on any hand but the viewer's own, or any secret key, anywhere in ``payload``."""
    if isinstance(payload, dict):
        for key, value in payload.items():
            where = f"{path}.{key}"
            assert key not in SECRET_KEYS, f"secret key {where} sent to seat {viewer_seat}"
            if key == "hand":
                assert where == ".state.hand", f"a hand at {where} sent to seat {viewer_seat}"
                assert viewer_seat is not None, "a spectator was sent a hand"
                assert sorted(value) == sorted(hands[viewer_seat]), f"seat {viewer_seat} got a hand not its own"
            if key == "hand_sites":
                assert viewer_seat is not None, "a spectator was sent hand sites"
                assert {int(card) for card in value} == set(hands[viewer_seat])
            scan(value, viewer_seat, hands, where)
    elif isinstance(payload, list):
        for item in payload:
            scan(item, viewer_seat, hands, path)


@sync_to_async
def setup_game(seed: int) -> tuple[list[Player], Player, dict[str, Any]]:
    people = [make_player(f"p{seed}{name}") for name in ("alice", "bob", "carol", "dave")]
    watcher = make_player(f"p{seed}erin")
    room = people[0].post("/api/rooms/", {"game": "manhattan", "options": {"turn_seconds": 0}}).json()
    for person in people[1:]:
        assert person.post(f"/api/rooms/{room['id']}/join/").status_code == 200
    return people, watcher, dict(people[0].get(f"/api/rooms/{room['id']}/").json())


@sync_to_async
def true_hands(match_id: int) -> list[list[int]]:
    match = Match.objects.select_related("room").get(pk=match_id)
    return [list(hand) for hand in state_after(match, None).hands]


@sync_to_async
def rest_round(people: list[Player], watcher: Player, match_id: int, hands: list[list[int]], rng: random.Random) -> Any:
    """Every viewer's REST detail is scanned; the seat to move plays a random legal move."""
    mover = None
    for viewer in [*people, watcher]:
        detail = viewer.get(f"/api/matches/{match_id}/").json()
        scan({"state": detail["state"], **{k: v for k, v in detail.items() if k != "state"}}, detail["seat"], hands)
        if detail["legal_moves"]:
            mover = (viewer, detail)
    if mover is None:
        return None
    viewer, detail = mover
    response = viewer.post(
        f"/api/matches/{match_id}/moves/", {"move": rng.choice(detail["legal_moves"]), "version": detail["version"]}
    )
    assert response.status_code == 201, response.json()
    return response.json()


async def drain(socket: WebsocketCommunicator) -> list[dict[str, Any]]:
    messages = []
    while not await socket.receive_nothing(timeout=0.05):
        messages.append(await socket.receive_json_from(timeout=5))
    return messages


@pytest.mark.parametrize("seed", [1, 2])
async def test_no_payload_carries_another_seats_cards(seed: int) -> None:
    people, watcher, room = await setup_game(seed)
    match_id = room["match"]
    sockets = []
    for viewer in [*people, watcher]:
        socket = WebsocketCommunicator(application, f"/ws/rooms/{room['id']}/?token={viewer.token}")
        assert (await socket.connect(timeout=5))[0]
        sockets.append(socket)
    players = (await sync_to_async(lambda: people[0].get(f"/api/matches/{match_id}/").json())())["players"]
    seat_of = {p["username"]: p["seat"] for p in players}
    viewer_seats = [seat_of[p.username] for p in people] + [None]
    rng = random.Random(seed)
    scanned = 0
    for _ in range(400):
        hands = await true_hands(match_id)
        for socket, seat in zip(sockets, viewer_seats, strict=True):
            for message in await drain(socket):
                if message["type"] == "state":
                    assert message["match"]["seat"] == seat
                scan(message.get("match", message), seat, hands)
                scanned += 1
        after = await rest_round(people, watcher, match_id, hands, rng)
        if after is None or after["status"] != "active":
            break
    final = await sync_to_async(lambda: people[0].get(f"/api/matches/{match_id}/").json())()
    assert final["status"] == "finished", "the game was played to its end"
    # Replays: every viewer's picture of past positions is scanned too.
    plies = len(await sync_to_async(lambda: people[0].get(f"/api/matches/{match_id}/moves/").json())())
    match = await sync_to_async(lambda: Match.objects.select_related("room").get(pk=match_id))()
    for ply in range(0, plies, 17):
        hands_then = await sync_to_async(lambda p=ply: [list(h) for h in state_after(match, p).hands])()
        for viewer, seat in zip([*people, watcher], viewer_seats, strict=True):
            position = await sync_to_async(lambda v=viewer, p=ply: v.get(f"/api/matches/{match_id}/positions/{p}/").json())()
            scan({"state": position["state"]}, seat, hands_then)
    assert scanned > 400
    for socket in sockets:
        await socket.disconnect()
