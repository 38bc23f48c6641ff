"""What ends the core's greedy search on a level: time, memory, a plateau of the bound, or dead positions.

    .venv/bin/python bench/sokoban_plateau.py [--panel holland:8,37;sokhard:12] [--cpu 30]
        [--samples 40] [--probe-cpu 0.5] [--entries 10] [--box-sets 4] [--patterns 1]

For each level of the panel, the core's greedy search as the solver's
portfolio runs it (both ends, feature cells, packing penalty 3, tunnel and
goal-room macros) runs for ``--cpu`` seconds of CPU with a trace (core.search's
``trace``: at every check, the forward search's last expanded position and
the lowest priority it has expanded). Reported per level: expansions, the
bytes its tables hold at the end, the lowest priority reached and the share
of the CPU after which it never went lower (the plateau), and the position's
packed boxes over the run.

Then ``--samples`` of the traced positions, evenly spread over the run, are
each probed by a search of their own (forward only, greedy, PI-corral
pruning, no macros, so that running out of positions proves the position
lost) for ``--probe-cpu`` seconds: "dead" (no solution from there), "alive"
(a solution found) or "open" (neither in time). The share of dead positions
among those the search expands says how much a stronger deadlock test could
save; the probe's size on the dead ones says how local their deadlocks are.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.machine import machine_line  # noqa: E402
from bench.sokoban_solver import COLLECTIONS, CpuLimit, OutOfTime, collection, level_numbers  # noqa: E402
from games.engines.sokoban import core  # noqa: E402
from games.engines.sokoban.board import Board, bits, count  # noqa: E402
from games.engines.sokoban.solver import PACKING_PENALTY  # noqa: E402

PANEL = "holland:8,37,63,68,81;grigr2001:3,15,84;sokhard:12,83"



def ancestors(board: Board, path: list[int]) -> list[tuple[list[int], int]]:
    """The positions (boxes, player) along ``path`` (push codes from the start), the start first."""
    boxes = set(bits(board.start_boxes))
    player = board.start_player
    positions = [(sorted(boxes), player)]
    for code in path:
        cell, direction = code >> 2, code & 3
        boxes.remove(cell)
        boxes.add(cell + board.steps[direction])
        player = cell
        positions.append((sorted(boxes), player))
    return positions


def first_dead(prepared: core.CoreBoard, path: list[int], cpu: float) -> tuple[int, int, int]:
    """(pushes back from the end to the first position proved dead, its probe's size, the player's
    area there) along ``path``, whose last position is dead; a binary search, "open" counting as alive."""
    board = prepared.board
    positions = ancestors(board, path)
    alive, dead, size = 0, len(positions) - 1, 0
    while dead - alive > 1:
        middle = (alive + dead) // 2
        verdict, expanded = probe(prepared, tuple(positions[middle][0]), positions[middle][1], cpu)
        if verdict == "dead":
            dead, size = middle, expanded
        else:
            alive = middle
    if size == 0:
        size = probe(prepared, tuple(positions[dead][0]), positions[dead][1], cpu)[1]
    boxes, player = positions[dead]
    area = count(board.reach(1 << player, sum(1 << cell for cell in boxes)))
    return len(positions) - 1 - dead, size, area


def probe(prepared: core.CoreBoard, boxes: tuple[int, ...], player: int, cpu: float) -> tuple[str, int]:
    """("dead" | "alive" | "open", expansions) of a search from this position alone."""
    check = CpuLimit(cpu)
    try:
        status, _, expanded, _ = core.search(
            prepared, start=(list(boxes), player), weight=0, packing=PACKING_PENALTY, corrals=core.PI_CORRALS,
            memory_bytes=1 << 30, check=check,
        )
    except OutOfTime:
        return "open", check.reached
    if status == core.SOLVED:
        return "alive", expanded
    if status == core.EXHAUSTED:
        return "dead", expanded
    return "open", expanded


def measure(
    name: str, number: int, cpu: float, samples: int, probe_cpu: float, entry_samples: int, box_sets: int = 0,
    patterns: int = 0,
) -> dict[str, object]:
    level = collection(name)[1][number - 1]
    prepared = core.CoreBoard(Board(level))
    prepared.backward  # noqa: B018  (built outside the CPU counted)
    trace: list[core.TracePoint] = []
    check = CpuLimit(cpu)
    status = "time"
    try:
        result, _, expanded, _ = core.search(
            prepared, weight=0, packing=PACKING_PENALTY, corrals=core.PI_CORRALS, features=True, backward=True,
            tunnels=True, goal_rooms=True, memory_bytes=2 << 30, check=check, trace=trace, box_sets=box_sets,
            patterns=patterns,
        )
        status = result
    except OutOfTime:
        expanded = check.reached
    spent = check.spent
    goals = set(prepared.forward[0])
    best = min((point[2] for point in trace), default=0)
    # The first trace point at which the lowest priority was reached: the plateau after it.
    reached_at = next((i for i, point in enumerate(trace) if point[2] == best), len(trace))
    plateau = 1 - reached_at / max(1, len(trace))
    packed = [sum(cell in goals for cell in point[5]) for point in trace]
    picks = [trace[round(i * (len(trace) - 1) / max(1, samples - 1))] for i in range(samples)] if trace else []
    verdicts = []
    started = time.process_time()
    entries = []
    for point in picks:
        verdicts.append(probe(prepared, point[5], point[6], probe_cpu))
        if verdicts[-1][0] == "dead" and len(entries) < entry_samples:
            entries.append(first_dead(prepared, point[7], probe_cpu))
    dead = [size for verdict, size in verdicts if verdict == "dead"]
    row = {
        "level": f"{name} {number}",
        "boxes": len(goals),
        "status": status,
        "cpu": spent,
        "expanded": expanded,
        "mbytes": (trace[-1][1] >> 20) if trace else 0,
        "best": best,
        "plateau": plateau,
        "packed_max": max(packed, default=0),
        "packed_median": statistics.median(packed) if packed else 0,
        "last_priority_median": statistics.median(point[3] for point in trace) if trace else 0,
        "dead": len(dead),
        "alive": sum(verdict == "alive" for verdict, _ in verdicts),
        "open": sum(verdict == "open" for verdict, _ in verdicts),
        "dead_probe_median": statistics.median(dead) if dead else 0,
        "dead_small": sum(size <= 100 for size in dead),
        "probe_cpu": time.process_time() - started,
        "set_tests": trace[-1][8] if trace else 0,
        "set_deadlocks": trace[-1][9] if trace else 0,
        "patterns": trace[-1][10] if trace else 0,
        "pattern_prunes": trace[-1][11] if trace else 0,
        "entry_back": statistics.median(back for back, _, _ in entries) if entries else 0,
        "entry_size": statistics.median(size for _, size, _ in entries) if entries else 0,
        "entry_area": statistics.median(area for _, _, area in entries) if entries else 0,
    }
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--panel", default=PANEL, help="set:levels;set:levels (default: %(default)s)")
    parser.add_argument("--cpu", type=float, default=30.0, help="CPU seconds of the greedy search a level")
    parser.add_argument("--samples", type=int, default=40, help="expanded positions probed a level")
    parser.add_argument("--probe-cpu", type=float, default=0.5, help="CPU seconds a probe")
    parser.add_argument("--entries", type=int, default=0,
                        help="dead positions a level traced back to the first dead position on their way")
    parser.add_argument("--box-sets", type=int, default=0, help="the greedy search's box_sets (core.search)")
    parser.add_argument("--patterns", type=int, default=0, help="the greedy search's patterns (core.search; 1: on)")
    args = parser.parse_args()
    print(f"core greedy search (both ends, feature cells, packing {PACKING_PENALTY}, tunnels, goal rooms),"
          f" {args.cpu:g} s of CPU a level, box sets {args.box_sets}, patterns {args.patterns};"
          f" {args.samples} expanded positions probed"
          f" for {args.probe_cpu:g} s each")
    print(f"machine: {machine_line()}")
    print("| level | boxes | end | expanded | MB | lowest priority | plateau (share of run) | packed max / median"
          " | dead / alive / open | dead probes' median size | dead within 100 expansions"
          " | entry: pushes back / its probe / player's area (medians) | box-set tests / deadlocks"
          " | patterns / children they pruned |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for part in args.panel.split(";"):
        name, numbers = part.split(":")
        for number in sorted(level_numbers(numbers)):
            row = measure(name, number, args.cpu, args.samples, args.probe_cpu, args.entries, args.box_sets,
                          args.patterns)
            print(f"| {row['level']} | {row['boxes']} | {row['status']} | {row['expanded']:,} | {row['mbytes']} |"
                  f" {row['best']} | {row['plateau']:.0%} | {row['packed_max']} / {row['packed_median']:g} |"
                  f" {row['dead']} / {row['alive']} / {row['open']} | {row['dead_probe_median']:,} | {row['dead_small']} |"
                  f" {row['entry_back']:g} / {row['entry_size']:g} / {row['entry_area']:g} |"
                  f" {row['set_tests']:,} / {row['set_deadlocks']:,} | {row['patterns']:,} / {row['pattern_prunes']:,} |",
                  flush=True)


if __name__ == "__main__":
    main()
