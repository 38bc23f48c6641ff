"""The room socket, through the real ASGI stack and the configured channel layer.

These run on the in-memory layer in `make test` and on Redis in the CI round.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from config.asgi import application
from tests.conftest import Player, make_player, play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def close_thread_connections() -> Any:
    # ORM calls made through sync_to_async run on asgiref's shared thread; its
    # connection would outlive the test and block dropping the test database.
    yield
    await sync_to_async(connections.close_all)()


async def connect(room_id: int, token: str | None = None, headers: list[Any] | None = None) -> WebsocketCommunicator:
    path = f"/ws/rooms/{room_id}/" + (f"?token={token}" if token else "")
    communicator = WebsocketCommunicator(application, path, headers=headers or [])
    return communicator


async def open_socket(room_id: int, player: Player) -> WebsocketCommunicator:
    communicator = await connect(room_id, player.token)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def receive(communicator: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    """The next message of type ``kind``, skipping others (a join sends a room and a state)."""
    for _ in range(10):
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == kind:
            return dict(message)
    raise AssertionError(f"no {kind} message")


@sync_to_async
def cast(*names: str) -> list[Player]:
    return [make_player(name) for name in names]


@sync_to_async
def create_room(player: Player, game: str = "connect-four") -> dict[str, Any]:
    return dict(player.post("/api/rooms/", {"game": game}).json())


@sync_to_async
def call(player: Player, method: str, url: str, data: Any = None) -> Any:
    response = player.get(url) if method == "GET" else player.post(url, data)
    return response.status_code, response.json() if response.content else None


async def closed_with(communicator: WebsocketCommunicator) -> int:
    """The code a refused socket is closed with: accepted first, then closed,
    so that a browser sees the code (a refused handshake is HTTP 403 to it)."""
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    closing = await communicator.receive_output(timeout=5)
    assert closing["type"] == "websocket.close"
    return int(closing["code"])


async def test_an_anonymous_socket_is_refused() -> None:
    (alice,) = await cast("alice")
    room = await create_room(alice)
    assert await closed_with(await connect(room["id"])) == 4401


async def test_a_wrong_token_is_refused() -> None:
    (alice,) = await cast("alice")
    room = await create_room(alice)
    assert await closed_with(await connect(room["id"], "not-a-token")) == 4401


async def test_a_missing_room_is_refused() -> None:
    (alice,) = await cast("alice")
    assert await closed_with(await connect(424242, alice.token)) == 4404


async def test_it_sends_the_room_on_connect_and_pushes_a_join() -> None:
    alice, bob = await cast("alice", "bob")
    room = await create_room(alice)
    socket = await open_socket(room["id"], alice)
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == "room"
    assert first["room"]["seats"][0]["username"] == "alice"
    assert await socket.receive_nothing(timeout=0.2)
    status, _ = await call(bob, "POST", f"/api/rooms/{room['id']}/join/")
    assert status == 200
    pushed = await receive(socket, "room")
    assert pushed["room"]["seats"][1]["username"] == "bob"
    assert pushed["room"]["status"] == "playing"
    state = await receive(socket, "state")
    assert state["match"]["version"] == 0 and state["match"]["seat"] == 0
    await socket.disconnect()


async def test_a_move_reaches_the_opponent_and_a_watcher_with_the_new_version() -> None:
    alice, bob, carol = await cast("alice", "bob", "carol")
    room = await create_room(alice)
    await call(bob, "POST", f"/api/rooms/{room['id']}/join/")
    bob_socket = await open_socket(room["id"], bob)
    carol_socket = await open_socket(room["id"], carol)
    for socket in (bob_socket, carol_socket):
        assert (await socket.receive_json_from(timeout=5))["type"] == "room"
        snapshot = await socket.receive_json_from(timeout=5)
        assert snapshot["type"] == "state" and snapshot["match"]["version"] == 0
    _, detail = await call(alice, "GET", f"/api/rooms/{room['id']}/")
    response = await sync_to_async(play)(alice, {"id": detail["match"], "version": 0}, "4")
    assert response.status_code == 201
    for_bob = await receive(bob_socket, "state")
    assert for_bob["match"]["version"] == 1
    assert for_bob["match"]["seat"] == 1
    assert for_bob["match"]["legal_moves"] == [str(c) for c in range(1, 8)]
    for_carol = await receive(carol_socket, "state")
    assert for_carol["match"]["seat"] is None and for_carol["match"]["legal_moves"] == []
    assert for_carol["match"]["state"]["grid"][5][3] == 0
    await bob_socket.disconnect()
    await carol_socket.disconnect()


async def test_chat_is_pushed_to_everyone_in_the_room() -> None:
    alice, carol = await cast("alice", "carol")
    room = await create_room(alice)
    socket = await open_socket(room["id"], carol)
    await receive(socket, "room")
    status, _ = await call(alice, "POST", f"/api/rooms/{room['id']}/chat/", {"text": "hello <i>all</i>"})
    assert status == 201
    chat = await receive(socket, "chat")
    assert chat["message"]["username"] == "alice"
    assert chat["message"]["text"] == "hello <i>all</i>"
    await socket.disconnect()


async def test_a_refused_move_pushes_nothing() -> None:
    alice, bob = await cast("alice", "bob")
    room = await create_room(alice)
    await call(bob, "POST", f"/api/rooms/{room['id']}/join/")
    socket = await open_socket(room["id"], alice)
    await receive(socket, "room")
    await receive(socket, "state")
    _, detail = await call(alice, "GET", f"/api/rooms/{room['id']}/")
    status, _ = await call(bob, "POST", f"/api/matches/{detail['match']}/moves/", {"move": "4", "version": 0})
    assert status == 409
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_refresh_sends_a_fresh_snapshot_and_other_messages_are_refused() -> None:
    alice, bob = await cast("alice", "bob")
    room = await create_room(alice)
    await call(bob, "POST", f"/api/rooms/{room['id']}/join/")
    socket = await open_socket(room["id"], alice)
    await receive(socket, "room")
    await receive(socket, "state")
    await socket.send_json_to({"type": "refresh"})
    assert (await socket.receive_json_from(timeout=5))["type"] == "room"
    assert (await socket.receive_json_from(timeout=5))["type"] == "state"
    await socket.send_json_to({"type": "move", "move": "4"})
    error = await socket.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "unsupported"
    await socket.disconnect()


async def test_the_session_cookie_authenticates_a_browser() -> None:
    (alice,) = await cast("alice")
    room = await create_room(alice)

    @sync_to_async
    def session_cookie() -> str:
        client = Client()
        client.force_login(alice.user)
        return str(client.cookies["sessionid"].value)

    cookie = await session_cookie()
    communicator = await connect(room["id"], headers=[(b"cookie", f"sessionid={cookie}".encode())])
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    message = await communicator.receive_json_from(timeout=5)
    assert message["room"]["id"] == room["id"]
    await communicator.disconnect()


async def test_a_foreign_origin_is_refused() -> None:
    (alice,) = await cast("alice")
    room = await create_room(alice)
    communicator = await connect(room["id"], alice.token, headers=[(b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect(timeout=5)
    assert not connected


async def test_solve_progress_and_result_reach_the_owners_sockets() -> None:
    from games.sokoban import jobs

    alice, bob = await cast("alice", "bob")
    room = await create_room(alice, "sokoban")
    socket = await open_socket(room["id"], alice)
    watcher = await open_socket(room["id"], bob)
    await receive(socket, "state")
    status, job = await call(alice, "POST", "/api/sokoban/solve/", {"level": "#######\n#@ $ .#\n#######", "algorithm": "bfs"})
    assert status == 201
    queued = await receive(socket, "solve")
    assert queued["job"]["id"] == job["id"] and queued["job"]["status"] == "queued"
    await sync_to_async(jobs.run_queued)()
    final = None
    for _ in range(20):
        message = await receive(socket, "solve")
        if message["job"]["status"] == "done":
            final = message["job"]
            break
    assert final is not None and final["result"]["solution"] == "rRR"
    # Solves are private to their owner: another player in the room hears nothing.
    while True:
        message = await watcher.receive_json_from(timeout=1) if not await watcher.receive_nothing(timeout=0.3) else None
        if message is None:
            break
        assert message["type"] != "solve"
    await socket.disconnect()
    await watcher.disconnect()


async def test_a_players_connect_is_few_statements_and_one_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """Connect is on every page load and reconnect (issue 14): the snapshot's reads
    (the room and its current match in one), then the socket's row and the
    presence beat in one transaction, with no savepoints, get-or-create reads,
    or a second trip for the row."""
    from django.db.backends import utils

    alice, bob = await cast("alice", "bob")
    room = await create_room(alice)
    await call(bob, "POST", f"/api/rooms/{room['id']}/join/")
    statements: list[str] = []
    execute = utils.CursorWrapper.execute

    def counted(self: Any, sql: str, params: Any = None) -> Any:
        statements.append(sql)
        return execute(self, sql, params)

    monkeypatch.setattr(utils.CursorWrapper, "execute", counted)
    socket = await open_socket(room["id"], alice)
    assert (await socket.receive_json_from(timeout=5))["type"] == "room"
    state = await socket.receive_json_from(timeout=5)
    assert state["type"] == "state" and state["match"]["seat"] == 0
    await socket.receive_nothing(timeout=0.3)  # the row's transaction is over
    writes = [sql for sql in statements if not sql.lstrip().upper().startswith("SELECT")]
    assert not any("SAVEPOINT" in sql.upper() for sql in statements), statements
    assert len([sql for sql in writes if "games_roomsocket" in sql]) == 1, writes
    assert len(statements) <= 10, statements
    await socket.disconnect()
