"""Quick pairing speed: one pairing pass (``matchmaking.pairing.pair``) over many waiting seeks.

The waiting seeks look like a busy site's: ratings normal around 1500 (sd
300), waits spread evenly over 0..120 s, one seek per player. A second crowd
has 30% newcomers at exactly 1500.0, the default rating, where ratings tie
and the pass takes its slower path for equal spreads.

For each crowd and group size it times full passes (the pass is pure: the
same input is paired afresh each run) and reports the median and the best
run, per pass and per group formed, with CPU time so that other work on the
shared machine inflates the figures less than it would wall-clock time.

Run: ``.venv/bin/python bench/pairing.py [seeks] [runs] [seed]`` (defaults
10000, 7, 2024). Prints a report; never asserts timings.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine_line  # noqa: E402
from matchmaking.pairing import Waiting, pair  # noqa: E402


def crowd(count: int, seed: int, newcomers: float = 0.0) -> list[Waiting]:
    """``count`` waiting seeks of different players; ``newcomers`` of them rated 1500.0 exactly."""
    rng = random.Random(seed)
    seek_ids = rng.sample(range(1, 10 * count), count)  # ids not in rating order
    return [
        Waiting(
            seek=seek_id,
            player=player,
            rating=1500.0 if rng.random() < newcomers else rng.gauss(1500.0, 300.0),
            waited=rng.uniform(0.0, 120.0),
        )
        for player, seek_id in enumerate(seek_ids)
    ]


def time_passes(waiting: list[Waiting], size: int, runs: int) -> tuple[list[float], int]:
    """CPU seconds of each of ``runs`` passes, and how many groups a pass forms."""
    groups = len(pair(waiting, size))  # also warms up
    seconds = []
    for _ in range(runs):
        start = time.process_time()
        pair(waiting, size)
        seconds.append(time.process_time() - start)
    return seconds, groups


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2024
    print(f"# quick pairing: one pass over {count:,} waiting seeks, {runs} runs each; {machine_line()}")
    print()
    print("| crowd | group size | groups formed | seeks left | ms / pass (median) | best | µs / group (median) |")
    print("|---|---|---|---|---|---|---|")
    for label, newcomers in (("normal(1500, 300)", 0.0), ("30% newcomers at 1500.0", 0.3)):
        waiting = crowd(count, seed, newcomers)
        for size in (2, 3, 4):
            seconds, groups = time_passes(waiting, size, runs)
            median = statistics.median(seconds)
            print(
                f"| {label} | {size} | {groups:,} | {count - groups * size:,} | "
                f"{median * 1e3:.1f} | {min(seconds) * 1e3:.1f} | {median / groups * 1e6:.1f} |"
            )
    print()
    print(f"# load at the end: {machine_line().rsplit('load ', 1)[-1]}")


if __name__ == "__main__":
    main()
