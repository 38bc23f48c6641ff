"""Server CPU per operation, read from the server processes' own CPU time (/proc).

Wall time on a shared machine says more about the neighbours than about us;
the CPU a server process spent is barely moved by them. For each operation
this starts a real server (as `make run` does), warms it up, then does the
operation N times and divides the server's CPU time (user + system, its
children included) by N:

- get: a trivial authenticated GET /api/auth/me/ over a kept-alive connection;
- move: one move of a two-player Connect Four game with both players' room
  sockets open: the POST, its commit, and both pushes (waited for);
- connect: a room socket's connect and snapshot (room + match), then close.

With PostgreSQL + Redis, the CPU their processes spent for the same
operations is shown beside it (the backends of the server's own database,
and the Redis server), and the three added up: what the operation costs the
machine.

    .venv/bin/python bench/server_cost.py                      # SQLite, in-memory layer
    .venv/bin/python bench/server_cost.py --spawn postgres     # PostgreSQL + Redis
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine_line  # noqa: E402
from tests.servers import Server, manage, server_env  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def process_tree(pid: int) -> list[int]:
    """``pid`` and its live descendants: the server processes of `serve --workers`, and their bot and solve workers."""
    pids = [pid]
    for parent in pids:  # grows as it goes
        try:
            pids += [int(child) for child in Path(f"/proc/{parent}/task/{parent}/children").read_text().split()]
        except OSError:
            pass
    return pids


def process_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its live descendants."""
    return sum(process_cpu_alone(one) for one in process_tree(pid))


def pids_by(parts: dict[str, str]) -> dict[str, list[int]]:
    """Part -> the live processes whose command line contains its text (the PostgreSQL
    backends of one database: "postgres: ... <user> <database> ..."; the Redis server),
    from one walk over /proc."""
    found: dict[str, list[int]] = {part: [] for part in parts}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            for part, text in parts.items():
                if text in command:
                    found[part].append(int(entry.name))
    return found


class Neighbours:
    """CPU seconds spent by what serves the server on this machine: its PostgreSQL
    backends (those of its own database) and Redis, read from /proc like the server's.

    They share the machine with the server processes: a move that costs the
    database more costs the machine more, whatever the server's own figure.
    With the embedded default there are none (SQLite runs in the server).
    """

    def __init__(self, database: str | None) -> None:
        self.database = database

    def cpu(self) -> dict[str, float]:
        if self.database is None:
            return {}
        found = pids_by({"database": f" {self.database} ", "redis": "redis-server"})
        return {part: sum(process_cpu_alone(pid) for pid in pids) for part, pids in found.items()}


def process_cpu_alone(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


class Player:
    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.AsyncClient(base_url=base, timeout=30)
        self.token = ""
        self.name = f"b{uuid.uuid4().hex[:10]}"

    async def register(self) -> None:
        response = await self.http.post("/api/auth/register/", json={"username": self.name, "password": "bench-pass-9"})
        response.raise_for_status()
        self.token = response.json()["token"]
        self.http.headers["Authorization"] = f"Token {self.token}"

    async def socket(self, room: int) -> Any:
        ws_base = self.base.replace("http", "ws", 1)
        return await websockets.connect(f"{ws_base}/ws/rooms/{room}/?token={self.token}", max_size=None)


async def state_at(socket: Any, version: int) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout=30))
        if message["type"] == "state" and message["match"]["version"] >= version:
            return dict(message["match"])


async def new_game(alice: Player, bob: Player) -> tuple[int, int]:
    room = (await alice.http.post("/api/rooms/", json={"game": "connect-four"})).json()
    joined = (await bob.http.post(f"/api/rooms/{room['id']}/join/")).json()
    return room["id"], joined["match"]


# Two games that never finish early: columns filled in turn, with no four.
GAME = [1, 2, 1, 2, 1, 2, 2, 1, 2, 1, 2, 1, 3, 4, 3, 4, 3, 4, 4, 3, 4, 3, 4, 3, 5, 6, 5, 6, 5, 6, 6, 5, 6, 5, 6, 5]


Costs = dict[str, float]  # part (server, database, redis) -> CPU seconds


class Meter:
    """CPU seconds of the server processes and their neighbours, added up over measured stretches."""

    def __init__(self, pid: int, neighbours: Neighbours) -> None:
        self.pid = pid
        self.neighbours = neighbours
        self.total: Costs = {}
        self._start: Costs = {}

    def reading(self) -> Costs:
        return {"server": process_cpu(self.pid), **self.neighbours.cpu()}

    def start(self) -> None:
        self._start = self.reading()

    def stop(self) -> None:
        for part, seconds in self.reading().items():
            self.total[part] = self.total.get(part, 0.0) + seconds - self._start[part]

    def each(self, count: int) -> Costs:
        return {part: seconds / count for part, seconds in self.total.items()}


async def measure(server: Server, repeat: int, only: str | None, neighbours: Neighbours) -> dict[str, Costs]:
    pid = server.process.pid  # type: ignore[union-attr]
    alice, bob = Player(server.url), Player(server.url)
    await alice.register()
    await bob.register()
    costs: dict[str, Costs] = {}

    if only in (None, "get"):
        for _ in range(100):
            (await alice.http.get("/api/auth/me/")).raise_for_status()
        meter = Meter(pid, neighbours)
        meter.start()
        for _ in range(repeat):
            (await alice.http.get("/api/auth/me/")).raise_for_status()
        meter.stop()
        costs["get"] = meter.each(repeat)
    if only in (None, "move"):
        costs["move"] = await measure_moves(Meter(pid, neighbours), alice, bob, repeat)
    if only in (None, "connect"):
        costs["connect"] = await measure_connects(Meter(pid, neighbours), alice, bob, repeat)
    await alice.http.aclose()
    await bob.http.aclose()
    return costs


async def measure_moves(meter: Meter, alice: Player, bob: Player, repeat: int) -> Costs:
    moves = 0
    while moves < repeat:
        room, match = await new_game(alice, bob)
        sockets = [await alice.socket(room), await bob.socket(room)]
        for socket in sockets:
            await state_at(socket, 0)
        version = 0
        meter.start()
        for ply, column in enumerate(GAME):
            mover = (alice, bob)[ply % 2]
            response = await mover.http.post(
                f"/api/matches/{match}/moves/", json={"move": str(column), "version": version}
            )
            if response.status_code != 201:
                raise RuntimeError(response.text)
            version += 1
            for socket in sockets:
                await state_at(socket, version)
            moves += 1
        meter.stop()
        for socket in sockets:
            await socket.close()
    return meter.each(moves)


async def measure_connects(meter: Meter, alice: Player, bob: Player, repeat: int) -> Costs:
    room, _ = await new_game(alice, bob)
    for _ in range(20):
        socket = await bob.socket(room)
        await state_at(socket, 0)
        await socket.close()
    meter.start()
    for _ in range(repeat):
        socket = await bob.socket(room)
        await state_at(socket, 0)
        await socket.close()
    meter.stop()
    return meter.each(repeat)


@contextlib.contextmanager
def profiled(pid: int, path: str | None, *, rate: int = 100, blocking: bool = False, subprocesses: bool = False) -> Iterator[None]:
    """py-spy recording ``pid`` while the block runs, when a file is given (bench/folded.py reads it).

    Only the thread holding the interpreter's lock is sampled (--gil): where
    the Python CPU goes. Threads waiting for the lock (a dozen HTTP threads
    under load) would otherwise fill the profile with waits. Not blocking the
    server to sample it keeps a loaded run close to one without the profiler.
    """
    if not path:
        yield
        return
    py_spy = Path(sys.executable).with_name("py-spy")
    command = [str(py_spy), "record", "-p", str(pid), "-f", "raw", "-r", str(rate), "--gil", "-o", path]
    if not blocking:
        command.insert(-2, "--nonblocking")
    if subprocesses:  # the server processes of `serve --workers N`, children of the one given
        command.insert(-2, "--subprocesses")
    spy = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)
        spy.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spawn", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--repeat", type=int, default=500, help="operations of each kind")
    parser.add_argument("--only", choices=["get", "move", "connect"], help="measure one operation")
    parser.add_argument("--profile", metavar="FILE", help="record the server with py-spy (raw folded stacks)")
    args = parser.parse_args()
    if args.spawn == "postgres":
        database = f"boardgames_cost_{uuid.uuid4().hex[:8]}"
        env = server_env(
            DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{database}", REDIS_URL="redis://127.0.0.1:6379/3"
        )
        import psycopg

        with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {database}")
    else:
        env = server_env(DATABASE_URL=f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
    env.update(DEBUG="0", SECRET_KEY="bench-only", SCHEDULER="off")
    # The limits stay on (their check is part of each request's cost) but so
    # high that one player making hundreds of moves a minute is let through.
    env.update({f"THROTTLE_{scope}": "1000000/60" for scope in ("MOVE", "ROOM", "SOCKET", "REGISTER")})
    manage(env, "migrate", "--noinput")
    started = time.time()
    neighbours = Neighbours(database if args.spawn == "postgres" else None)
    with Server(env) as server, profiled(server.process.pid, args.profile, rate=500, blocking=True):  # type: ignore[union-attr]
        costs = asyncio.run(measure(server, args.repeat, args.only, neighbours))
    print(f"# server CPU per operation ({args.spawn}, {args.repeat} of each); {machine_line()}")
    for name, parts in costs.items():
        others = "".join(f", {part} {seconds * 1000:.2f} ms" for part, seconds in parts.items() if part != "server")
        machine = f" (machine {sum(parts.values()) * 1000:.2f} ms)" if others else ""
        print(f"{name:8s} {parts['server'] * 1000:7.2f} ms{others}{machine}")
    if "move" in costs and "get" in costs:
        print(f"move / get = {costs['move']['server'] / costs['get']['server']:.1f}")
    print(f"({time.time() - started:.0f} s)")
    if args.spawn == "postgres":
        import psycopg

        with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {database} WITH (FORCE)")


if __name__ == "__main__":
    main()
