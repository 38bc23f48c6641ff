"""Benchmark of the Connect Four solver and of the ``perfect`` bot.

Part 1 solves positions of the standard test sets in ../shared/data/connect4
(strong solve, a fresh transposition table per position, as the public
reference solver's benchmark does) and prints, per file: positions solved,
wrong scores, mean CPU time and mean nodes per position, and nodes per CPU
second. Each file gets an evenly spread sample and a CPU-time budget, so the whole
run takes a few minutes; a file whose budget runs out reports the positions it
finished.

Part 2 plays a few games of the bot against itself and prints, per move, how
long it thought and whether the move came from the exact solve.

    .venv/bin/python bench/connect_four_solver.py
    .venv/bin/python bench/connect_four_solver.py --sample 1000 --budget 600 --games 0
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engines.connect_four_solver import Position, Solver, choose  # noqa: E402
from bench.machine import cpu_model  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "connect4"
FILES = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1")
# The public C++ reference without an opening book, measured on this machine
# (shared/data/README.md): nodes per position.
REFERENCE_NODES = {"Test_L3_R1": 51, "Test_L2_R1": 449, "Test_L2_R2": 39_800, "Test_L1_R1": 3_300}


def sample(lines: list[str], size: int) -> list[str]:
    """``size`` lines spread evenly over the file (the files are not shuffled)."""
    if size >= len(lines):
        return lines
    stride = len(lines) / size
    return [lines[int(i * stride)] for i in range(size)]


def bench_file(name: str, size: int, budget: float) -> None:
    lines = [line for line in (DATA / name).read_text().splitlines() if line.strip()]
    chosen = sample(lines, size)
    solver = Solver()
    solved = wrong = 0
    nodes = 0
    cpu = 0.0
    slowest = 0.0
    for line in chosen:
        # CPU time, so that other work on a shared machine does not cut the sample.
        if cpu > budget:
            break
        moves, expected = line.split()
        position = Position.from_moves(moves)
        solver.reset()
        start = time.process_time()
        score = solver.solve(position)
        spent = time.process_time() - start
        cpu += spent
        slowest = max(slowest, spent)
        nodes += solver.nodes
        solved += 1
        wrong += score != int(expected)
    if not solved:
        print(f"{name:<11} nothing solved within {budget:.0f} CPU s")
        return
    print(
        f"{name:<11} {solved:>4}/{len(chosen):<4} {wrong:>5} {cpu / solved * 1000:>11.1f}"
        f" {slowest * 1000:>10.0f} {nodes / solved:>13,.0f} {REFERENCE_NODES[name]:>11,}"
        f" {nodes / cpu if cpu else 0:>11,.0f}"
    )


def bench_bot(games: int, seed: int) -> None:
    rng = random.Random(seed)
    for game in range(games):
        moves: list[int] = []
        times: list[float] = []
        guessed: list[int] = []  # disc numbers the depth-limited search chose
        position = Position()
        while True:
            start = time.monotonic()
            choice = choose(moves, rng)
            times.append(time.monotonic() - start)
            if not choice.exact:
                guessed.append(len(moves) + 1)
            won = position.is_winning_move(choice.column - 1)
            position = position.play(choice.column - 1)
            moves.append(choice.column)
            if won or position.full:
                break
        print(
            f"game {game + 1}: {''.join(map(str, moves))} ({len(moves)} discs,"
            f" {'won by the first player' if won and len(moves) % 2 else 'won by the second player' if won else 'draw'})"
        )
        print(
            f"  think time per move: mean {statistics.mean(times):.2f} s,"
            f" max {max(times):.2f} s; discs chosen without a finished solve:"
            f" {guessed or 'none'} (disc 1 is the book move)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sample", type=int, default=200, help="positions per file")
    parser.add_argument("--budget", type=float, default=40.0, help="CPU seconds per file")
    parser.add_argument("--games", type=int, default=2, help="bot self-play games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("files", nargs="*", default=list(FILES))
    args = parser.parse_args()

    print(f"machine: {os.cpu_count()} cores (nproc {len(os.sched_getaffinity(0))}),"
          f" {cpu_model()}; Python {platform.python_version()}")
    print(f"sample {args.sample} positions per file, budget {args.budget:.0f} CPU s per file\n")
    print(f"{'file':<11} {'solved':>9} {'wrong':>5} {'ms/position':>11} {'slowest ms':>10}"
          f" {'nodes/pos':>13} {'C++ nodes':>11} {'nodes/s':>11}")
    for name in args.files:
        bench_file(name, args.sample, args.budget)
    if args.games:
        print()
        bench_bot(args.games, args.seed)


if __name__ == "__main__":
    main()
