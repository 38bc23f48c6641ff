"""The compiled core's greedy searches one at a time, setting by setting, each under a CPU limit a level.

    .venv/bin/python bench/sokoban_searches.py [--sets holland,grigr2001,sokhard] [--levels 4,8]
        [--cpu 15] [--settings p3,p1/novelty,p3/novelty,p8/plans] [--unions p1/novelty+p3/novelty]
        [--workers 2] [--results FILE]

What the solver's portfolio is made of (solver.GREEDY_RUNS), measured search
by search: a setting is a packing penalty (``p3``) with modifiers after
slashes: ``novelty`` (core.search's ``novelty``), ``plans`` (packing plans),
``macros`` (box-to-goal macros), ``flat`` (no feature cells), ``moves`` (box
moves: a box taken to any square it reaches in one move), ``fess`` (box moves
taken by FESS's weights in each feature cell), ``o2`` (another packing order
of the goal rooms, by that seed: core.search's ``order``). Each search is
the portfolio's greedy search otherwise: from both ends, PI-corrals, tunnel
and goal-room macros, the solver's box sets, learned patterns and
whole-board probes. Every (level, setting) runs alone in a worker process
for at most ``--cpu`` seconds of its own CPU, ``--workers`` at a time (one a
core: CPU time, not wall time, so that the machine's other work touches
each setting alike). Every answer is replayed through the engine.

Reports per set: the levels each setting solved, the levels some settings
solved and others not, and how many the settings of each ``--unions`` entry
solved together (the ones a portfolio of them would have had a search for).
With ``--results FILE`` each run is appended to FILE as it ends (one JSON
object a line) and runs already there are not made again, so a long run
can be resumed and the report covers the whole file.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.machine import machine_line  # noqa: E402
from bench.sokoban_solver import COLLECTIONS, check_sets, collection, core_search_within, level_numbers  # noqa: E402
from games.engines.sokoban import core, solver  # noqa: E402
from games.engines.sokoban.board import Board  # noqa: E402


Run = tuple[str, int, str, float]


def options(setting: str) -> dict[str, Any]:
    """core.search's options for a setting such as ``p3/novelty``."""
    try:
        greedy = solver.greedy_run(setting)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    # Exactly as the solver's portfolio would run it.
    return solver.core_options(0, greedy)


def run(job: Run) -> dict[str, Any]:
    name, number, setting, cpu = job
    level = collection(name)[1][number - 1]
    pushes, expanded, spent = core_search_within(level, core.CoreBoard(Board(level)), cpu, **options(setting))
    return {"set": name, "level": number, "setting": setting, "cpu_limit": cpu, "pushes": pushes,
            "expanded": expanded, "cpu": round(spent, 2)}


def report(results: list[dict[str, Any]], settings: list[str], unions: list[list[str]]) -> None:
    for name in dict.fromkeys(r["set"] for r in results):
        solved: dict[str, set[int]] = {setting: set() for setting in settings}
        levels: set[int] = set()
        for r in results:
            if r["set"] == name and r["setting"] in solved:
                levels.add(r["level"])
                if r["pushes"] is not None:
                    solved[r["setting"]].add(r["level"])
        print(f"== {name}: {len(levels)} levels")
        for setting in settings:
            print(f"   {setting}: {len(solved[setting])} solved")
        anyone = set().union(*solved.values())
        split = sorted(number for number in anyone if any(number not in s for s in solved.values()))
        for number in split:
            print(f"   {name} {number}: solved by " + ", ".join(s for s in settings if number in solved[s]))
        for union in unions:
            together = set().union(*(solved.get(s, set()) for s in union))
            print(f"   {' + '.join(union)}: {len(together)} solved together")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="holland,grigr2001,sokhard", help="comma-separated: " + ", ".join(COLLECTIONS) + ", or a collection file's path")
    parser.add_argument("--levels", default="", help="level numbers, e.g. 1-20,33 (default: all)")
    parser.add_argument("--cpu", type=float, default=15.0, help="CPU seconds a level and setting")
    parser.add_argument("--settings", default="p3,p1/novelty,p3/novelty,p8/plans",
                        help="comma-separated: a packing penalty with modifiers, such as p3/novelty")
    parser.add_argument("--unions", default="", help="comma-separated groups of settings joined by +")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--results", type=Path, help="append each run here; runs already in it are kept")
    args = parser.parse_args()
    settings = args.settings.split(",")
    for setting in settings:
        options(setting)
    unions = [union.split("+") for union in args.unions.split(",") if union]
    done: list[dict[str, Any]] = []
    if args.results is not None and args.results.exists():
        done = [json.loads(line) for line in args.results.read_text().splitlines() if line.strip()]
    made = {(r["set"], r["level"], r["setting"], r["cpu_limit"]) for r in done}
    jobs: list[Run] = []
    names = args.sets.split(",")
    check_sets(parser, names)
    for name in names:
        count = len(collection(name)[1])
        numbers = sorted(level_numbers(args.levels) & set(range(1, count + 1))) if args.levels else range(1, count + 1)
        jobs += [(name, number, setting, args.cpu) for number in numbers for setting in settings
                 if (name, number, setting, args.cpu) not in made]
    print(f"core greedy searches, {args.cpu:g} s of CPU a level and setting, {args.workers} at a time")
    print(f"machine: {machine_line()}")
    # One worker process a run: each search's memory and CPU are its own.
    with ProcessPoolExecutor(max_workers=args.workers, max_tasks_per_child=1) as pool:
        for result in pool.map(run, jobs):
            answer = f"{result['pushes']} pushes" if result["pushes"] is not None else "unsolved"
            print(f"   {result['set']} {result['level']} {result['setting']}: {answer}"
                  f" ({result['expanded']:,} expansions, {result['cpu']:.1f} s)", flush=True)
            done.append(result)
            if args.results is not None:
                with args.results.open("a") as handle:
                    handle.write(json.dumps(result) + "\n")
    wanted = {(name, args.cpu) for name in args.sets.split(",")}
    report([r for r in done if (r["set"], r["cpu_limit"]) in wanted], settings, unions)


if __name__ == "__main__":
    main()
