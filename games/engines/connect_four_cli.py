"""Command line of Connect Four: exact scores of positions, and what a bot plays.

    python -m games.engines.connect_four analyse MOVES...
    python -m games.engines.connect_four bot LEVEL MOVES... [--seed N]

MOVES is a position as a digit string, the columns played so far (1-based,
first player first), as in the benchmark files of shared/data/connect4;
``""`` is the empty board. Without MOVES, positions are read from standard
input, one per line (a benchmark file's second field, the score, is ignored).

``analyse`` prints ``MOVES s1 ... s7``: the exact score of playing each
column, for the player to move, in the public reference solver's ``-a``
convention (a win now scores ``(43 - discs) // 2``; a full column shows as
-1000). ``bot`` prints ``MOVES COLUMN``: the column that level plays.

A position that cannot be reached (a full column, a column that does not
exist, a game already won) gets a message on standard error instead of a
line; the exit status is then 1. Only the standard 7x6 board.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable

from .connect_four import ConnectFour, play_sequence
from .connect_four_solver import Position, Solver

# What the reference prints for a column that cannot be played.
FULL_COLUMN = -1000


def column_scores(solver: Solver, position: Position) -> list[int]:
    """The exact score of playing each column (FULL_COLUMN where it is full)."""
    scores = []
    for column in range(position.geometry.columns):
        if not position.can_play(column):
            scores.append(FULL_COLUMN)
        elif position.is_winning_move(column):
            scores.append(position.win_now_score())
        else:
            scores.append(-solver.solve(position.play(column)))
    return scores


def _positions(moves: list[str]) -> Iterable[str]:
    if moves:
        yield from moves
    else:
        for line in sys.stdin:
            fields = line.split()
            yield fields[0] if fields else ""


def analyse(moves: list[str]) -> int:
    solver = Solver()
    status = 0
    for text in _positions(moves):
        try:
            position = Position.from_moves(text)
        except ValueError as error:
            print(f"{text}: {error}", file=sys.stderr)
            status = 1
            continue
        print(" ".join([text, *map(str, column_scores(solver, position))]), flush=True)
    return status


def bot(level: str, moves: list[str], seed: int) -> int:
    engine = ConnectFour()
    try:
        play = engine.bot(level).play
    except KeyError:
        names = ", ".join(b.name for b in engine.bot_levels())
        print(f"no bot level {level!r}; levels: {names}", file=sys.stderr)
        return 2
    rng = random.Random(seed)
    status = 0
    for text in _positions(moves):
        try:
            state = play_sequence(text)
        except Exception as error:  # the engine's own message says what is wrong
            print(f"{text}: {error}", file=sys.stderr)
            status = 1
            continue
        if engine.is_over(state):
            print(f"{text}: the game is over", file=sys.stderr)
            status = 1
            continue
        seat = engine.to_move(state)[0]
        print(f"{text} {play(engine, state, seat, rng)}", flush=True)
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engines.connect_four", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    scores = commands.add_parser("analyse", help="exact score of every column")
    scores.add_argument("moves", nargs="*", help="positions as digit strings")
    player = commands.add_parser("bot", help="the column a bot level plays")
    player.add_argument("level")
    player.add_argument("moves", nargs="*", help="positions as digit strings")
    player.add_argument("--seed", type=int, default=0, help="for the bot's choice among ties")
    args = parser.parse_args(argv)
    if args.command == "analyse":
        return analyse(args.moves)
    return bot(args.level, args.moves, args.seed)
