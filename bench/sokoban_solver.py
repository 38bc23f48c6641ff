"""Benchmark the Sokoban solver on the shared collections; print a report per collection.

    .venv/bin/python bench/sokoban_solver.py [--time-limit 10] [--memory-mb 2048] [--workers 1]
        [--threads N] [--algorithm best] [--sets microban,boxoban] [--levels 12,83-85] [--sample]
        [--results FILE] [--without-patterns] [--without-probes]

Collections (``--sets``, comma-separated): ``microban`` (155 levels, with the
known push-optimal counts of shared/data/sokoban/microban_push_optimal.tsv),
``microban2``, ``boxoban`` (the first ``--boxoban`` levels of Boxoban medium
valid_000), and the classic hard sets ``holland`` (81), ``grigr2001`` (100)
and ``sokhard`` (163); or any collection file, named by its path (a name
with a ``/`` or ending ``.xsb``: ``--sets /tmp/Perfect.xsb``), reported
under the file's stem. ``--levels 12,83-85`` narrows every chosen set to those
numbers; ``--sample`` runs the fixed development sample instead (every
eighth Holland level, every tenth Grigr2001 level, every sixteenth SokHard
level: 32 levels, a cross-section of easy and hard).

Each level is solved in a fresh worker process (at most 2 at a time, the
machine being shared), so its peak resident size is its own; within a level
``best`` runs ``--threads`` of its compiled searches at once, by default the
machine's cores shared between the workers (one level at a time on two
cores: two searches), within ``--memory-mb`` (the solver's default, as the
server's solves have: 2048; its searches at once share it). Every answer
is replayed through the engine. With ``--results FILE`` each level's result is
appended to FILE (one JSON object a line) as soon as it is known, and levels
already in FILE with the same algorithm, limit, threads and memory are not run again: a long
run can be stopped and resumed, and the report covers the whole file.
``--without-patterns`` turns the greedy searches' learned deadlock patterns
off (solver.DEADLOCK_PATTERNS), ``--without-probes`` their whole-board probes
(solver.BOARD_PROBE_EVERY), for a run to set beside one with them.

The report gives per collection: solved / total, total and median seconds,
proved push-optimal answers (and pushes against the known optima), the
largest peak memory of a level, and the machine.
"""

from __future__ import annotations

import argparse
import csv
import json
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

from games.engines.sokoban import core, load_levels, solver  # noqa: E402
from games.engines.sokoban.engine import replay  # noqa: E402
from games.engines.sokoban.levels import Level  # noqa: E402
from games.engines.sokoban.solver import (  # noqa: E402
    DEFAULT_MEMORY_MB, PACKING_PENALTY, machine_threads, solve, to_lurd,
)

SHARED = ROOT.parent / "shared" / "data" / "sokoban"

# Set name -> (title, file).
COLLECTIONS = {
    "microban": ("Microban", "Microban.xsb"),
    "microban2": ("Microban II", "Microban_II.xsb"),
    "boxoban": ("Boxoban medium valid_000", "boxoban_medium_valid_000.txt"),
    "holland": ("Holland", "Holland.xsb"),
    "grigr2001": ("Grigr2001", "Grigr2001.xsb"),
    "sokhard": ("SokHard", "SokHard.xsb"),
}
# The development sample: every n-th level of each classic set, from level 1.
SAMPLE_STEP = {"holland": 8, "grigr2001": 10, "sokhard": 16}

Job = tuple[str, int, Level, str, float, int, float]


class OutOfTime(Exception):
    """Raised by CpuLimit: the search's CPU seconds are spent."""


class CpuLimit:
    """A ``check`` for core.search that stops it after ``cpu`` seconds of this process's CPU.

    The side-by-side benchmarks give each setting the same CPU, which the
    machine's other work barely moves; ``reached`` is the expansions so far.
    """

    def __init__(self, cpu: float) -> None:
        self.cpu = cpu
        self.started = time.process_time()
        self.reached = 0

    def __call__(self, expanded: int) -> None:
        self.reached = expanded
        if self.spent > self.cpu:
            raise OutOfTime

    @property
    def spent(self) -> float:
        return time.process_time() - self.started


# The core's greedy search as the solver's portfolio runs it (from both ends,
# feature cells, packing penalty, tunnel macros): what the side-by-side
# benchmarks of its parts (sokoban_macros.py, sokoban_box_sets.py) start from.
PORTFOLIO_GREEDY: dict[str, Any] = {
    "weight": 0, "packing": PACKING_PENALTY, "corrals": core.PI_CORRALS, "features": True, "backward": True,
    "tunnels": True,
}


def core_search_within(level: Level, prepared: core.CoreBoard, cpu: float, **options: Any) -> tuple[int | None, int, float]:
    """(pushes or None, expansions, CPU seconds) of one core search (core.search's ``options``)
    within ``cpu`` seconds of CPU; an answer is replayed through the engine. A ``trace`` in
    the options keeps its last point only (its counts)."""
    check = CpuLimit(cpu)
    trace = options.get("trace")

    def checked(expanded: int) -> None:
        if trace:
            del trace[:-1]  # (a trace is wanted for its counts: the last point will do)
        check(expanded)

    try:
        status, codes, expanded, _ = core.search(prepared, memory_bytes=2 << 30, check=checked, **options)
    except OutOfTime:
        return None, check.reached, check.spent
    spent = check.spent
    if status != core.SOLVED:
        return None, expanded, spent
    if not replay(level, to_lurd(prepared.board, codes)).solved:
        raise AssertionError(f"an answer that does not solve its level ({options})")
    return len(codes), expanded, spent


class SideBySide:
    """What settings run on the same levels add up to: per setting, the levels
    solved and the CPU spent, and the expansions and pushes over the levels
    every setting solved (the only ones where those compare)."""

    def __init__(self, settings: Any) -> None:
        self.solved = dict.fromkeys(settings, 0)
        self.seconds = dict.fromkeys(settings, 0.0)
        self.expansions = dict.fromkeys(settings, 0)
        self.pushes = dict.fromkeys(settings, 0)

    def add(self, runs: dict[Any, tuple[int | None, int, float]]) -> bool:
        """One level's runs, each (pushes or None, expansions, CPU seconds); whether every setting solved it."""
        for setting, (answer, _, spent) in runs.items():
            self.solved[setting] += answer is not None
            self.seconds[setting] += spent
        everyone = all(answer is not None for answer, _, _ in runs.values())
        if everyone:
            for setting, (answer, expanded, _) in runs.items():
                self.expansions[setting] += expanded
                self.pushes[setting] += answer or 0
        return everyone

    def line(self, setting: Any, label: str, every: str) -> str:
        return (f"   {label}: {self.solved[setting]} solved; on the levels {every} solved"
                f" {self.expansions[setting]:,} expansions, {self.pushes[setting]:,} pushes;"
                f" {self.seconds[setting]:.0f} s of CPU")


def run_one(job: Job) -> dict[str, Any]:
    collection, number, level, algorithm, time_limit, threads, memory_mb = job
    started = time.process_time()
    result = solve(level, algorithm, time_limit, memory_mb, threads=threads)
    data = result.to_json()
    data["cpu_seconds"] = round(time.process_time() - started, 3)
    data["collection"] = collection
    data["level"] = number
    data["time_limit"] = time_limit
    data["threads"] = threads
    data["memory_mb"] = memory_mb
    if result.solved:
        state = replay(level, result.solution)
        data["replays"] = state.solved
    # ru_maxrss is in kilobytes on Linux: this worker's peak (one level a worker).
    data["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
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
    results = sorted(results, key=lambda r: r["level"])
    solved = [r for r in results if r["solved"]]
    times = [r["seconds"] for r in results]
    print(f"\n== {title}: {len(solved)} of {len(results)} solved")
    print(f"   time: total {sum(times):.1f} s, median {statistics.median(times):.2f} s,"
          f" max {max(times):.2f} s (CPU total {sum(r.get('cpu_seconds', 0) for r in results):.1f} s)")
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
    statuses: dict[str, list[int]] = {}
    for r in results:
        if not r["solved"]:
            statuses.setdefault(r["status"], []).append(r["level"])
    for status, levels in sorted(statuses.items()):
        print(f"   not solved ({status}): {' '.join(map(str, levels))}")
    slowest = sorted(solved, key=lambda r: -r["seconds"])[:8]
    print("   slowest solved: " + ", ".join(f"{r['level']} {r['seconds']:.1f}s" for r in slowest))
    print(f"   peak memory of a level: {max(r['peak_mb'] for r in results):.0f} MB")
    sys.stdout.flush()


def load_results(path: Path | None) -> list[dict[str, Any]]:
    if path is None or not path.exists():
        return []
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def set_constants(constants: dict[str, Any]) -> None:
    """A worker's settings for ``--without-patterns`` and ``--without-probes`` (solver's
    DEADLOCK_PATTERNS and BOARD_PROBE_EVERY are constants elsewhere)."""
    for name, value in constants.items():
        setattr(solver, name, value)


def run(
    jobs: list[Job], workers: int, path: Path | None, constants: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Run the jobs not already in the results file; every result, old and new."""
    done = {
        (r["collection"], r["level"], r["algorithm"], r["time_limit"], r.get("threads", 1),
         r.get("memory_mb", DEFAULT_MEMORY_MB)): r
        for r in load_results(path)
    }
    todo = [job for job in jobs if (job[0], job[1], *job[3:]) not in done]
    results = [done[key] for key in ((j[0], j[1], *j[3:]) for j in jobs) if key in done]
    if todo:
        print(f"   running {len(todo)} levels ({len(results)} already in the results file)")
        sys.stdout.flush()
    with ProcessPoolExecutor(
        max_workers=workers, max_tasks_per_child=1, initializer=set_constants, initargs=(constants or {},)
    ) as pool:
        for data in pool.map(run_one, todo):
            results.append(data)
            status = "solved" if data["solved"] else data["status"]
            by = f" ({data['search']})" if data.get("search") else ""
            print(f"   {data['collection']} {data['level']}: {status} {data['seconds']:.1f} s{by}")
            sys.stdout.flush()
            if path is not None:
                with path.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(data) + "\n")
    return results


def collection_file(name: str) -> Path | None:
    """The file of a ``--sets`` name: a shared set's, or the name itself where it is a
    path (it has a ``/`` or ends ``.xsb``); None for an unknown name."""
    if name in COLLECTIONS:
        return SHARED / COLLECTIONS[name][1]
    return Path(name) if "/" in name or name.endswith(".xsb") else None


def collection(name: str) -> tuple[str, list[Level]]:
    """The title and levels of a ``--sets`` name (see collection_file); a file's title is its stem."""
    path = collection_file(name)
    if path is None:
        raise ValueError(f"unknown set {name!r}")
    return (COLLECTIONS[name][0] if name in COLLECTIONS else path.stem), load_levels(path)


def check_sets(parser: argparse.ArgumentParser, names: list[str]) -> None:
    """parser.error for the first of ``names`` that is neither a set nor a collection file."""
    for name in names:
        path = collection_file(name)
        if path is None or not path.is_file():
            parser.error(f"unknown set {name!r}; choose from {', '.join(COLLECTIONS)}, or a collection file's path")


def level_numbers(text: str) -> set[int]:
    """The level numbers of ``--levels``: "12,83-85" is {12, 83, 84, 85}."""
    chosen: set[int] = set()
    for part in text.split(","):
        first, _, last = part.partition("-")
        chosen.update(range(int(first), int(last or first) + 1))
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--memory-mb", type=float, default=DEFAULT_MEMORY_MB,
                        help="the solve's memory, shared by its searches at once")
    parser.add_argument("--workers", type=int, default=1, choices=(1, 2))
    parser.add_argument("--threads", type=int, default=None,
                        help="searches of the portfolio at once within one level (one a core;"
                             " default: the machine's cores shared between the workers)")
    parser.add_argument("--algorithm", default="best")
    parser.add_argument("--sets", default="microban,boxoban", help="comma-separated: " + ", ".join(COLLECTIONS))
    parser.add_argument("--levels", help="levels of each set: numbers and ranges, as 12,83-85")
    parser.add_argument("--boxoban", type=int, default=200, help="first N Boxoban levels")
    parser.add_argument("--sample", action="store_true", help="the development sample of the classic sets")
    parser.add_argument("--results", type=Path, help="append results here; resume from it")
    parser.add_argument("--without-patterns", action="store_true",
                        help="the greedy searches without learned deadlock patterns")
    parser.add_argument("--without-probes", action="store_true",
                        help="the greedy searches without whole-board probes")
    args = parser.parse_args()

    if args.threads is None:
        args.threads = max(1, machine_threads() // args.workers)
    names = list(SAMPLE_STEP) if args.sample else args.sets.split(",")
    check_sets(parser, names)
    print(f"Sokoban solver benchmark: algorithm {args.algorithm},"
          f" {args.time_limit:g} s and {args.memory_mb:g} MB a level, {args.workers} at a time,"
          f" {args.threads} search thread(s) each"
          + (", without deadlock patterns" if args.without_patterns else "")
          + (", without whole-board probes" if args.without_probes else ""))
    print(f"machine: {machine()}")
    for name in names:
        title, levels = collection(name)
        if name == "boxoban":
            # Boxoban levels are numbered from 0, as in the file.
            numbered = list(enumerate(levels[: args.boxoban]))
        else:
            numbered = list(enumerate(levels, start=1))
        if args.sample:
            numbered = numbered[:: SAMPLE_STEP[name]]
        elif args.levels:
            chosen = level_numbers(args.levels)
            numbered = [(n, level) for n, level in numbered if n in chosen]
        jobs = [(name, n, level, args.algorithm, args.time_limit, args.threads, args.memory_mb)
                for n, level in numbered]
        started = time.monotonic()
        constants = {"DEADLOCK_PATTERNS": False} if args.without_patterns else {}
        if args.without_probes:
            constants["BOARD_PROBE_EVERY"] = 0
        results = run(jobs, args.workers, args.results, constants)
        label = f"{title}, levels {numbered[0][0]}-{numbered[-1][0]}"
        if args.sample:
            label = f"{title}, sample of {len(numbered)}"
        report(label, results, optima() if name == "microban" else None)
        print(f"   wall clock: {time.monotonic() - started:.0f} s with {args.workers} worker(s)")


if __name__ == "__main__":
    main()
