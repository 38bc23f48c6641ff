"""The compiled core's A* with and without corral deadlock searches, side by side.

    .venv/bin/python bench/sokoban_corrals.py [--sets sokhard,holland] [--cpu 2]

For each level of each set, the core's A* (push-optimal) runs for at most
``--cpu`` seconds of CPU, once with PI-corral pruning alone and once with the
corral deadlock searches too (core.PI_CORRALS, core.CORRAL_DEADLOCKS); the
two runs of a level follow each other, so the machine's load touches both
alike. Reports per set: levels solved (proved optimal) by each, the
expansions both solved levels needed, and the CPU spent. Any level where
the two disagree on solvability or on the optimal push count is printed (a
disagreement would be a fault: the searches only prune lost positions).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.machine import machine_line  # noqa: E402
from bench.sokoban_solver import COLLECTIONS, CpuLimit, OutOfTime, collection  # noqa: E402
from games.engines.sokoban import core  # noqa: E402
from games.engines.sokoban.board import Board  # noqa: E402

SETTINGS = {"PI-corrals": core.PI_CORRALS, "corral searches": core.CORRAL_DEADLOCKS}


def astar(board: core.CoreBoard, corrals: int, cpu: float) -> tuple[int | None, int, float]:
    """(pushes or None, expansions, CPU seconds) of the core's A* within ``cpu`` seconds."""
    check = CpuLimit(cpu)
    try:
        status, codes, expanded, _ = core.search(
            board, weight=1, packing=0, corrals=corrals, memory_bytes=1 << 30, check=check
        )
    except OutOfTime:
        return None, check.reached, check.spent
    pushes = len(codes) if status == core.SOLVED else None
    return pushes, expanded, check.spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="sokhard", help="comma-separated: " + ", ".join(COLLECTIONS))
    parser.add_argument("--cpu", type=float, default=2.0, help="CPU seconds a level and setting")
    args = parser.parse_args()
    print(f"core A*, {args.cpu:g} s of CPU a level and setting")
    print(f"machine: {machine_line()}")
    for name in args.sets.split(","):
        solved = dict.fromkeys(SETTINGS, 0)
        seconds = dict.fromkeys(SETTINGS, 0.0)
        both = dict.fromkeys(SETTINGS, 0)
        levels = collection(name)[1]
        for number, level in enumerate(levels, start=1):
            board = core.CoreBoard(Board(level))
            runs = {label: astar(board, corrals, args.cpu) for label, corrals in SETTINGS.items()}
            for label, (pushes, _, spent) in runs.items():
                solved[label] += pushes is not None
                seconds[label] += spent
            answers = {pushes for pushes, _, _ in runs.values()}
            if None not in answers:
                for label, (_, expanded, _) in runs.items():
                    both[label] += expanded
                if len(answers) > 1:
                    print(f"   {name} {number}: the settings disagree: {runs}")
        print(f"== {name} ({len(levels)} levels)")
        for label in SETTINGS:
            print(f"   {label}: {solved[label]} proved optimal, {both[label]:,} expansions on the levels"
                  f" both proved, {seconds[label]:.0f} s of CPU")


if __name__ == "__main__":
    main()
