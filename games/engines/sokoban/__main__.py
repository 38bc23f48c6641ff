"""Command line: solve levels, or check LURD solutions.

    python -m games.engines.sokoban solve FILE [--level N | --levels A-B]
        [--algorithm NAME] [--time-limit S] [--memory-limit MB] [--json]
    python -m games.engines.sokoban check FILE SOLUTIONS

Levels are numbered from 1 in the order of FILE (XSB collection, or one
numeric-format level).

``solve`` prints one result per level: by default a tab-separated table with
a header (level, status, pushes, moves, optimal, expanded, seconds, lurd),
with ``--json`` one JSON object per line (``SolveResult.to_json()`` plus the
level number). The table is itself a SOLUTIONS file for ``check``.

``check`` replays solutions. SOLUTIONS is either a tab-separated file whose
header names a ``lurd`` column and a ``level`` column (``pushes`` and
``moves`` columns, if present, are checked too), like
shared/data/sokoban/microban_push_optimal.tsv; or plain text with one LURD
string per line for levels 1, 2, 3... (a blank line skips a level).

Exit status: 0 when every level asked for is solved (or every solution
checks out), 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ..base import EngineError
from .engine import replay
from .levels import Level, LevelError, load_levels
from .solver import ALGORITHMS, machine_threads, solve


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engines.sokoban")
    commands = parser.add_subparsers(dest="command", required=True)

    solving = commands.add_parser("solve", help="solve the levels of a file")
    solving.add_argument("file", type=Path)
    which = solving.add_mutually_exclusive_group()
    which.add_argument("--level", type=int, help="only level N (from 1)")
    which.add_argument("--levels", help="levels A-B (from 1, both included)")
    solving.add_argument("--algorithm", choices=ALGORITHMS, default="best")
    solving.add_argument("--time-limit", type=float, default=30.0, help="seconds per level")
    solving.add_argument("--memory-limit", type=float, default=2048, help="MB per level")
    solving.add_argument("--json", action="store_true", help="one JSON object per line")
    solving.add_argument("--threads", type=int, default=None,
                         help="searches at once within a level, one a core (best only;"
                              " default: the cores this process may use)")

    checking = commands.add_parser("check", help="replay LURD solutions")
    checking.add_argument("file", type=Path)
    checking.add_argument("solutions", type=Path)

    args = parser.parse_args(argv)
    try:
        levels = load_levels(args.file)
    except (OSError, LevelError) as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 2
    if args.command == "solve":
        try:
            numbers = _chosen(args.level, args.levels, len(levels))
        except ValueError as error:
            parser.error(str(error))
        return _solve(
            levels, numbers, args.algorithm, args.time_limit, args.memory_limit, args.json,
            machine_threads() if args.threads is None else args.threads,
        )
    try:
        solutions = read_solutions(args.solutions)
    except (OSError, ValueError) as error:
        print(f"{args.solutions}: {error}", file=sys.stderr)
        return 2
    return _check(levels, solutions)


def _chosen(level: int | None, span: str | None, total: int) -> list[int]:
    if level is not None:
        first = last = level
    elif span is not None:
        try:
            first_text, last_text = span.split("-")
            first, last = int(first_text), int(last_text)
        except ValueError:
            raise ValueError(f"--levels takes A-B, such as 1-10, not {span!r}") from None
    else:
        first, last = 1, total
    if not 1 <= first <= last <= total:
        raise ValueError(f"the file has levels 1-{total}")
    return list(range(first, last + 1))


def _solve(
    levels: list[Level],
    numbers: list[int],
    algorithm: str,
    time_limit: float,
    memory_limit: float,
    as_json: bool,
    threads: int = 1,
) -> int:
    columns = ["level", "status", "pushes", "moves", "optimal", "expanded", "seconds", "lurd"]
    if not as_json:
        print("\t".join(columns), flush=True)
    unsolved = 0
    for number in numbers:
        result = solve(levels[number - 1], algorithm, time_limit, memory_limit, threads=threads)
        unsolved += not result.solved
        data = {"level": number, **result.to_json()}
        if as_json:
            print(json.dumps(data), flush=True)
        else:
            data["lurd"] = result.solution
            data["optimal"] = "yes" if result.optimal else "no"
            print("\t".join(str(data[column]) for column in columns), flush=True)
    return 1 if unsolved else 0


def read_solutions(path: Path) -> dict[int, dict[str, str]]:
    """Level number -> its row (at least ``lurd``), from either SOLUTIONS format."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    header = lines[0].split("\t") if lines else []
    if "lurd" in header:
        if "level" not in header:
            raise ValueError("a solutions table needs a 'level' column beside 'lurd'")
        rows = csv.DictReader(lines, delimiter="\t")
        table = {}
        for row in rows:
            try:
                table[int(row["level"])] = row
            except (TypeError, ValueError):
                raise ValueError(f"bad level number {row['level']!r}") from None
        return table
    return {number: {"lurd": line.strip()} for number, line in enumerate(lines, 1) if line.strip()}


def _check(levels: list[Level], solutions: dict[int, dict[str, str]]) -> int:
    failed = 0
    for number in sorted(solutions):
        row = solutions[number]
        lurd = (row.get("lurd") or "").strip()
        if not 1 <= number <= len(levels):
            print(f"level {number}: FAILED: the file has levels 1-{len(levels)}")
            failed += 1
            continue
        if not lurd:
            print(f"level {number}: no solution given")
            failed += 1
            continue
        try:
            state = replay(levels[number - 1], lurd)
        except EngineError as error:
            print(f"level {number}: FAILED: {error}")
            failed += 1
            continue
        problems = []
        if not state.solved:
            problems.append("the boxes are not all on goals at the end")
        for column, value in (("pushes", state.pushes), ("moves", state.moves)):
            claimed = (row.get(column) or "").strip()
            if claimed and claimed != str(value):
                problems.append(f"{column}: the table says {claimed}, the replay makes {value}")
        if problems:
            print(f"level {number}: FAILED: {'; '.join(problems)}")
            failed += 1
        else:
            print(f"level {number}: ok ({state.pushes} pushes, {state.moves} moves)")
    print(f"{len(solutions) - failed} of {len(solutions)} solutions check out")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
