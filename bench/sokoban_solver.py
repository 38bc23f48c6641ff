"""Benchmark the Sokoban solver on Microban (155 levels) and Boxoban levels; print a report.

    .venv/bin/python bench/sokoban_solver.py [--time-limit 10] [--workers 2]
        [--algorithm best] [--microban A-B] [--boxoban N] [--skip-microban]

Each level is solved in a worker process (a pool of at most 2, since the
machine is shared) with its own time limit. The report gives how many were
solved, total and median seconds, pushes against the known push-optimal
counts of shared/data/sokoban/microban_push_optimal.tsv, peak memory (the
largest resident size of any worker), and the machine.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engines.sokoban import MICROBAN, load_levels  # noqa: E402
from games.engines.sokoban.engine import replay  # noqa: E402
from games.engines.sokoban.levels import Level  # noqa: E402
from games.engines.sokoban.solver import solve  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "sokoban"


def run_one(job: tuple[str, int, Level, str, float]) -> dict[str, Any]:
    collection, number, level, algorithm, time_limit = job
    result = solve(level, algorithm, time_limit)
    data = result.to_json()
    data["collection"] = collection
    data["level"] = number
    if result.solved:
        state = replay(level, result.solution)
        data["replays"] = state.solved
    # ru_maxrss is in kilobytes on Linux: the worker's peak so far.
    data["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return data


def machine() -> str:
    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}"


def optima() -> dict[int, int]:
    path = SHARED / "microban_push_optimal.tsv"
    with path.open(encoding="utf-8", newline="") as handle:
        return {int(r["level"]): int(r["pushes"]) for r in csv.DictReader(handle, delimiter="\t")}


def report(title: str, results: list[dict[str, Any]], known: dict[int, int] | None) -> None:
    solved = [r for r in results if r["solved"]]
    times = [r["seconds"] for r in results]
    print(f"\n== {title}: {len(solved)} of {len(results)} solved")
    print(f"   time: total {sum(times):.1f} s, median {statistics.median(times):.2f} s,"
          f" max {max(times):.2f} s")
    solved_times = [r["seconds"] for r in solved]
    if solved_times:
        print(f"   solved levels: median {statistics.median(solved_times):.2f} s,"
              f" slowest {max(solved_times):.2f} s")
    print(f"   proved push-optimal: {sum(1 for r in solved if r['optimal'])}")
    bad = [r["level"] for r in solved if not r.get("replays")]
    if bad:
        print(f"   SOLUTIONS THAT DO NOT REPLAY: {bad}")
    if known is not None:
        compared = [r for r in solved if r["level"] in known]
        equal = sum(1 for r in compared if r["pushes"] == known[r["level"]])
        extra = [
            r["pushes"] - known[r["level"]] for r in compared if r["pushes"] > known[r["level"]]
        ]
        below = [r["level"] for r in compared if r["pushes"] < known[r["level"]]]
        wrong = [r["level"] for r in compared if r["optimal"] and r["pushes"] != known[r["level"]]]
        print(f"   pushes vs known optima ({len(compared)} levels with one): {equal} equal,"
              f" {len(extra)} longer (by {sum(extra)} pushes in all)")
        if below or wrong:
            print(f"   WRONG: below the optimum {below}, claimed optimal but not {wrong}")
    unsolved = [f"{r['level']} ({r['status']})" for r in results if not r["solved"]]
    if unsolved:
        print(f"   not solved: {', '.join(unsolved)}")
    slowest = sorted(results, key=lambda r: -r["seconds"])[:8]
    print("   slowest: " + ", ".join(f"{r['level']} {r['seconds']:.1f}s" for r in slowest))
    print(f"   peak memory of a worker: {max(r['peak_mb'] for r in results):.0f} MB")


def run(
    title: str,
    jobs: list[tuple[str, int, Level, str, float]],
    workers: int,
    known: dict[int, int] | None,
) -> None:
    started = time.monotonic()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(run_one, jobs))
    wall = time.monotonic() - started
    report(title, results, known)
    print(f"   wall clock: {wall:.0f} s with {workers} worker(s)")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2, choices=(1, 2))
    parser.add_argument("--algorithm", default="best")
    parser.add_argument("--microban", default="1-155", help="levels A-B")
    parser.add_argument("--skip-microban", action="store_true")
    parser.add_argument("--boxoban", type=int, default=200, help="first N Boxoban levels (0: none)")
    args = parser.parse_args()

    print(f"Sokoban solver benchmark: algorithm {args.algorithm},"
          f" {args.time_limit:g} s a level")
    print(f"machine: {machine()}")
    if not args.skip_microban:
        first, last = (int(x) for x in args.microban.split("-"))
        levels = load_levels(MICROBAN)
        jobs = [
            ("microban", n, levels[n - 1], args.algorithm, args.time_limit)
            for n in range(first, last + 1)
        ]
        run(f"Microban {first}-{last}", jobs, args.workers, optima())
    if args.boxoban:
        boxoban = load_levels(SHARED / "boxoban_medium_valid_000.txt")[: args.boxoban]
        jobs = [
            ("boxoban", n, level, args.algorithm, args.time_limit)
            for n, level in enumerate(boxoban)
        ]
        run(f"Boxoban medium valid_000, levels 0-{len(jobs) - 1}", jobs, args.workers, None)


if __name__ == "__main__":
    main()
