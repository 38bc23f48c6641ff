"""Benchmark of the Manhattan bots: prints a report, asserts nothing.

    .venv/bin/python bench/manhattan_ai.py [--games 200] [--workers 2]
        [--opponents random,greedy] [--bot strong]

``--bot`` seat plays one seat (seat = seed % 4; compass and start player come
from the seed) against three seats of each opponent level, over seeded games
1..N. Shared wins count as wins for every winner, so with four equal bots the
win rate is a little above 25%. Reports the win rate with a 95% interval, the
mean final score of the bot and of its opponents, and the time the bot takes
per move (mean, p99, max).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.bots import get_bot  # noqa: E402
from games.engines.manhattan import Manhattan  # noqa: E402
from bench.machine import cpu_model  # noqa: E402


def play(seed: int, bot: str, opponents: str) -> tuple[bool, int, float, list[float]]:
    """One seeded game: (won, bot score, mean opponent score, bot move times)."""
    engine = Manhattan()
    state = engine.initial_state(4, engine.normalize_options({}), seed)
    hero = seed % 4
    players = [get_bot("manhattan", bot if seat == hero else opponents) for seat in range(4)]
    rng = random.Random(f"bench:{seed}")
    times: list[float] = []
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        started = time.perf_counter()
        move = players[seat](engine, state, seat, rng)
        if seat == hero:
            times.append(time.perf_counter() - started)
        state = engine.play(state, seat, move)
    outcome = engine.outcome(state)
    assert outcome is not None
    others = [s for i, s in enumerate(outcome.scores) if i != hero]
    return hero in outcome.winners, outcome.scores[hero], statistics.mean(others), times


def _play(args: tuple[int, str, str]) -> tuple[bool, int, float, list[float]]:
    return play(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--bot", default="strong")
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()

    print(f"Manhattan AI benchmark: {args.bot} against 3 x each of {args.opponents}")
    print(f"machine: {os.cpu_count()} cores (nproc), {cpu_model()}, Python {platform.python_version()}")
    print(f"games: {args.games} per opponent level, seeds {args.first_seed}.."
          f"{args.first_seed + args.games - 1}, {args.workers} worker process(es)")
    for opponents in args.opponents.split(","):
        started = time.perf_counter()
        jobs = [(seed, args.bot, opponents) for seed in range(args.first_seed, args.first_seed + args.games)]
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            results = list(pool.map(_play, jobs, chunksize=1))
        wins = sum(1 for won, *_ in results if won)
        rate = wins / len(results)
        half = 1.96 * math.sqrt(rate * (1 - rate) / len(results))
        times = sorted(t for *_, ts in results for t in ts)
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print()
        print(f"against 3 x {opponents}:")
        print(f"  wins: {wins}/{len(results)} = {rate:.1%} (95% interval {max(0, rate - half):.1%}"
              f"..{min(1, rate + half):.1%})")
        print(f"  mean final score: {args.bot} {statistics.mean(r[1] for r in results):.1f},"
              f" each opponent {statistics.mean(r[2] for r in results):.1f}")
        print(f"  {args.bot} time per move over {len(times)} moves: mean {statistics.mean(times) * 1000:.1f} ms,"
              f" p99 {p99 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
        print(f"  wall time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
