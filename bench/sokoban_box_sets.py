"""The compiled core's searches with and without box-set deadlocks (and learned patterns), side by side.

    .venv/bin/python bench/sokoban_box_sets.py [--sets holland] [--levels 8,37] [--cpu 20]
        [--box-sets 0,4,4/1,4/1/1024/30] [--astar]

For each level of each set, the core's greedy search as the solver's
portfolio runs it (from both ends, feature cells, packing penalty 3, tunnel
and goal-room macros), or with ``--astar`` the core's A* as the solver runs
it (PI-corrals, no macros), runs for at most ``--cpu`` seconds of CPU once
per ``--box-sets`` setting (core.search's ``box_sets``: 0 is off; ``4/1`` is
box_sets 4 with ``patterns`` 1, learned deadlock patterns on; ``4/1/1024/30``
adds a whole-board probe every 1,024 expansions of at most 30 expansions,
core.search's ``probes`` and ``probe_limit``). The runs
of a level follow each other, so the machine's load touches them alike.
Every answer is replayed through the engine; A*'s answers are checked to be
as short with box sets as without (deadlock pruning keeps the optimum).
Reports per set: levels solved by each setting, the expansions and pushes
of the levels all solved, and the CPU spent.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.machine import machine_line  # noqa: E402
from bench.sokoban_solver import (  # noqa: E402
    COLLECTIONS, PORTFOLIO_GREEDY, SideBySide, collection, core_search_within, level_numbers,
)
from games.engines.sokoban import core  # noqa: E402
from games.engines.sokoban.board import Board  # noqa: E402
from games.engines.sokoban.levels import Level  # noqa: E402
from games.engines.sokoban.solver import PACKING_PENALTY  # noqa: E402


def run(level: Level, prepared: core.CoreBoard, setting: str, astar: bool, cpu: float,
        counts: dict[str, str]) -> tuple[int | None, int, float]:
    """(pushes or None, expansions, CPU seconds) of one search within ``cpu`` seconds; ``setting``
    is box_sets, box_sets/patterns or box_sets/patterns/probes/probe_limit. What the
    probes did near the end goes to ``counts``."""
    box_sets, patterns, probes, probe_limit = (setting.split("/") + ["0", "0", "0"])[:4]
    trace: list[core.TracePoint] = []
    sets: dict[str, Any] = {"box_sets": int(box_sets), "patterns": int(patterns), "probes": int(probes),
                            "probe_limit": int(probe_limit), "trace": trace}
    if astar:
        result = core_search_within(level, prepared, cpu, weight=1, packing=0, corrals=core.PI_CORRALS, **sets)
    else:
        result = core_search_within(level, prepared, cpu, **PORTFOLIO_GREEDY, goal_rooms=True, **sets)
    if trace and int(probes):
        made, lost, learned = trace[-1][12:15]
        counts[setting] = f"{made:,} probes, {lost:,} lost, {learned:,} patterns from them"
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="holland", help="comma-separated: " + ", ".join(COLLECTIONS))
    parser.add_argument("--levels", default="", help="level numbers, e.g. 1-20,33 (default: all)")
    parser.add_argument("--cpu", type=float, default=20.0, help="CPU seconds a level and setting")
    parser.add_argument("--box-sets", default="0,8",
                        help="comma-separated settings: box_sets (0: off), box_sets/patterns,"
                             " or box_sets/patterns/probes/probe_limit")
    parser.add_argument("--astar", action="store_true", help="the core's A* instead of its greedy search")
    args = parser.parse_args()
    settings = args.box_sets.split(",")
    kind = "A* (PI-corrals)" if args.astar else (
        f"greedy search (both ends, feature cells, packing {PACKING_PENALTY}, tunnels, goal rooms)")
    print(f"core {kind}, {args.cpu:g} s of CPU a level and setting; box sets {settings}")
    print(f"machine: {machine_line()}")
    for name in args.sets.split(","):
        levels = collection(name)[1]
        numbers = sorted(level_numbers(args.levels)) if args.levels else range(1, len(levels) + 1)
        tally = SideBySide(settings)
        for number in numbers:
            level = levels[number - 1]
            prepared = core.CoreBoard(Board(level))
            # Built once for every setting, outside their CPU (it is cached on first use).
            prepared.backward  # noqa: B018
            counts: dict[str, str] = {}
            runs = {setting: run(level, prepared, setting, args.astar, args.cpu, counts) for setting in settings}
            answers = {answer for answer, _, _ in runs.values()}
            if args.astar and None not in answers and len(answers) > 1:
                raise AssertionError(f"{name} {number}: A*'s optimum differs between settings: {runs}")
            tally.add(runs)
            print(f"   {name} {number}: " + ", ".join(
                f"{setting}: {'%d pushes' % answer if answer else 'unsolved'} ({expanded:,} expansions, {spent:.1f} s)"
                for setting, (answer, expanded, spent) in runs.items()), flush=True)
            for setting, count in counts.items():
                print(f"      {setting}: {count}")
        print(f"== {name}: {len(numbers)} levels")
        for setting in settings:
            print(tally.line(setting, f"box sets {setting}", "all"), flush=True)

if __name__ == "__main__":
    main()
