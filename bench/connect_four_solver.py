"""Benchmark of the Connect Four solver, side by side with the public C++ reference.

Solves positions of the standard test sets in ../shared/data/connect4 and
prints, per file: positions solved, wrong scores, CPU ms per position, nodes
per position and nodes per CPU second; with ``--reference PATH`` (the public
reference solver's ``c4solver``, built from its sources in a temporary folder,
never in the project) also its CPU ms per position on the same positions and
the ratio. Both run the way the reference's command line does: one process,
one transposition table kept across the file's positions, each position read
from its move string and solved strongly; CPU time, so that other work on a
shared machine barely moves the figures (the reference's start-up, measured
on an empty input, is taken off).

``--pure`` adds the pure-Python search (the fallback where the C extension
did not build) on a smaller sample.

    .venv/bin/python bench/connect_four_solver.py --reference /tmp/c4ref/c4solver
    .venv/bin/python bench/connect_four_solver.py --sample 1000 --pure
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engines.connect_four_solver import Position, Solver  # noqa: E402
from bench.machine import cpu_model  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "connect4"
FILES = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1")
def sample(lines: list[str], size: int) -> list[str]:
    """``size`` lines spread evenly over the file (the files are not shuffled)."""
    if size >= len(lines):
        return lines
    stride = len(lines) / size
    return [lines[int(i * stride)] for i in range(size)]


def ours(lines: list[str], compiled: bool) -> tuple[float, int, int]:
    """(CPU seconds, nodes, wrong scores) of solving ``lines`` with one solver."""
    solver = Solver(compiled=compiled)
    if solver.core is not None:
        solver.core.prefault()
    wrong = 0
    start = time.process_time()
    for line in lines:
        moves, expected = line.split()
        wrong += solver.solve(Position.from_moves(moves)) != int(expected)
    return time.process_time() - start, solver.nodes, wrong


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def reference(binary: Path, lines: list[str]) -> tuple[float, int]:
    """(CPU seconds, wrong scores) of the reference solver on ``lines``, start-up excluded."""
    def run(text: str) -> tuple[float, str]:
        before = children_cpu()
        done = subprocess.run([str(binary)], input=text, capture_output=True, text=True,
                              cwd=binary.parent, check=True)
        return children_cpu() - before, done.stdout

    idle, _ = run("")
    spent, output = run("".join(line.split()[0] + "\n" for line in lines))
    answers = output.split("\n")
    wrong = sum(
        answer.split()[-1:] != line.split()[1:] for answer, line in zip(answers, lines)
    )
    return max(spent - idle, 1e-9), wrong


def bench_file(name: str, size: int, binary: Path | None, pure: int) -> None:
    lines = [line for line in (DATA / name).read_text().splitlines() if line.strip()]
    chosen = sample(lines, size)
    count = len(chosen)
    compiled = Solver().compiled
    cpu, nodes, wrong = ours(chosen, compiled)
    row = (f"{name:<11} {count:>5} {wrong:>5} {cpu / count * 1000:>9.3f} {nodes / count:>11,.0f}"
           f" {nodes / cpu / 1e6:>7.2f}")
    if binary is not None:
        ref_cpu, ref_wrong = reference(binary, chosen)
        row += f" {ref_cpu / count * 1000:>9.3f} {ref_wrong:>5} {cpu / ref_cpu:>6.2f}x"
    if pure:
        few = chosen[:: max(1, count // pure)][:pure]
        slow_cpu, slow_nodes, slow_wrong = ours(few, compiled=False)
        row += f"   pure Python: {len(few)} positions, {slow_wrong} wrong," \
               f" {slow_cpu / len(few) * 1000:.1f} ms, {slow_nodes / slow_cpu:,.0f} nodes/s"
    print(row, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sample", type=int, default=1000, help="positions per file")
    parser.add_argument("--reference", type=Path, default=None,
                        help="the reference's c4solver binary, to run side by side")
    parser.add_argument("--pure", type=int, nargs="?", const=50, default=0, metavar="N",
                        help="also N positions per file with the pure-Python search")
    parser.add_argument("files", nargs="*", default=list(FILES))
    args = parser.parse_args()

    print(f"machine: {os.cpu_count()} cores (nproc {len(os.sched_getaffinity(0))}),"
          f" {cpu_model()}; Python {platform.python_version()};"
          f" compiled solver: {Solver().compiled}")
    print(f"{args.sample} positions per file (evenly spread), one table per file\n")
    header = f"{'file':<11} {'pos':>5} {'wrong':>5} {'ms/pos':>9} {'nodes/pos':>11} {'M nod/s':>7}"
    if args.reference:
        header += f" {'C++ ms/pos':>9} {'wrong':>5} {'ratio':>7}"
    print(header)
    for name in args.files:
        bench_file(name, args.sample, args.reference, args.pure)


if __name__ == "__main__":
    main()
