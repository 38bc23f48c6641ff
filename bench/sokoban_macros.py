"""The compiled core's greedy search with and without goal-room macros, side by side.

    .venv/bin/python bench/sokoban_macros.py [--sets holland,sokhard] [--levels 1-20] [--cpu 5]

For each level of each set, the core's greedy search as the solver's
portfolio runs it (from both ends, feature cells, packing penalty 3, tunnel
macros) runs for at most ``--cpu`` seconds of CPU, once without goal-room
macros and once with them (core.search's ``goal_rooms``); the two runs of a
level follow each other, so the machine's load touches both alike. Levels
with no goal room that has a packing order are skipped (the two runs would
be the same search). Every answer is replayed through the engine. Reports
per set: levels solved by each, the expansions and pushes of the levels both
solved, and the CPU spent.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

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

SETTINGS = {"tunnels": False, "tunnels + goal rooms": True}


def greedy(level: Level, prepared: core.CoreBoard, goal_rooms: bool, cpu: float) -> tuple[int | None, int, float]:
    """(pushes or None, expansions, CPU seconds) of the core's greedy search within ``cpu`` seconds."""
    return core_search_within(level, prepared, cpu, **PORTFOLIO_GREEDY, goal_rooms=goal_rooms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="holland", help="comma-separated: " + ", ".join(COLLECTIONS))
    parser.add_argument("--levels", default="", help="level numbers, e.g. 1-20,33 (default: all)")
    parser.add_argument("--cpu", type=float, default=5.0, help="CPU seconds a level and setting")
    args = parser.parse_args()
    print(f"core greedy search (both ends, feature cells, packing {PACKING_PENALTY}, tunnels),"
          f" {args.cpu:g} s of CPU a level and setting")
    print(f"machine: {machine_line()}")
    for name in args.sets.split(","):
        levels = collection(name)[1]
        numbers = sorted(level_numbers(args.levels)) if args.levels else range(1, len(levels) + 1)
        tally = SideBySide(SETTINGS)
        compared = 0
        for number in numbers:
            level = levels[number - 1]
            prepared = core.CoreBoard(Board(level))
            _, _, _, _, rooms = prepared.forward
            if max(rooms) < 0:
                continue  # no goal room with an order: nothing to compare
            compared += 1
            # Built once for both settings, outside their CPU (it is cached on first use).
            prepared.backward  # noqa: B018
            runs = {label: greedy(level, prepared, goal_rooms, args.cpu) for label, goal_rooms in SETTINGS.items()}
            if not tally.add(runs):
                print(f"   {name} {number}: " + ", ".join(
                    f"{label} {'solved' if answer else 'unsolved'} ({expanded:,} expansions, {spent:.1f} s)"
                    for label, (answer, expanded, spent) in runs.items()), flush=True)
        print(f"== {name}: {compared} of {len(numbers)} levels with a goal room in packing order")
        for label in SETTINGS:
            print(tally.line(label, label, "both"), flush=True)

if __name__ == "__main__":
    main()
