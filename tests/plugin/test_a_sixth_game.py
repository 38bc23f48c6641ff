"""A game that exists only in the tests plugs in and is played like the built-in five.

The proof of the design promise: tic-tac-toe (tests/plugin/tictactoe.py) is
registered the way settings.EXTRA_GAMES registers a plug-in, with no file
outside this folder touched, and is played through the REST API and a room
socket with an AI seat and a turn timer run by the scheduler.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.utils import timezone

from config.asgi import application
from games.engines.registry import register_paths, unregister
from games.models import Match
from games.scheduler import Scheduler
from tests.conftest import Player, make_player, play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def tic_tac_toe(settings: Any) -> Iterator[None]:
    settings.EXTRA_GAMES = ["tests.plugin.tictactoe:TicTacToe"]
    register_paths(settings.EXTRA_GAMES)  # what GamesConfig.ready() does with the setting at start-up
    yield
    unregister("tic-tac-toe")


@pytest.fixture(autouse=True)
async def close_thread_connections() -> Any:
    yield
    await sync_to_async(connections.close_all)()


async def next_state(socket: WebsocketCommunicator, version: int) -> dict[str, Any]:
    for _ in range(20):
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == "state" and message["match"]["version"] >= version:
            return dict(message["match"])
    raise AssertionError(f"no state at version {version}")


async def test_tic_tac_toe_is_played_through_the_api_and_a_socket_with_an_ai_seat_and_a_timer(
    tic_tac_toe: None,
) -> None:
    alice: Player = await sync_to_async(make_player)("alice")
    get = sync_to_async(lambda url: alice.get(url).json())
    post = sync_to_async(lambda url, data=None: alice.post(url, data))
    tick = sync_to_async(lambda: Scheduler().tick())

    games = {game["slug"]: game for game in await get("/api/games/")}
    assert games["tic-tac-toe"]["player_counts"] == [2]
    assert [level["name"] for level in games["tic-tac-toe"]["ai_levels"]] == ["random"]

    room = (await post("/api/rooms/", {"game": "tic-tac-toe", "options": {"turn_seconds": 30}})).json()
    assert room["options"]["turn_seconds"] == 30
    started = await post(f"/api/rooms/{room['id']}/start/")
    assert started.status_code == 201, started.json()
    match = started.json()
    assert [p["bot"] for p in match["players"]] == [None, "random"]

    socket = WebsocketCommunicator(application, f"/ws/rooms/{room['id']}/?token={alice.token}")
    assert (await socket.connect(timeout=5))[0]
    detail = await next_state(socket, 0)
    assert detail["state"] == {"grid": ["...", "...", "..."]} and detail["turn_deadline"]

    # X takes the centre by the API; the AI answers; the socket sees both.
    response = await sync_to_async(play)(alice, detail, "b2")
    assert response.status_code == 201, response.json()
    assert (await next_state(socket, 1))["state"]["grid"][1] == ".X."
    assert await tick() == 1
    detail = await next_state(socket, 2)
    assert detail["legal_moves"] and len(detail["legal_moves"]) == 7

    # Alice lets her time run out: the scheduler plays a random square for
    # her, and in the same pass the AI answers it.
    await sync_to_async(Match.objects.filter(pk=match["id"]).update)(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert await tick() == 2
    detail = await next_state(socket, 4)
    assert detail["to_move"] == [0] or detail["status"] != "active"

    # Play on to the end: alice picks her first legal square, the AI its own.
    for _ in range(10):
        if detail["status"] != "active":
            break
        if detail["to_move"] == [0]:
            mine = await get(f"/api/matches/{match['id']}/")
            assert (await sync_to_async(play)(alice, mine, mine["legal_moves"][0])).status_code == 201
        else:
            assert await tick() == 1
        detail = await next_state(socket, detail["version"] + 1)
    assert detail["status"] == "finished"
    assert set(detail["result"]["results"]) <= {"win", "loss", "draw"} and detail["result"]["reason"]
    made_by = {move["made_by"] for move in await get(f"/api/matches/{match['id']}/moves/")}
    assert made_by == {"player", "bot", "timeout"}
    await socket.disconnect()

