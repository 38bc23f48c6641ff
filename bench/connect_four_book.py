"""Builds the opening book of the ``perfect`` Connect Four bot with our own solver.

The book (games/engines/connect_four_book.txt, see connect_four_book.py) holds
a best column and the exact score of every position the bot can meet before
the solver is fast enough to play on its own: the bot's own moves are the
book's choice (one best column each), the opponent's are any legal move.
Positions where the bot wins at once, or has a single move that does not lose
at once, need no entry (the bot sees those itself), but the walk goes on
through them. Positions whose best column a fresh solver finds within
--quick CPU seconds (a small share of the bot's own second) need no entry
either, and the walk stops there: positions after them have more discs and
are solved faster still, so the bot finds their moves itself in play.

The walk goes ply by ply, both trees (the bot moving first and moving second)
together, so a book cut short covers every position up to some depth.
Each solved position is appended to the file at once: stop the build at any
time (Ctrl-C, a lost session) and run it again to carry on where it was.
It takes hours at depth 8 or so: run it niced, in the background:

    nice -n 10 .venv/bin/python bench/connect_four_book.py --plies 8 &

--plies N: positions with fewer than N discs get an entry.
--start MOVES / --openings DISCS: the book of the games after MOVES, or after
every opening of DISCS discs (each as both colours), instead of the empty board.
--check [N]: re-derive N random entries of the book (all without N) with the
solver and say which, if any, are wrong.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.connect_four_bot import LINES_FILE, Lines  # noqa: E402
from bench.connect_four_bot import openings as every_opening  # noqa: E402
from games.engines.connect_four_book import (  # noqa: E402
    BOOK_FILE,
    BookLine,
    canonical,
    mirror_moves,
    read_lines,
)
from games.engines.connect_four_solver import Position, SearchAborted, Solver  # noqa: E402

HEADER = """\
# Opening book of the perfect Connect Four bot (7x6, four in a row).
# Built by bench/connect_four_book.py with the project's own solver.
# key (hex, current + mask of the stored orientation), column (1-based),
# exact score, moves of a game reaching the position (stored orientation).
"""


def best_column(solver: Solver, position: Position) -> tuple[int, int]:
    """The exact score and the first column, centre first, that keeps it."""
    score = solver.solve(position)
    for column in position.legal_columns():
        child = position.play(column)
        if position.is_winning_move(column):
            if position.win_now_score() == score:
                return score, column
            continue
        if solver.window(child, -score, -score + 1) <= -score:
            return score, column
    raise AssertionError(f"no column keeps the score {score}")


def bot_column(position: Position, book: dict[int, BookLine]) -> int | None:
    """The column the bot plays here, from the book or by its own rules (None: unknown yet)."""
    wins = position.winning_columns()
    if wins:
        return wins[0]
    safe = position.non_losing_columns()
    if len(safe) <= 1:
        return safe[0] if safe else position.legal_columns()[0]
    key, mirrored = canonical(position)
    line = book.get(key)
    if line is None:
        return None
    return position.geometry.columns - 1 - line.column if mirrored else line.column


def replies(position: Position, moves: str, columns: list[int] | None = None) -> list[tuple[Position, str]]:
    """The positions after each reply (of ``columns``, all by default) that does not end the game."""
    found = []
    for column in position.legal_columns() if columns is None else columns:
        if position.is_winning_move(column):
            continue
        child = position.play(column)
        if not child.full:
            found.append((child, moves + str(column + 1)))
    return found


def quickly_solved(probe: Solver, position: Position, seconds: float = 0.0, *, nodes: int | None = None) -> bool:
    """Whether a solver with an empty table settles this position within ``seconds`` of CPU
    (or ``nodes`` nodes: the same answer on any machine, at any load), the way the
    bot does in play (every column's exact score)."""
    if nodes is None and seconds <= 0:
        return False
    probe.reset()
    probe.limit(seconds=None if nodes is not None else seconds, max_nodes=nodes)
    try:
        probe.best_columns(position)
        return True
    except SearchAborted:
        return False
    finally:
        probe.limit()


def openings(discs: int) -> list[str]:
    """Every position of ``discs`` discs (none won), one of each mirror pair, as moves."""
    found: dict[int, str] = {}
    for moves in every_opening(discs):
        found.setdefault(canonical(Position.from_moves(moves))[0], moves)
    return sorted(found.values())


def build(plies: int, path: Path, *, starts: tuple[str, ...] = ("",), first_move: bool = False,
          table_bits: int = 25, quick: float = 0.0) -> None:
    book = {line.key: line for line in read_lines(path)}
    if not path.exists():
        path.write_text(HEADER)
    solver = Solver(table_bits=table_bits)
    probe = Solver(table_bits=22)
    print(f"{len(book)} entries already in {path}; compiled solver: {solver.compiled}", flush=True)
    # Bot positions by ply: the bot moving first (from each start), the bot
    # moving second (after each reply to a start). Keys de-duplicate
    # transpositions and mirrors; starts of one length walk together, ply by ply.
    levels: dict[int, dict[int, tuple[Position, str]]] = {}
    for start in starts:
        root = Position.from_moves(start)
        levels.setdefault(root.moves, {})[canonical(root)[0]] = (root, start)
        for child, moves in replies(root, start):
            levels.setdefault(root.moves + 1, {}).setdefault(canonical(child)[0], (child, moves))
    started = time.process_time()
    for ply in range(min(levels), plies):
        level = levels.pop(ply, {})
        following = levels.setdefault(ply + 2, {})
        solved = 0
        for key in sorted(level):
            position, moves = level[key]
            column = bot_column(position, book)
            if column is None and position.moves == 0 and not first_move:
                # The bot's first move without a book entry: the centre, the
                # published result (see connect_four_solver.choose).
                column = position.geometry.order[0]
            if column is None and position.moves > 0 and quickly_solved(probe, position, quick):
                continue  # the bot solves this one in play, and every position after it
            if column is None:
                began = time.process_time()
                score, column = best_column(solver, position)
                key, mirrored = canonical(position)
                stored_column = 6 - column if mirrored else column
                stored_moves = mirror_moves(moves) if mirrored else moves
                line = BookLine(key, stored_column, score, stored_moves)
                book[key] = line
                with path.open("a") as out:
                    out.write(line.format() + "\n")
                solved += 1
                print(
                    f"ply {ply} {moves or '(empty)'}: column {column + 1}, score {score},"
                    f" {time.process_time() - began:.1f} s; {len(book)} entries,"
                    f" {time.process_time() - started:.0f} CPU s in all",
                    flush=True,
                )
            if position.is_winning_move(column):
                continue
            after = position.play(column)
            if after.full:
                continue
            for reply, reply_moves in replies(after, moves + str(column + 1)):
                if ply + 2 < plies:
                    following.setdefault(canonical(reply)[0], (reply, reply_moves))
        print(f"ply {ply} done: {len(level)} positions, {solved} solved now", flush=True)


# About 0.2 CPU s of the compiled solver from an empty table: a fifth of the bot's second.
QUICK_NODES = 1_000_000


def perfect_lines(starts: tuple[str, ...], book_path: Path, lines_path: Path, *,
                  table_bits: int = 25, quick_nodes: int = QUICK_NODES) -> None:
    """The book along every game of the bot against a perfect player from ``starts``, both colours.

    The perfect player may choose any of its best columns, so the walk
    branches on every one of them; the bot plays its own column (the book's,
    or its rules'), given an entry here where it has none. Every position on
    the way gets its exact score and all its best columns (``Lines``): the
    benchmark's judge reads them. A position that a fresh solver settles
    within ``quick_nodes`` nodes ends its line: the bot solves it and every
    later one in play (more discs, faster still), and so does the judge.
    Depth first, one start after another, so whole openings are done in turn.
    """
    solver = Solver(table_bits=table_bits)
    probe = Solver(table_bits=22)
    started = time.process_time()
    for start in starts:
        # Read afresh for each start: another walk (--reverse) may be writing the same files.
        book = {line.key: line for line in read_lines(book_path)}
        lines = Lines(lines_path)
        print(f"start {start}: {len(book)} book entries, {len(lines.known)} positions known", flush=True)
        for colour in (0, 1):  # the bot moves when the discs' count has this parity
            stack, seen, solved = [(Position.from_moves(start), start)], set(), 0
            while stack:
                position, moves = stack.pop()
                bot = len(moves) % 2 == colour
                key, mirrored = canonical(position)
                if (key, bot) in seen:
                    continue
                seen.add((key, bot))
                answer = lines.get(position)
                if answer is None:
                    began = time.process_time()
                    easy = quickly_solved(probe, position, nodes=quick_nodes)
                    score, best = (probe if easy else solver).best_columns(position)
                    lines.add(position, score, best, easy)
                    answer = score, best, easy
                    solved += 1
                    if not easy:
                        print(f"{moves}: score {score}, best {[c + 1 for c in best]},"
                              f" {time.process_time() - began:.1f} s; {time.process_time() - started:.0f}"
                              f" CPU s in all", flush=True)
                score, best, easy = answer
                if easy:
                    continue  # the bot and the judge settle this line from here in play
                if bot:
                    column = bot_column(position, book)
                    if column is None:
                        column = best[0]  # centre first, as the builder's best_column
                        line = BookLine(key, 6 - column if mirrored else column, score,
                                        mirror_moves(moves) if mirrored else moves)
                        book[key] = line
                        with book_path.open("a") as out:
                            out.write(line.format() + "\n")
                    columns = [column]
                else:
                    columns = best
                stack.extend(replies(position, moves, columns))
            print(f"start {start}, bot {'first' if colour == 0 else 'second'}: {len(seen)} positions,"
                  f" {solved} solved now; {len(book)} book entries", flush=True)
        if canonical(Position.from_moves(start))[0] not in lines.walked:
            lines.mark_walked(start)


def tidy(path: Path) -> int:
    """Keep the first entry of each position in the book file: two walks at once
    (--reverse) can both reach a position another start transposes into.
    Returns how many were dropped; the header and the order stay."""
    kept, seen, dropped = [], set(), 0
    for text in path.read_text().splitlines():
        if text.startswith("#") or not text.strip():
            kept.append(text)
            continue
        key = BookLine.parse(text).key
        if key in seen:
            dropped += 1
            continue
        seen.add(key)
        kept.append(text)
    path.write_text("\n".join(kept) + "\n")
    return dropped


def check(path: Path, sample: int | None, seed: int) -> int:
    """Re-derive entries with the solver; the number that do not match."""
    lines = read_lines(path)
    if sample is not None and sample < len(lines):
        lines = random.Random(seed).sample(lines, sample)
    solver = Solver(table_bits=25)
    wrong = 0
    for line in lines:
        began = time.process_time()
        position = Position.from_moves(line.moves)
        score, best = solver.best_columns(position)
        right = canonical(position) == (line.key, False) and score == line.score and line.column in best
        wrong += not right
        print(f"{line.moves or '(empty)'}: {'ok' if right else 'WRONG'} (score {score},"
              f" best {[c + 1 for c in best]}), {time.process_time() - began:.1f} s", flush=True)
    print(f"{len(lines)} entries re-derived, {wrong} wrong")
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=8, help="entries for positions with fewer discs")
    parser.add_argument("--first-move", action="store_true",
                        help="solve the empty board too (long); without it the bot opens in the centre")
    parser.add_argument("--start", default="", help="build the book of the game after these moves")
    parser.add_argument("--openings", type=int, default=None, metavar="DISCS",
                        help="build it after every opening of DISCS discs instead (2: the 49 two-disc ones,"
                             " 25 up to mirroring); days of CPU at 2")
    parser.add_argument("--perfect-lines", action="store_true",
                        help="with --openings or --start: the book along every game against a perfect"
                             " player, exact answers kept in --lines for the benchmark")
    parser.add_argument("--lines", type=Path, default=LINES_FILE)
    parser.add_argument("--quick-nodes", type=int, default=QUICK_NODES,
                        help="--perfect-lines: a line ends where a fresh solver settles it within so many nodes")
    parser.add_argument("--reverse", action="store_true",
                        help="the starts in reverse order: a second walk on the other core meets the first")
    parser.add_argument("--book", type=Path, default=BOOK_FILE)
    parser.add_argument("--table-bits", type=int, default=25, help="2**N table entries (8 bytes each)")
    parser.add_argument("--quick", type=float, default=0.2,
                        help="CPU seconds: positions a fresh solver settles within them need no entry (0: all do)")
    parser.add_argument("--check", type=int, nargs="?", const=-1, default=None, metavar="N",
                        help="re-derive N random entries (all without N) instead of building")
    parser.add_argument("--seed", type=int, default=None, help="of the --check sample")
    parser.add_argument("--tidy", action="store_true",
                        help="drop the book's second entries of a position (after two walks at once)")
    args = parser.parse_args()
    if args.tidy:
        print(f"{tidy(args.book)} duplicate entries dropped from {args.book}")
        return
    if args.check is not None:
        sys.exit(1 if check(args.book, None if args.check < 0 else args.check, args.seed) else 0)
    starts = tuple(openings(args.openings)) if args.openings is not None else (args.start,)
    if args.reverse:
        starts = starts[::-1]
    if args.perfect_lines:
        perfect_lines(starts, args.book, args.lines, table_bits=args.table_bits, quick_nodes=args.quick_nodes)
        return
    build(args.plies, args.book, starts=starts, first_move=args.first_move,
          table_bits=args.table_bits, quick=args.quick)


if __name__ == "__main__":
    main()
