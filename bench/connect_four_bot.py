"""Benchmarks of the Connect Four bots: against a perfect player, and time per move.

``perfect`` (the default): the ``perfect`` level plays a perfect player from
every opening of ``--discs`` discs (2: the 49 two-disc openings), once as
each colour, and every one of its moves is checked against the exact scores
of the position: a move below the best score is a mistake. The perfect
player picks at random (seeded) among its best columns. Exact answers are
kept in bench/out/connect_four_analysis.txt (key, score, best columns), so a
run that is stopped carries on where it was; the early positions take the
solver minutes each, and a position whose solve runs past ``--cap`` CPU
seconds ends that game unchecked (reported as such, never as a pass).
``--openings-file`` starts the games from positions of a benchmark file
instead (Test_L1_R1: 4 to 14 discs), each as both colours.

``positions``: the ``perfect`` level's move in positions of the benchmark
files (a sample spread over each), checked against the exact best columns:
how many are below the best score, where each move came from (book, solve,
or the depth-limited search after the solve ran out of time), CPU per move.

``coverage``: the ``perfect`` level from the empty board against random
moves, both colours: where each of its moves came from (book, solve, or the
inexact depth-limited search) and its CPU per move.

``levels``: each level plays whole games against the level below it and
against random moves; prints results, and CPU time per move (mean, max).

    nice -n 10 .venv/bin/python bench/connect_four_bot.py perfect --discs 2
    nice -n 10 .venv/bin/python bench/connect_four_bot.py perfect --openings-file Test_L1_R1
    .venv/bin/python bench/connect_four_bot.py positions --sample 100
    .venv/bin/python bench/connect_four_bot.py coverage --games 200
    .venv/bin/python bench/connect_four_bot.py levels --games 20
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.machine import cpu_model  # noqa: E402
from games.engines.bots import get_bot  # noqa: E402
from games.engines.connect_four import ConnectFour  # noqa: E402
from games.engines.connect_four_book import canonical, opening_book  # noqa: E402
from games.engines.connect_four_solver import Position, SearchAborted, Solver, choose  # noqa: E402

CACHE = ROOT / "bench" / "out" / "connect_four_analysis.txt"


# Exact answers along the perfect lines (--perfect-lines), committed so that
# the walk and the benchmark's judge carry over from one session to the next.
LINES_FILE = ROOT / "bench" / "data" / "connect_four_lines.txt"
LINES_HEADER = """\
# Exact answers on the lines of the bot against a perfect player
# (bench/connect_four_book.py --perfect-lines; read by bench/connect_four_bot.py).
# key (hex, canonical), exact score, every best column (0-based, canonical
# orientation), and "quick" where a fresh solver settled it within --quick-nodes nodes.
# "walked MOVES": every line from that start is here, both colours.
"""


class Lines:
    """Exact score and every best column of positions, kept in a file as they are found."""

    def __init__(self, path: Path = LINES_FILE) -> None:
        self.path = path
        self.known: dict[int, tuple[int, list[int], bool]] = {}
        # Starts whose every line is walked (canonical keys): "walked MOVES" lines.
        self.walked: set[int] = set()
        if path.exists():
            for line in path.read_text().splitlines():
                if line.startswith("#") or not line.strip():
                    continue
                if line.startswith("walked "):
                    self.walked.add(canonical(Position.from_moves(line.split()[1]))[0])
                    continue
                key, score, best, *quick = line.split()
                self.known[int(key, 16)] = (int(score), [int(c) for c in best.split(",")], quick == ["quick"])
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(LINES_HEADER)

    def get(self, position: Position) -> tuple[int, list[int], bool] | None:
        """(score, best columns in this position's orientation, centre first, quick), if known."""
        key, mirrored = canonical(position)
        if key not in self.known:
            return None
        score, stored, quick = self.known[key]
        best = {6 - c for c in stored} if mirrored else set(stored)
        # Centre first, as the solver gives them (the book takes the first).
        return score, [c for c in position.geometry.order if c in best], quick

    def mark_walked(self, start: str) -> None:
        self.walked.add(canonical(Position.from_moves(start))[0])
        with self.path.open("a") as out:
            out.write(f"walked {start}\n")

    def add(self, position: Position, score: int, best: list[int], quick: bool) -> None:
        key, mirrored = canonical(position)
        stored = sorted(6 - c for c in best) if mirrored else sorted(best)
        self.known[key] = (score, stored, quick)
        with self.path.open("a") as out:
            out.write(f"{key:x} {score} {','.join(map(str, stored))}{' quick' if quick else ''}\n")


class Oracle:
    """Exact score and best columns of positions, remembered on disk."""

    def __init__(self, path: Path, cap: float) -> None:
        self.path = path
        self.cap = cap
        self.solver = Solver(table_bits=25)
        # What the book builder's --perfect-lines found (committed), then this judge's own cache.
        self.known: dict[int, tuple[int, list[int]]] = {
            key: (score, best) for key, (score, best, _) in Lines().known.items()
        }
        if path.exists():
            for line in path.read_text().splitlines():
                key, score, best = line.split()
                self.known[int(key, 16)] = (int(score), [int(c) for c in best.split(",")])
        path.parent.mkdir(parents=True, exist_ok=True)

    def best(self, position: Position) -> tuple[int, list[int]] | None:
        """(score, best 0-based columns), or None past the cap."""
        key, mirrored = canonical(position)
        if key not in self.known:
            self.solver.limit(seconds=self.cap)
            try:
                score, best = self.solver.best_columns(position)
            except SearchAborted:
                return None
            finally:
                self.solver.limit()
            stored = sorted(6 - c for c in best) if mirrored else best
            self.known[key] = (score, stored)
            with self.path.open("a") as out:
                out.write(f"{key:x} {score} {','.join(map(str, stored))}\n")
        score, stored = self.known[key]
        return score, sorted(6 - c for c in stored) if mirrored else stored


def openings(discs: int) -> list[str]:
    found = []
    for columns in itertools.product("1234567", repeat=discs):
        moves = "".join(columns)
        try:
            Position.from_moves(moves)
        except ValueError:
            continue
        found.append(moves)
    return found


def file_openings(name: str, size: int) -> list[str]:
    """``size`` positions spread over a benchmark file, as openings."""
    lines = (ROOT.parent / "shared" / "data" / "connect4" / name).read_text().splitlines()
    return [line.split()[0] for line in lines[:: max(1, len(lines) // size)][:size]]


def versus_perfect(starts: list[str], cap: float, seed: int, limit: int | None) -> None:
    oracle = Oracle(CACHE, cap)
    rng = random.Random(seed)
    games = [(moves, colour) for moves in starts for colour in (0, 1)]
    if limit is not None:
        games = games[:limit]
    mistakes = checked = finished = 0
    by_source: dict[str, int] = {}
    times: list[float] = []
    for number, (opening, colour) in enumerate(games, start=1):
        moves, position, unchecked = opening, Position.from_moves(opening), False
        while True:
            answer = oracle.best(position)
            if answer is None:
                unchecked = True
                break
            score, best = answer
            if len(moves) % 2 == colour:
                started = time.thread_time()
                choice = choose(moves, rng)
                times.append(time.thread_time() - started)
                column = choice.column - 1
                by_source[choice.source] = by_source.get(choice.source, 0) + 1
                checked += 1
                if column not in best:
                    mistakes += 1
                    print(f"  mistake: {moves} column {column + 1} ({choice.source}),"
                          f" best {[c + 1 for c in best]} score {score}", flush=True)
            else:
                column = rng.choice(best)
            won = position.is_winning_move(column)
            position, moves = position.play(column), moves + str(column + 1)
            if won or position.full:
                break
        finished += not unchecked
        print(f"game {number}/{len(games)}: opening {opening}, bot plays"
              f" {'first' if colour == 0 else 'second'}: {moves}"
              f"{' (stopped: a position past the cap, unchecked)' if unchecked else ''}", flush=True)
    print(f"\n{finished}/{len(games)} games played to the end; {checked} bot moves checked,"
          f" {mistakes} below the best score")
    print("moves by source: " + ", ".join(f"{k} {v}" for k, v in sorted(by_source.items())))
    if times:
        print(f"CPU time per bot move: mean {statistics.mean(times) * 1000:.0f} ms,"
              f" max {max(times) * 1000:.0f} ms")
    print(f"book: {len(opening_book())} entries")


def positions(names: list[str], size: int, seed: int) -> None:
    """The perfect level's move in benchmark-file positions, checked against exact answers."""
    data = ROOT.parent / "shared" / "data" / "connect4"
    oracle = Solver(table_bits=25)
    rng = random.Random(seed)
    print(f"{'file':<11} {'moves':>5} {'below best':>10} {'book':>5} {'solve':>5} {'search':>6}"
          f" {'other':>5} {'mean ms':>8} {'max ms':>7}")
    for name in names:
        lines = (data / name).read_text().splitlines()
        chosen = lines[:: max(1, len(lines) // size)][:size]
        below, times, sources = 0, [], {}
        for line in chosen:
            moves = line.split()[0]
            started = time.thread_time()
            choice = choose(moves, rng)
            times.append(time.thread_time() - started)
            sources[choice.source] = sources.get(choice.source, 0) + 1
            _, best = oracle.best_columns(Position.from_moves(moves))
            below += choice.column - 1 not in best
        other = len(chosen) - sum(sources.get(k, 0) for k in ("book", "solve", "search"))
        print(f"{name:<11} {len(chosen):>5} {below:>10} {sources.get('book', 0):>5}"
              f" {sources.get('solve', 0):>5} {sources.get('search', 0):>6} {other:>5}"
              f" {statistics.mean(times) * 1000:>8.0f} {max(times) * 1000:>7.0f}", flush=True)


def coverage(games: int, seed: int, opponent: str) -> None:
    """Whole games from the empty board, the perfect level against ``opponent``, as both colours.

    A random opponent takes the bot off any line a strong one would keep it
    on, which is what the book must cover: every move of the bot says where
    it came from. Only ``search`` (the depth-limited fallback when the exact
    solve ran out of its second) is not exact; book entries are exact by
    construction (re-derived by the book's --check and the tests), solves are
    exact. CPU per move is the bot's own, one solver kept between moves as in
    a worker process.
    """
    rng = random.Random(seed)
    engine = ConnectFour()
    other = get_bot(engine.slug, opponent)
    sources: dict[str, int] = {}
    times: list[tuple[float, str]] = []
    for game in range(games):
        colour, moves = game % 2, ""
        position = Position.from_moves("")
        state = engine.initial_state(2, engine.normalize_options({}), 0)
        while True:
            if len(moves) % 2 == colour:
                started = time.thread_time()
                choice = choose(moves, rng)
                times.append((time.thread_time() - started, moves))
                sources[choice.source] = sources.get(choice.source, 0) + 1
                column = choice.column - 1
            else:
                column = int(other(engine, state, 1 - colour, rng)) - 1
            won = position.is_winning_move(column)
            state = engine.play(state, len(moves) % 2, str(column + 1))
            position, moves = position.play(column), moves + str(column + 1)
            if won or position.full:
                break
    slowest, where = max(times)
    print(f"{games} games from the empty board against {opponent}, colours alternating;"
          f" {len(times)} bot moves")
    print("moves by source: " + ", ".join(f"{k} {v}" for k, v in sorted(sources.items())))
    print(f"not exact (search fallback): {sources.get('search', 0)}")
    print(f"CPU per bot move: mean {statistics.mean(t for t, _ in times) * 1000:.1f} ms,"
          f" max {slowest * 1000:.0f} ms (at {where or 'the empty board'}, {len(where)} discs)")
    print(f"book: {len(opening_book())} entries")


def levels(games: int, seed: int) -> None:
    engine = ConnectFour()
    pairs = [("easy", "random"), ("medium", "random"), ("medium", "easy"),
             ("perfect", "random"), ("perfect", "easy"), ("perfect", "medium")]
    times: dict[str, list[float]] = {}
    for first, second in pairs:
        tally = {first: 0, second: 0, "draw": 0}
        rng = random.Random(seed)
        for game in range(games):
            order = (first, second) if game % 2 == 0 else (second, first)
            bots = [get_bot(engine.slug, name) for name in order]
            state = engine.initial_state(2, engine.normalize_options({}), 0)
            while not engine.is_over(state):
                seat = engine.to_move(state)[0]
                started = time.thread_time()
                text = bots[seat](engine, state, seat, rng)
                times.setdefault(order[seat], []).append(time.thread_time() - started)
                state = engine.play(state, seat, text)
            outcome = engine.outcome(state)
            assert outcome is not None
            tally[order[outcome.winners[0]] if outcome.winners else "draw"] += 1
        print(f"{first} vs {second}, {games} games, colours alternating: "
              + ", ".join(f"{k} {v}" for k, v in tally.items()), flush=True)
    print()
    for name, spent in times.items():
        print(f"{name:<8} CPU per move: mean {statistics.mean(spent) * 1000:8.1f} ms,"
              f" max {max(spent) * 1000:8.1f} ms over {len(spent)} moves")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    perfect = commands.add_parser("perfect", help="the perfect level against a perfect player")
    perfect.add_argument("--discs", type=int, default=2, help="discs in each opening")
    perfect.add_argument("--openings-file", default=None,
                         help="start from positions of this benchmark file instead")
    perfect.add_argument("--sample", type=int, default=25, help="positions of that file")
    perfect.add_argument("--cap", type=float, default=600.0, help="CPU s for one exact answer")
    perfect.add_argument("--games", type=int, default=None, help="only the first N games")
    perfect.add_argument("--seed", type=int, default=1)
    perfect.add_argument("--walked", action="store_true",
                         help="only the openings whose lines the book builder's --perfect-lines has walked")
    matches = commands.add_parser("levels", help="levels against each other, time per move")
    matches.add_argument("--games", type=int, default=20)
    matches.add_argument("--seed", type=int, default=1)
    cover = commands.add_parser("coverage", help="the perfect level from the empty board against random moves")
    cover.add_argument("--games", type=int, default=200)
    cover.add_argument("--seed", type=int, default=1)
    cover.add_argument("--opponent", default="random", help="the other side's level (random, easy, medium)")
    files = commands.add_parser("positions", help="the perfect level's move in benchmark positions")
    files.add_argument("--sample", type=int, default=100, help="positions per file")
    files.add_argument("--seed", type=int, default=1)
    files.add_argument("files", nargs="*", default=["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1"])
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, {cpu_model()}; Python {platform.python_version()};"
          f" compiled solver: {Solver().compiled}\n", flush=True)
    if args.command == "perfect":
        starts = (file_openings(args.openings_file, args.sample) if args.openings_file
                  else openings(args.discs))
        if args.walked:
            walked = Lines().walked
            every = len(starts)
            starts = [moves for moves in starts if canonical(Position.from_moves(moves))[0] in walked]
            print(f"{len(starts)} of the {every} openings walked", flush=True)
        versus_perfect(starts, args.cap, args.seed, args.games)
    elif args.command == "coverage":
        coverage(args.games, args.seed, args.opponent)
    elif args.command == "positions":
        positions(args.files, args.sample, args.seed)
    else:
        levels(args.games, args.seed)


if __name__ == "__main__":
    main()
