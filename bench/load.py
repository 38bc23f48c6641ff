"""Load benchmark: N concurrent Connect Four games between scripted clients.

Each game has two clients that talk REST for moves and listen on the room
WebSocket. For every move we measure the time from the mover's POST to the
opponent's `state` push with the new version, and report moves per second and
the p50/p99 of that latency.

    .venv/bin/python bench/load.py --spawn sqlite --games 20 --seconds 30
    .venv/bin/python bench/load.py --spawn postgres --servers 2 --games 20 --seconds 30
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --games 10

--spawn starts the server(s) itself on a fresh database (PostgreSQL at
127.0.0.1:5432 and Redis at 127.0.0.1:6379 for `postgres`); with --servers 2
the two players of a game use different server processes, so every push
crosses Redis.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine_line  # noqa: E402
from tests.servers import Server, manage, server_env  # noqa: E402


class Client:
    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.name = name
        self.http = httpx.AsyncClient(base_url=base, timeout=30)
        self.token = ""
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.socket: Any = None
        self.reader: asyncio.Task[None] | None = None

    async def register(self) -> None:
        response = await self.http.post("/api/auth/register/", json={"username": self.name, "password": "bench-pass"})
        response.raise_for_status()
        self.token = response.json()["token"]
        self.http.headers["Authorization"] = f"Token {self.token}"

    async def listen(self, room: int) -> None:
        ws_base = self.base.replace("http", "ws", 1)
        self.socket = await websockets.connect(f"{ws_base}/ws/rooms/{room}/?token={self.token}", max_size=None)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.socket:
                message = json.loads(raw)
                if message["type"] == "state":
                    message["received"] = time.perf_counter()
                    await self.inbox.put(message["match"] | {"_received": message["received"]})

    async def state_at(self, match_id: int, version: int) -> dict[str, Any]:
        while True:
            match = await asyncio.wait_for(self.inbox.get(), timeout=30)
            if match["id"] == match_id and match["version"] >= version:
                return match

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            self.reader.cancel()
        await self.http.aclose()


async def play_games(bases: list[str], deadline: float, latencies: list[float], counts: dict[str, int], rng: random.Random) -> None:
    tag = uuid.uuid4().hex[:8]
    players = [Client(bases[i % len(bases)], f"b{tag}{i}") for i in range(2)]
    for p in players:
        await p.register()
    room = (await players[0].http.post("/api/rooms/", json={"game": "connect-four"})).json()
    for p in players:
        await p.listen(room["id"])
    joined = (await players[1].http.post(f"/api/rooms/{room['id']}/join/")).json()
    match_id = joined["match"]
    try:
        while time.perf_counter() < deadline:
            detail = (await players[0].http.get(f"/api/matches/{match_id}/")).json()
            by_seat = {p["seat"]: players[0] if p["username"] == players[0].name else players[1] for p in detail["players"]}
            while detail["status"] == "active" and time.perf_counter() < deadline:
                mover = by_seat[detail["to_move"][0]]
                other = by_seat[1 - detail["to_move"][0]]
                mine = (await mover.http.get(f"/api/matches/{match_id}/")).json() if not detail["legal_moves"] else detail
                column = rng.choice(mine["legal_moves"])
                sent = time.perf_counter()
                response = await mover.http.post(
                    f"/api/matches/{match_id}/moves/", json={"move": column, "version": mine["version"]}
                )
                if response.status_code != 201:
                    counts["errors"] += 1
                    break
                pushed = await other.state_at(match_id, mine["version"] + 1)
                latencies.append(pushed["_received"] - sent)
                counts["moves"] += 1
                detail = pushed
            if detail["status"] != "active":
                counts["games"] += 1
                rematch = await players[0].http.post(f"/api/rooms/{room['id']}/rematch/")
                if rematch.status_code != 201:
                    counts["errors"] += 1
                    return
                match_id = rematch.json()["id"]
    finally:
        for p in players:
            await p.close()


async def keep_solving(base: str, deadline: float, counts: dict[str, int]) -> None:
    """Keep the Sokoban solver busy on a level far beyond it until the deadline."""
    solver = Client(base, f"solver{uuid.uuid4().hex[:8]}")
    await solver.register()
    levels = (await solver.http.get("/api/sokoban/levels/?collection=Microban II&page_size=200")).json()["results"]
    hard = max(levels, key=lambda level: level["boxes"])["id"]
    try:
        while time.perf_counter() < deadline - 1:
            left = max(1.0, min(60.0, deadline - time.perf_counter()))
            job = (await solver.http.post(
                "/api/sokoban/solve/", json={"level_id": hard, "algorithm": "bfs", "time_limit": round(left, 1)}
            )).json()
            counts["solves"] += 1
            while time.perf_counter() < deadline:
                state = (await solver.http.get(f"/api/sokoban/solve/{job['id']}/")).json()
                if state["status"] not in ("queued", "running"):
                    break
                counts["solver_positions"] = state["expanded"]
                await asyncio.sleep(0.5)
            else:
                await solver.http.post(f"/api/sokoban/solve/{job['id']}/cancel/")
    finally:
        await solver.close()


async def run(bases: list[str], games: int, seconds: float, seed: int, with_solve: bool = False) -> dict[str, Any]:
    latencies: list[float] = []
    counts = {"moves": 0, "games": 0, "errors": 0, "solves": 0, "solver_positions": 0}
    started = time.perf_counter()
    deadline = started + seconds
    players = [play_games(bases, deadline, latencies, counts, random.Random(seed + i)) for i in range(games)]
    solving = [keep_solving(bases[0], deadline, counts)] if with_solve else []
    await asyncio.gather(*players, *solving)
    elapsed = time.perf_counter() - started
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else float("nan")

    return {
        "games_in_parallel": games,
        "seconds": round(elapsed, 1),
        "moves": counts["moves"],
        "finished_games": counts["games"],
        "errors": counts["errors"],
        "moves_per_second": round(counts["moves"] / elapsed, 1),
        "latency_ms_p50": round(pct(0.50), 1),
        "latency_ms_p99": round(pct(0.99), 1),
        "latency_ms_mean": round(statistics.fmean(ordered) * 1000, 1) if ordered else None,
        **({"solves_started": counts["solves"], "solver_positions_last": counts["solver_positions"]}
           if with_solve else {}),
    }


@contextlib.contextmanager
def spawned(kind: str, count: int) -> Any:
    if kind == "sqlite":
        folder = tempfile.mkdtemp()
        env = server_env(DATABASE_URL=f"sqlite:///{folder}/bench.sqlite3")
        drop = None
    else:
        import psycopg

        name = f"boardgames_bench_{uuid.uuid4().hex[:6]}"
        admin = "postgres://postgres@127.0.0.1:5432/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        env = server_env(
            DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{name}",
            REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/2"),
        )

        def drop() -> None:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    env["LOG_LEVEL"] = "ERROR"
    manage(env, "migrate", "--noinput")
    servers = [Server(env).start() for _ in range(count)]
    try:
        yield [s.url for s in servers]
    finally:
        for s in servers:
            s.stop()
        if drop:
            drop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", action="append", help="a running server (repeat for several)")
    parser.add_argument("--spawn", choices=["sqlite", "postgres"], help="start the server(s) here")
    parser.add_argument("--servers", type=int, default=1, help="with --spawn: how many server processes")
    parser.add_argument("--games", type=int, default=10, help="games played at once")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--with-solve", action="store_true",
                        help="keep a Sokoban solve running meanwhile (its search runs in a child process)")
    args = parser.parse_args()
    if not args.url and not args.spawn:
        parser.error("give --url or --spawn")
    if args.spawn:
        with spawned(args.spawn, args.servers) as bases:
            report = asyncio.run(run(bases, args.games, args.seconds, args.seed, args.with_solve))
        report["setup"] = f"{args.spawn}, {args.servers} server process(es)" + (", solver busy" if args.with_solve else "")
    else:
        report = asyncio.run(run(args.url, args.games, args.seconds, args.seed, args.with_solve))
        report["setup"] = ", ".join(args.url)
    report["machine"] = machine_line()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
