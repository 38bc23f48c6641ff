"""Several server processes on the embedded default (`serve --workers 2`, SQLite,
no Redis): pushes, throttles and the scheduler shared through the hub in their
supervisor (core/hub.py). Which process answers a connection is the kernel's
choice; the tests find out from /proc and pick connections to suit."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from core import hub
from tests.servers import Server, fresh_sqlite_env, wait_until

TRIES = 60


@pytest.fixture
def server() -> Iterator[Server]:
    with Server(fresh_sqlite_env("workers"), workers=2) as running:
        yield running


class Connection:
    """One kept-alive HTTP connection, so its requests all reach the same process."""

    def __init__(self, server: Server, token: str = "", timeout: float = 10) -> None:
        self.http = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
        self.http.connect()
        assert self.http.sock is not None
        self.worker = server.worker_of(self.http.sock.getsockname()[1])
        self.token = token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        self.http.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.http.getresponse()
        return response.status, json.loads(response.read() or b"null")


def connection_in(server: Server, worker: int, token: str = "") -> Connection:
    for _ in range(TRIES):
        connection = Connection(server, token)
        if connection.worker == worker:
            return connection
        connection.http.close()
    pytest.skip(f"the kernel gave no connection to process {worker} in {TRIES} tries")


def register(server: Server, name: str) -> str:
    status, body = Connection(server).call("POST", "/api/auth/register/", {"username": name, "password": "secret-pass"})
    assert status == 201, body
    return str(body["token"])


async def socket_in(server: Server, worker: int, path: str) -> Any:
    for _ in range(TRIES):
        socket = await websockets.connect(f"{server.ws_url}{path}")
        if server.worker_of(socket.transport.get_extra_info("sockname")[1]) == worker:
            return socket
        await socket.close()
    pytest.skip(f"the kernel gave no socket to process {worker} in {TRIES} tries")


async def next_state(socket: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout=10))
        if message["type"] == "state":
            return dict(message)


def test_a_move_made_in_one_process_reaches_sockets_in_both(server: Server) -> None:
    first, second = server.worker_pids()
    alice, bob, carol = (register(server, name) for name in ("alice", "bob", "carol"))
    status, room = connection_in(server, first, alice).call("POST", "/api/rooms/", {"game": "connect-four"})
    assert status == 201
    status, joined = connection_in(server, second, bob).call("POST", f"/api/rooms/{room['id']}/join/")
    assert status == 200
    match_id = joined["match"]

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        # bob's socket in the other process than the move; carol watches from the same one.
        there = await socket_in(server, second, f"/ws/rooms/{room['id']}/?token={bob}")
        here = await socket_in(server, first, f"/ws/rooms/{room['id']}/?token={carol}")
        assert (await next_state(there))["match"]["version"] == 0
        assert (await next_state(here))["match"]["version"] == 0
        mover = connection_in(server, first, alice)
        status, _ = await asyncio.to_thread(mover.call, "POST", f"/api/matches/{match_id}/moves/", {"move": "4", "version": 0})
        assert status == 201
        pushed = await next_state(there), await next_state(here)
        await there.close()
        await here.close()
        return pushed

    to_bob, to_carol = asyncio.run(scenario())
    assert to_bob["match"]["version"] == to_carol["match"]["version"] == 1
    assert to_bob["match"]["to_move"] == to_carol["match"]["to_move"] == [1]
    # Each socket its own view: bob's seat, carol's none.
    assert (to_bob["match"]["seat"], to_carol["match"]["seat"]) == (1, None)


def test_every_process_reports_the_hub_it_shares_as_up(server: Server) -> None:
    for worker in server.worker_pids():
        status, health = connection_in(server, worker).call("GET", "/healthz")
        assert (status, health["channel_layer"]) == (200, "ok")


def test_a_limit_counts_what_a_user_does_through_every_process() -> None:
    env = fresh_sqlite_env("workers-throttle", THROTTLE="on", THROTTLE_ROOM="4/600")
    with Server(env, workers=2) as server:
        first, second = server.worker_pids()
        alice = register(server, "alice")
        one, two = connection_in(server, first, alice), connection_in(server, second, alice)
        answers = [conn.call("POST", "/api/rooms/", {"game": "connect-four"}) for conn in (one, two, one, two, one, two)]
        assert [status for status, _ in answers] == [201, 201, 201, 201, 429, 429]
        assert answers[4][1]["code"] == "throttled"


def scheduler_lock(server: Server) -> int:
    """The inode of the scheduler's lock file, beside the hub's socket."""
    environ = Path(f"/proc/{server.worker_pids()[0]}/environ").read_bytes().split(b"\0")
    path = next(item.split(b"=", 1)[1].decode() for item in environ if item.startswith(b"BOARDGAMES_HUB="))
    return os.stat(hub.scheduler_lock(path)).st_ino


def holder_of(inode: int) -> int:
    """The process holding the flock on ``inode`` (from /proc/locks), or 0."""
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "FLOCK" in fields and fields[-3].endswith(f":{inode}"):
            return int(fields[-4])
    return 0


def test_one_process_plays_the_bots_and_another_takes_over_when_it_is_killed(server: Server) -> None:
    lock = wait_until(lambda: scheduler_lock(server))
    holder = wait_until(lambda: holder_of(lock))
    other = next(pid for pid in server.worker_pids() if pid != holder)
    alice = register(server, "alice")
    # The game is started and moved through the process without the scheduler:
    # the bot's turn reaches the scheduler in the other one.
    player = connection_in(server, other, alice)
    status, room = player.call("POST", "/api/rooms/", {"game": "connect-four", "options": {"ai": "random"}})
    assert status == 201
    status, match = player.call("POST", f"/api/rooms/{room['id']}/start/")
    assert player.call("POST", f"/api/matches/{match['id']}/moves/", {"move": "4", "version": 0})[0] == 201
    wait_until(lambda: player.call("GET", f"/api/matches/{match['id']}/")[1]["version"] == 2)

    os.kill(holder, signal.SIGKILL)
    # The supervisor starts a new process in the dead one's place, and one of
    # the live processes (the survivor or the newcomer, whichever tries first)
    # takes the lock.
    wait_until(lambda: len(server.worker_pids()) == 2 and holder not in server.worker_pids())
    successor = wait_until(lambda: (pid := holder_of(lock)) != holder and pid)
    assert successor in server.worker_pids()
    player = connection_in(server, other, alice)
    assert player.call("POST", f"/api/matches/{match['id']}/moves/", {"move": "4", "version": 2})[0] == 201
    wait_until(lambda: player.call("GET", f"/api/matches/{match['id']}/")[1]["version"] == 4)
    status, moves = player.call("GET", f"/api/matches/{match['id']}/moves/")
    assert [move["seat"] for move in moves] == [0, 1, 0, 1]


def test_a_hundred_sign_ups_and_then_logins_at_once_through_both_processes_get_no_server_error(server: Server) -> None:
    from concurrent.futures import ThreadPoolExecutor

    # Each sign-up and login hashes a password for real (a few hundred ms of
    # CPU each): a hundred queue for the two cores for a while.
    def sign_up(i: int) -> int:
        return Connection(server, timeout=180).call("POST", "/api/auth/register/", {"username": f"burst{i}", "password": "burst-pass-9"})[0]

    def log_in(i: int) -> int:
        return Connection(server, timeout=180).call("POST", "/api/auth/login/", {"username": f"burst{i}", "password": "burst-pass-9"})[0]

    with ThreadPoolExecutor(max_workers=100) as pool:
        sign_ups = list(pool.map(sign_up, range(100)))
        logins = list(pool.map(log_in, range(100)))
    # Every sign-up stored (the writers of both processes queue on one lock file), every login answered.
    assert sign_ups == [201] * 100
    assert logins == [200] * 100
