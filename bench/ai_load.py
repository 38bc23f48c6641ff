"""AI turn latency under load: G Manhattan games, each one person against three strong AI seats.

A real server (as `make run`, its scheduler and AI workers on) on a fresh
SQLite database; each game's person plays a random legal move as soon as it
is their turn (polling the match every 0.2 s), so the AI seats are as busy
as they can be. After --seconds, the moves are read back from the database:
games that end are followed by a rematch at once; an AI turn's latency is from the commit of the move before it (when the
turn became the AI's) to the commit of the AI's own move. Reports p50, p90
and max, the AI moves made, and how many the scheduler had to play with
its random fallback (the server's log says so).

    .venv/bin/python bench/ai_load.py --games 30 --seconds 120
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import make_accounts, percentile, spawned  # noqa: E402
from bench.machine import machine_line  # noqa: E402
from bench.server_cost import process_cpu  # noqa: E402
from tests.servers import ROOT  # noqa: E402

LATENCIES_SCRIPT = """
import json
from games.models import Move
rows = {}
for match_id, ply, made_by, at in Move.objects.order_by("match_id", "ply").values_list("match_id", "ply", "made_by", "created_at"):
    rows.setdefault(match_id, []).append((made_by, at.timestamp()))
from games.models import Match
starts = dict(Match.objects.values_list("id", "created_at"))
out = []
for match_id, moves in rows.items():
    before = starts[match_id].timestamp()
    for made_by, at in moves:
        if made_by == "bot":
            out.append(at - before)
        before = at
print(json.dumps(out))
"""


async def person(base: str, token: str, seconds: float, rng: random.Random, counts: dict[str, int]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60, headers={"Authorization": f"Token {token}"}) as http:
        room = (await http.post("/api/rooms/", json={"game": "manhattan", "options": {"ai": "strong", "turn_seconds": 0}})).json()
        match = (await http.post(f"/api/rooms/{room['id']}/start/")).json()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if match["status"] != "active":
                # The next game at once (the AI seats accept a rematch at once).
                match = (await http.post(f"/api/rooms/{room['id']}/rematch/")).json()
                counts["games"] += 1
                continue
            if match["legal_moves"]:
                answer = await http.post(
                    f"/api/matches/{match['id']}/moves/",
                    json={"move": rng.choice(match["legal_moves"]), "version": match["version"]},
                )
                counts["person"] += answer.status_code == 201
            else:
                await asyncio.sleep(0.2)
            match = (await http.get(f"/api/matches/{match['id']}/")).json()


async def run(base: str, tokens: list[str], seconds: float) -> dict[str, int]:
    counts = {"person": 0, "games": 0}
    await asyncio.gather(*(person(base, token, seconds, random.Random(i), counts) for i, token in enumerate(tokens)))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args()
    with spawned("sqlite", 1, throttle=False) as (bases, env, pids):
        tokens = [token for _, token in make_accounts(env, args.games)]
        cpu_before, started = process_cpu(pids[0]), time.monotonic()
        counts = asyncio.run(run(bases[0], tokens, args.seconds))
        cpu = process_cpu(pids[0]) - cpu_before
        elapsed = time.monotonic() - started
        done = subprocess.run(
            [sys.executable, "-c", "import django; django.setup(); exec(open(0).read())"],
            input=LATENCIES_SCRIPT, cwd=ROOT, env=env, capture_output=True, text=True, check=True,
        )
        latencies = sorted(json.loads(done.stdout.strip().splitlines()[-1]))
        log = Path(f"/tmp/server-{bases[0].rsplit(':', 1)[1]}.log")
        fallbacks = log.read_text(errors="replace").count("playing a random move") if log.exists() else -1
    print(json.dumps({
        "games": args.games,
        "seconds": round(elapsed, 1),
        "ai_moves": len(latencies),
        "person_moves": counts["person"],
        "games_finished": counts["games"],
        "ai_turn_ms_p50": round(percentile(latencies, 0.5)),
        "ai_turn_ms_p90": round(percentile(latencies, 0.9)),
        "ai_turn_ms_max": round(latencies[-1] * 1000) if latencies else None,
        "random_fallbacks": fallbacks,
        "server_cpu_share_with_workers": round(cpu / elapsed, 2),
        "machine": machine_line(),
    }, indent=2))


if __name__ == "__main__":
    main()
