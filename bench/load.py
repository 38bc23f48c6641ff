"""Load benchmark: N concurrent Connect Four games between scripted clients.

Each game has two clients that talk REST for moves and listen on the room
WebSocket. For every move we measure the time from the mover's POST to the
opponent's `state` push with the new version, and report moves per second and
the p50/p99 of that latency.

Closed loop (the default): each game moves again as soon as the opponent has
seen the last move, as fast as the clients go.

Open loop (--think T): players who think. Games arrive --arrival per second
until --games are on, then each makes a move every T seconds whatever the
server does; a move that cannot be made on time (the last one is not through
yet) is made as soon as it can, and its latency counts from when it was due,
so a slow server cannot hide its queue. --sweep G1,G2,... runs one
measurement per G on a fresh server and reports the largest G whose p99 stays
under 100 ms.

    .venv/bin/python bench/load.py --spawn sqlite --games 20 --seconds 30
    .venv/bin/python bench/load.py --spawn postgres --servers 2 --games 20 --seconds 30
    .venv/bin/python bench/load.py --spawn sqlite --think 2 --sweep 100,200,300,400 --seconds 30
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --games 10

--spawn starts the server(s) itself on a fresh database (PostgreSQL at
127.0.0.1:5432 and Redis at 127.0.0.1:6379 for `postgres`); with --servers 2
the two players of a game use different server processes, so every push
crosses Redis.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.kept_alive import HTTPFailure, KeptAlive  # noqa: E402
from bench.machine import machine_line  # noqa: E402
from bench.server_cost import Neighbours, process_cpu_alone, process_tree, profiled  # noqa: E402
from tests.servers import Server, manage, server_env  # noqa: E402


# Why open-loop games stopped: a status and error code, an exception's name, a socket's close.
kinds: collections.Counter[str] = collections.Counter()


class Client:
    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.name = name
        # Not httpx: what the players cost this machine is taken from the server (bench/kept_alive.py).
        self.http = KeptAlive(base, timeout=30)
        self.token = ""
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.socket: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.closing = False

    async def register(self) -> None:
        response = await self.http.post("/api/auth/register/", json={"username": self.name, "password": "bench-pass"})
        response.raise_for_status()
        self.use_token(response.json()["token"])

    def use_token(self, token: str) -> None:
        self.token = token
        self.http.headers["Authorization"] = f"Token {token}"

    async def listen(self, room: int) -> None:
        ws_base = self.base.replace("http", "ws", 1)
        self.socket = await websockets.connect(f"{ws_base}/ws/rooms/{room}/?token={self.token}", max_size=None)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.socket:
                message = json.loads(raw)
                if message["type"] == "state":
                    message["received"] = time.perf_counter()
                    await self.inbox.put(message["match"] | {"_received": message["received"]})
        except websockets.ConnectionClosed as closed:
            # Closed by the server while the game was on: a reason a game stops.
            if not self.closing:
                kinds[f"socket closed {closed.rcvd.code if closed.rcvd else 'without a code'}"] += 1

    async def state_at(self, match_id: int, version: int) -> dict[str, Any]:
        while True:
            match = await asyncio.wait_for(self.inbox.get(), timeout=30)
            if match["id"] == match_id and match["version"] >= version:
                return match

    async def close(self) -> None:
        self.closing = True
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            self.reader.cancel()
        await self.http.aclose()



async def rematch(players: list[Client], room_id: int) -> int | None:
    """The next match of the room: one player offers, the other accepts (a rematch is an offer)."""
    offered = await players[0].http.post(f"/api/rooms/{room_id}/rematch/")
    if offered.status_code == 201:
        return int(offered.json()["id"])
    accepted = await players[1].http.post(f"/api/rooms/{room_id}/rematch/")
    if offered.status_code != 202 or accepted.status_code != 201:
        return None
    return int(accepted.json()["id"])


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
                next_match = await rematch(players, room["id"])
                if next_match is None:
                    counts["errors"] += 1
                    return
                match_id = next_match
    finally:
        for p in players:
            await p.close()


SLICE_SECONDS = 5
LAG_PROBE_SECONDS = 0.005


async def think_and_play(
    players: list[Client],
    think: float,
    first_due: float,
    window: tuple[float, float],
    latencies: list[float],
    counts: dict[str, int],
    slices: collections.defaultdict[int, list[float]],
) -> None:
    """One game of players who think: a move every ``think`` seconds, due whether or not the server kept up.

    Moves due inside ``window`` (once every game has arrived) are measured.
    """
    measure_from, deadline = window
    rng = random.Random(first_due)
    phase = "start"
    try:
        room = (await players[0].http.post("/api/rooms/", json={"game": "connect-four"})).json()
        for p in players:
            await p.listen(room["id"])
        joined = (await players[1].http.post(f"/api/rooms/{room['id']}/join/")).json()
        match_id = joined["match"]
        detail = await players[0].state_at(match_id, 0)
        by_seat = {p["seat"]: players[0] if p["username"] == players[0].name else players[1] for p in detail["players"]}
        due = first_due
        version = 0
        while due < deadline:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            seat = detail["to_move"][0]
            mover, other = by_seat[seat], by_seat[1 - seat]
            mine = detail if detail["legal_moves"] else await mover.state_at(match_id, version)
            response = await mover.http.post(
                f"/api/matches/{match_id}/moves/", json={"move": rng.choice(mine["legal_moves"]), "version": version}
            )
            if response.status_code != 201:
                counts["errors"] += 1
                kinds[f"{response.status_code} {response.json().get('code', '')}"] += 1
                return
            phase = "push of a move"
            detail = await other.state_at(match_id, version + 1)
            phase = "between moves"
            if due >= measure_from:
                latencies.append(detail["_received"] - due)
                slices[int((due - measure_from) // SLICE_SECONDS)].append(detail["_received"] - due)
                counts["moves"] += 1
            version += 1
            due += think
            if detail["status"] != "active":
                counts["games"] += 1
                next_match = await rematch(players, room["id"])
                if next_match is None:
                    counts["errors"] += 1
                    return
                match_id, version = next_match, 0
                phase = "push of a rematch"
                detail = await players[0].state_at(match_id, 0)
                by_seat = {p["seat"]: players[0] if p["username"] == players[0].name else players[1] for p in detail["players"]}
        # Stay until every game's last measured move is through: players who all
        # left at once in the window's last thinking time (a socket's close is a
        # database write) would load the last moves as real players do not.
        await asyncio.sleep(max(0.0, deadline + think + 1.0 - time.perf_counter()))
    except (asyncio.TimeoutError, HTTPFailure, OSError, websockets.WebSocketException) as error:
        counts["errors"] += 1
        kinds[f"{type(error).__name__} at {phase}"] += 1
    finally:
        for p in players:
            await p.close()


async def run_open_loop(
    bases: list[str],
    tokens: list[tuple[str, str]],
    games: int,
    think: float,
    arrival: float,
    seconds: float,
    server_pids: list[int],
    neighbours: Neighbours,
) -> dict[str, Any]:
    """``games`` games arrive ``arrival`` a second; latencies count from the moment the ramp is over.

    Besides latencies, the CPU the server processes and this client process
    spent over the measured window, as a share of one core: when the
    client's share nears 1.0 the client, not the server, is the limit. With
    PostgreSQL + Redis, their CPU per move too (``neighbours``): what else a
    move costs this machine.
    """
    latencies: list[float] = []
    slices: collections.defaultdict[int, list[float]] = collections.defaultdict(list)
    counts = {"moves": 0, "games": 0, "errors": 0}
    started = time.perf_counter()
    ramp = games / arrival
    measure_from = started + ramp + think
    deadline = measure_from + seconds
    tasks = []
    for i in range(games):
        arrive = started + i / arrival
        await asyncio.sleep(max(0.0, arrive - time.perf_counter()))
        pair = []
        for k in range(2):
            client = Client(bases[(2 * i + k) % len(bases)], tokens[2 * i + k][0])
            client.use_token(tokens[2 * i + k][1])
            pair.append(client)
        # Each game's first move is due a random part of a thinking time after it arrives.
        first_due = arrive + 1.0 + think * random.Random(i).random()
        window = (measure_from, deadline)
        tasks.append(asyncio.create_task(think_and_play(pair, think, first_due, window, latencies, counts, slices)))
    cpu = asyncio.create_task(cpu_over(server_pids, measure_from, deadline, neighbours))
    lag = asyncio.create_task(client_lag(measure_from, deadline))
    await asyncio.gather(*tasks)
    server_cpu, client_cpu, others, by_process = await cpu
    lags = sorted(await lag)
    steady = sorted(latencies)
    return {
        "games": games,
        "think_seconds": think,
        "moves_measured": counts["moves"],
        "moves_per_second_asked": round(games / think, 1),
        "moves_per_second": round(counts["moves"] / seconds, 1),
        "errors": counts["errors"],
        "latency_ms_p50": round(percentile(steady, 0.50), 1),
        "latency_ms_p90": round(percentile(steady, 0.90), 1),
        "latency_ms_p99": round(percentile(steady, 0.99), 1),
        "latency_ms_max": round(steady[-1] * 1000, 1) if steady else None,
        "over_100ms": sum(latency > 0.1 for latency in steady),
        "server_cpu_share": round(server_cpu / seconds, 2),
        "server_cpu_ms_per_move": round(1000 * server_cpu / counts["moves"], 2) if counts["moves"] else None,
        # Each server process's share of a core (those above 1%), largest first.
        "server_cpu_share_by_process": [round(cpu / seconds, 2) for cpu in by_process if cpu / seconds >= 0.01],
        "client_cpu_share": round(client_cpu / seconds, 2),
        **{
            f"{part}_cpu_ms_per_move": round(1000 * spent / counts["moves"], 2) if counts["moves"] else None
            for part, spent in others.items()
        },
        # How late this process's own loop woke (a 5 ms sleep's overshoot):
        # what of the latencies above is the client's, not the server's.
        "client_lag_ms_p99": round(percentile(lags, 0.99), 1),
        "client_lag_ms_max": round(lags[-1] * 1000, 1) if lags else None,
        "error_kinds": dict(kinds),
        # Whether the slow moves come in a burst (a backlog, a stall) or all along.
        f"p99_ms_by_{SLICE_SECONDS}s": [round(percentile(sorted(slices[k]), 0.99)) for k in sorted(slices)],
    }


async def client_lag(start: float, end: float) -> list[float]:
    """How late this process's event loop wakes from a 5 ms sleep, over the measured window."""
    lags: list[float] = []
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    while (before := time.perf_counter()) < end:
        await asyncio.sleep(LAG_PROBE_SECONDS)
        lags.append(time.perf_counter() - before - LAG_PROBE_SECONDS)
    return lags


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """This client process's cyclic garbage collector off while it measures.

    The 2G clients (HTTP clients, sockets, their buffers) are hundreds of
    thousands of objects in one process, and its collector's full walks over
    them stalled the client's loop for up to 170 ms at 300 games: every move
    whose push arrived meanwhile was counted that much late, the server's
    time or not (measured with the loop-lag probe, client_lag_ms_*: p99 30 ms
    and max 172 ms with the collector on, 15 and 28 ms with it off; the
    latency p99 of the same run 197 ms against 65). A run is minutes long;
    its cyclic garbage waits for the collection at the end.
    """
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()
        gc.collect()


async def cpu_over(
    server_pids: list[int], start: float, end: float, neighbours: Neighbours
) -> tuple[float, float, dict[str, float], list[float]]:
    """CPU seconds of the servers (with their workers), of this process, of the
    servers' database and Redis (by part), and of each server process (largest
    first: whether several share the work evenly), between two moments."""
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    each, client, others = _each_process_cpu(server_pids), time.process_time(), neighbours.cpu()
    await asyncio.sleep(max(0.0, end - time.perf_counter()))
    after, after_each = neighbours.cpu(), _each_process_cpu(server_pids)
    spent = {pid: cpu - each.get(pid, 0.0) for pid, cpu in after_each.items()}
    return (
        sum(spent.values()),
        time.process_time() - client,
        {part: after[part] - others[part] for part in others},
        sorted(spent.values(), reverse=True),
    )


def _each_process_cpu(server_pids: list[int]) -> dict[int, float]:
    return {one: process_cpu_alone(one) for pid in server_pids for one in process_tree(pid)}


def percentile(ordered: list[float], p: float) -> float:
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else float("nan")


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


ACCOUNTS_SCRIPT = """
import json, sys, uuid
from django.contrib.auth.hashers import make_password
from accounts.models import ApiToken, User
tag = uuid.uuid4().hex[:6]
users = User.objects.bulk_create(
    [User(username=f"b{tag}{i}", password=make_password(None)) for i in range(int(sys.argv[-1]))]
)
users = list(User.objects.filter(username__startswith=f"b{tag}").order_by("id"))
tokens = ApiToken.objects.bulk_create([ApiToken(user=u, key=ApiToken.new_key()) for u in users])
print(json.dumps([[t.user.username, t.key] for t in tokens]))
"""


def make_accounts(env: dict[str, str], count: int) -> list[tuple[str, str]]:
    """``count`` players with API tokens, straight into the database.

    Hundreds of sign-ups through the API would spend minutes hashing
    passwords before the measurement starts; the players here only need a
    token, and never log in with a password.
    """
    import subprocess

    from tests.servers import ROOT

    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); exec(open(0).read())", str(count)],
        input=ACCOUNTS_SCRIPT, cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )
    return [(name, token) for name, token in json.loads(done.stdout.strip().splitlines()[-1])]


def database_of(env: dict[str, str]) -> Neighbours:
    """The PostgreSQL backends and Redis serving a spawned server (none on SQLite)."""
    url = env.get("DATABASE_URL", "")
    return Neighbours(url.rsplit("/", 1)[1] if url.startswith("postgres") else None)


@contextlib.contextmanager
def spawned(kind: str, count: int, debug: bool = False, throttle: bool = True, workers: int = 1) -> Any:
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

    env["LOG_LEVEL"] = os.environ.get("BENCH_LOG_LEVEL", "ERROR")
    # The closed loop moves as fast as its clients can, far past the move
    # limit a person never reaches (settings.THROTTLE_RATES); players who
    # think (--think) stay under it with the limits on.
    env["THROTTLE"] = "on" if throttle else "off"
    # As deployed (DEBUG off: no query log, no debug cursor), unless --debug
    # asks for `make run`'s development mode.
    if not debug:
        env.update(DEBUG="0", SECRET_KEY="bench-only", ALLOWED_HOSTS="127.0.0.1,localhost")
    manage(env, "migrate", "--noinput")
    servers = [Server(env, workers=workers).start() for _ in range(count)]
    try:
        yield [s.url for s in servers], env, [s.process.pid for s in servers]
    finally:
        for s in servers:
            s.stop()
        if drop:
            drop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", action="append", help="a running server (repeat for several)")
    parser.add_argument("--spawn", choices=["sqlite", "postgres"], help="start the server(s) here")
    parser.add_argument("--servers", type=int, default=1, help="with --spawn: how many servers, each on its own port")
    parser.add_argument("--workers", type=int, default=1,
                        help="with --spawn: server processes behind each port (serve --workers; on SQLite through the hub)")
    parser.add_argument("--games", type=int, default=10, help="games played at once")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--with-solve", action="store_true",
                        help="keep a Sokoban solve running meanwhile (its search runs in a child process)")
    parser.add_argument("--think", type=float, help="open loop: seconds between a game's moves")
    parser.add_argument("--arrival", type=float, default=20.0, help="open loop: games arriving per second")
    parser.add_argument("--sweep", help="open loop: G1,G2,... games, one fresh server each")
    parser.add_argument("--debug", action="store_true", help="spawned servers in DEBUG mode, as `make run` is")
    parser.add_argument("--profile", metavar="FILE",
                        help="open loop: record the (first) server with py-spy meanwhile (raw folded stacks; with --workers, all its processes)")
    args = parser.parse_args()
    if not args.url and not args.spawn:
        parser.error("give --url or --spawn")
    if args.think:
        if not args.spawn:
            parser.error("--think needs --spawn (the players are made in the database)")
        sizes = [int(g) for g in args.sweep.split(",")] if args.sweep else [args.games]
        results = []
        for games in sizes:
            with spawned(args.spawn, args.servers, args.debug, workers=args.workers) as (bases, env, pids):
                tokens = make_accounts(env, 2 * games)
                with profiled(pids[0], args.profile, subprocesses=args.workers > 1), collector_paused():
                    result = asyncio.run(
                        run_open_loop(bases, tokens, games, args.think, args.arrival, args.seconds, pids, database_of(env))
                    )
            result["setup"] = f"{args.spawn}, {args.servers} server(s) x {args.workers} process(es)" + (", DEBUG" if args.debug else "")
            print(json.dumps(result), flush=True)
            results.append(result)
        held = [r["games"] for r in results if r["latency_ms_p99"] < 100 and not r["errors"]]
        print(json.dumps({"largest_games_with_p99_under_100ms": max(held) if held else None, "machine": machine_line()}))
        return
    if args.spawn:
        with spawned(args.spawn, args.servers, args.debug, throttle=False, workers=args.workers) as (bases, _, _pids):
            with collector_paused():
                report = asyncio.run(run(bases, args.games, args.seconds, args.seed, args.with_solve))
        report["setup"] = f"{args.spawn}, {args.servers} server(s) x {args.workers} process(es)" + (", solver busy" if args.with_solve else "")
    else:
        with collector_paused():
            report = asyncio.run(run(args.url, args.games, args.seconds, args.seed, args.with_solve))
        report["setup"] = ", ".join(args.url)
    report["machine"] = machine_line()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
