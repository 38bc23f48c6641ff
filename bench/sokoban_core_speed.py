"""The compiled core's speed, search by search, against another checkout's core: the same work, the CPU it takes.

    .venv/bin/python bench/sokoban_core_speed.py [--sets holland,grigr2001,sokhard] [--levels 4,8]
        [--settings p3,astar] [--expansions 60000] [--against /path/to/other/checkout] [--results FILE]

Each (level, setting) runs one core search (a setting as bench/sokoban_searches.py
names the portfolio's greedy searches, or ``astar``: the portfolio's A*) until it
has expanded ``--expansions`` positions or ends, in a fresh process, and reports
the CPU seconds the search took (not the process's start), the bytes it held at
its last check and a digest of its trace (the positions it expanded at each
check, in order, with their priorities, pushes and counts). With ``--against``
the same runs are made with the core built in that checkout (``setup.py
build_ext --inplace`` there), alternating which goes first, and each level gets
the ratio of the CPU seconds; a change that should not change the search (a
faster core) must give the same digest on every run, and the report says where
it does not. Summary: the geometric mean, lowest and highest ratios of CPU and
of the bytes held, and the totals. CPU time, not wall time, so that the
machine's other work moves the figures little; the runs are one at a time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class Enough(Exception):
    pass


def one(root: Path, name: str, number: int, setting: str, expansions: int) -> dict[str, Any]:
    """One search with the core of the checkout ``root`` (run in its own process)."""
    sys.path.insert(0, str(root))
    from bench.sokoban_solver import COLLECTIONS, SHARED
    from games.engines.sokoban import core, load_levels, solver
    from games.engines.sokoban.board import Board

    level = load_levels(SHARED / COLLECTIONS[name][1])[number - 1]
    prepared = core.CoreBoard(Board(level))
    weight = 1 if setting == "astar" else 0
    # (``astar``: the portfolio's A*, solver._ASTAR: no packing penalty, no feature cells.)
    settings = solver.GreedyRun(share=0, penalty=0, features=False) if weight else solver.greedy_run(setting)
    trace: list[Any] = []

    def check(expanded: int) -> None:
        if expanded >= expansions:
            raise Enough

    status = "stopped"
    started = time.process_time()
    try:
        status, _, _, _ = core.search(prepared, memory_bytes=8 << 30, check=check, trace=trace,
                                      **solver.core_options(weight, settings))
    except Enough:
        pass
    cpu = time.process_time() - started
    # The positions taken, in order, and what the search counted: not the bytes, which a
    # change of the records' layout may change without changing the search.
    digest = hashlib.sha256(repr([(p[0], p[2:7], p[8:15]) for p in trace]).encode()).hexdigest()[:16]
    return {"set": name, "level": number, "setting": setting, "status": status, "cpu": round(cpu, 3),
            "expanded": trace[-1][0] if trace else 0, "bytes": trace[-1][1] if trace else 0, "digest": digest}


def run(root: Path, job: tuple[str, int, str, int]) -> dict[str, Any]:
    name, number, setting, expansions = job
    out = subprocess.run([sys.executable, __file__, "--one", str(root), name, str(number), setting, str(expansions)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def spread(ratios: list[float]) -> str:
    if not ratios:
        return "-"
    mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    return f"geometric mean {mean:.3f}x, lowest {min(ratios):.3f}x, highest {max(ratios):.3f}x"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        root, name, number, setting, expansions = sys.argv[2:7]
        print(json.dumps(one(Path(root), name, int(number), setting, int(expansions))))
        return
    sys.path.insert(0, str(ROOT))
    from bench.machine import machine_line
    from bench.sokoban_solver import COLLECTIONS, SHARED, level_numbers
    from games.engines.sokoban import load_levels

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="holland,grigr2001,sokhard", help="comma-separated: " + ", ".join(COLLECTIONS))
    parser.add_argument("--levels", default="", help="level numbers, e.g. 1-20,33 (default: all)")
    parser.add_argument("--settings", default="p3", help="comma-separated: p3, p1/novelty, ..., astar")
    parser.add_argument("--expansions", type=int, default=60_000)
    parser.add_argument("--against", type=Path, help="another checkout whose core to run beside this one's")
    parser.add_argument("--results", type=Path, help="append each run here (one JSON object a line)")
    args = parser.parse_args()
    jobs = []
    for name in args.sets.split(","):
        count = len(load_levels(SHARED / COLLECTIONS[name][1]))
        numbers = sorted(level_numbers(args.levels) & set(range(1, count + 1))) if args.levels else range(1, count + 1)
        jobs += [(name, number, setting, args.expansions) for number in numbers for setting in args.settings.split(",")]
    roots = [ROOT] + ([args.against.resolve()] if args.against else [])
    print(f"machine: {machine_line()}")
    print(f"{len(jobs)} searches of {args.expansions} expansions; this checkout {ROOT}"
          + (f" against {roots[1]}" if len(roots) > 1 else ""))
    cpu_ratios, byte_ratios, totals, differ = [], [], [0.0, 0.0], []
    for index, job in enumerate(jobs):
        order = roots if index % 2 == 0 else roots[::-1]
        results = {root: run(root, job) for root in order}
        mine = results[ROOT]
        line = f"   {job[0]} {job[1]} {job[2]}: {mine['status']}, {mine['expanded']} expanded, {mine['cpu']:.2f} s"
        totals[0] += mine["cpu"]
        if len(roots) > 1:
            other = results[roots[1]]
            totals[1] += other["cpu"]
            same = other["digest"] == mine["digest"]
            if not same:
                differ.append(f"{job[0]} {job[1]} {job[2]}")
            if mine["cpu"] > 0:
                cpu_ratios.append(other["cpu"] / mine["cpu"])
            if mine["bytes"] > 0 and other["bytes"] > 0:
                byte_ratios.append(other["bytes"] / mine["bytes"])
            line += (f"; other {other['cpu']:.2f} s ({other['cpu'] / max(mine['cpu'], 1e-9):.2f}x),"
                     f" bytes {mine['bytes'] >> 20} MB against {other['bytes'] >> 20} MB,"
                     f" {'same search' if same else 'A DIFFERENT SEARCH'}")
        print(line, flush=True)
        if args.results is not None:
            with args.results.open("a") as handle:
                for root, result in results.items():
                    handle.write(json.dumps({**result, "root": str(root)}) + "\n")
    if len(roots) > 1:
        print(f"other / this, CPU: {spread(cpu_ratios)}; totals {totals[1]:.1f} s / {totals[0]:.1f} s")
        print(f"other / this, bytes held: {spread(byte_ratios)}")
        print("every search the same" if not differ else f"DIFFERENT SEARCHES: {', '.join(differ)}")


if __name__ == "__main__":
    main()
