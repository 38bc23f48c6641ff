"""Connect Four.

Rules: two players take turns dropping a disc into one of the columns of an
upright grid (7 columns x 6 rows by default); the disc falls to the lowest
empty cell of that column. A full column cannot be played. The first player to
line up ``connect`` (4) of their discs horizontally, vertically or along
either diagonal wins at once; a full board without such a line is a draw.

Options change the size (4..12 columns, 4..12 rows) and the line length
(3..6, no longer than the grid allows). Seat 0 moves first.

Notation: a move is its column number, 1-based from the left (``4``); a game
is the string of its moves (``4453``), the convention of the benchmark files
in shared/data/connect4. Above 9 columns a move is still a number (``10``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .base import (
    DRAW,
    JSON,
    LOSS,
    WIN,
    BadNotation,
    BadOptions,
    BotLevel,
    Engine,
    IllegalMove,
    OptionSpec,
    Outcome,
)
from .words import term, words

Cell = tuple[int, int]  # (column, row), 0-based, row 0 at the bottom

# The four line directions: horizontal, vertical, two diagonals.
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class ConnectFourState:
    columns: int
    rows: int
    connect: int
    # board[c] lists the seats whose discs fill column c, from the bottom up.
    board: tuple[tuple[int, ...], ...]
    # Columns played so far, 0-based, in order.
    moves: tuple[int, ...] = ()
    winner: int | None = None
    line: tuple[Cell, ...] = ()

    @property
    def full(self) -> bool:
        return all(len(column) == self.rows for column in self.board)

    @property
    def over(self) -> bool:
        return self.winner is not None or self.full

    def disc(self, column: int, row: int) -> int | None:
        stack = self.board[column]
        return stack[row] if row < len(stack) else None


class ConnectFour(Engine[ConnectFourState, int]):
    slug = "connect-four"
    name = words("Connect Four")
    min_players = 2
    max_players = 2
    option_specs = (
        OptionSpec("columns", int, 7, words("board width"), minimum=4, maximum=12),
        OptionSpec("rows", int, 6, words("board height"), minimum=4, maximum=12),
        OptionSpec("connect", int, 4, words("discs in a row to win"), minimum=3, maximum=6),
    )

    def check_options(self, options: JSON) -> None:
        if options["connect"] > max(options["columns"], options["rows"]):
            raise BadOptions(words("a line of that length does not fit on the board"))

    def analyse(self, state: ConnectFourState, seconds: float) -> JSON | None:
        """The exact score of each column for the player to move, where it is known in time.

        Scores follow the benchmark files' convention (positive: the player
        to move wins, larger sooner; 0 a draw). A column's score comes from
        the opening book when the position after it is there (early
        positions, which the solver would take minutes over), else from the
        solver within ``seconds``; a full column, or one neither knows in
        time, is null. ``value`` is the position's exact score: the book's,
        or the best column's when every column was solved.
        """
        from .connect_four_book import opening_book
        from .connect_four_solver import Position, SearchAborted, Solver, geometry_of

        if self.outcome(state) is not None:
            return None
        geometry = geometry_of(state.columns, state.rows, state.connect)
        if geometry.columns * (geometry.rows + 1) > 64:
            return None
        position = Position.from_moves([move + 1 for move in state.moves], geometry)
        book = opening_book()
        solver = Solver(geometry, table_bits=22)
        solver.limit(seconds=seconds)
        scores: list[int | None] = []
        for column in range(geometry.columns):
            if not position.can_play(column):
                scores.append(None)
            elif position.is_winning_move(column):
                scores.append(position.win_now_score())
            elif (known := book.lookup(position.play(column))) is not None:
                scores.append(-known.score)
            else:
                try:
                    scores.append(-solver.solve(position.play(column)))
                except SearchAborted:
                    scores.append(None)
        solved = [score for column, score in enumerate(scores) if position.can_play(column)]
        value = max(solved) if solved and None not in solved else None  # type: ignore[type-var]
        if value is None and (here := book.lookup(position)) is not None:
            value = here.score
        return {"scores": scores, "value": value}

    def judge(self, before: JSON | None, after: JSON | None, seat: int, move: str) -> JSON | None:
        """A blunder is a move that changed the game's outcome: from a win to a draw or a
        loss, or from a draw to a loss, against the best column then."""
        if not before or before.get("value") is None or not move.isdigit():
            return None
        chosen = before["scores"][int(move) - 1]
        if chosen is None:
            return None

        def outcome(score: int) -> int:
            return (score > 0) - (score < 0)

        return {"score": chosen, "best": before["value"], "blunder": outcome(chosen) < outcome(before["value"])}

    def bot_levels(self) -> tuple[BotLevel, ...]:
        from .connect_four_bots import easy_bot, medium_bot
        from .connect_four_solver import perfect_bot

        return (
            *super().bot_levels(),
            BotLevel(
                term("AI level", "easy"),
                words("takes a win and blocks a threat when it sees one, often misses diagonals, never plans ahead"),
                easy_bot,
            ),
            BotLevel(
                term("AI level", "medium"),
                words("sees most threats and looks one reply ahead, but walks into traps set further away"),
                medium_bot,
            ),
            BotLevel(
                term("AI level", "perfect"),
                words("plays a best move from its opening book or an exact solve, else a deep search"),
                perfect_bot,
            ),
        )

    def initial_state(self, players: int, options: JSON, seed: int) -> ConnectFourState:
        columns, rows, connect = options["columns"], options["rows"], options["connect"]
        return ConnectFourState(columns, rows, connect, tuple(() for _ in range(columns)))

    def to_move(self, state: ConnectFourState) -> tuple[int, ...]:
        return () if state.over else (len(state.moves) % 2,)

    def legal_actions(self, state: ConnectFourState, seat: int) -> list[int]:
        if self.to_move(state) != (seat,):
            return []
        return [c for c in range(state.columns) if len(state.board[c]) < state.rows]

    def apply(self, state: ConnectFourState, seat: int, action: int) -> ConnectFourState:
        if state.over:
            raise IllegalMove(words("the game is over"))
        if self.to_move(state) != (seat,):
            raise IllegalMove(words("it is not your turn"))
        if not 0 <= action < state.columns:
            raise IllegalMove(
                words("there is no column %(column)s; columns are 1..%(columns)s", column=action + 1, columns=state.columns)
            )
        if len(state.board[action]) == state.rows:
            raise IllegalMove(words("column %(column)s is full", column=action + 1))
        board = list(state.board)
        board[action] = (*board[action], seat)
        after = ConnectFourState(
            state.columns, state.rows, state.connect, tuple(board), (*state.moves, action)
        )
        line = _line_through(after, action, len(board[action]) - 1)
        if line:
            return ConnectFourState(
                after.columns, after.rows, after.connect, after.board, after.moves, seat, line
            )
        return after

    def outcome(self, state: ConnectFourState) -> Outcome | None:
        if state.winner is not None:
            results = tuple(WIN if s == state.winner else LOSS for s in range(2))
            return Outcome(results, words("%(connect)s in a row", connect=state.connect))
        if state.full:
            return Outcome((DRAW, DRAW), words("the board is full"))
        return None

    def parse(self, state: ConnectFourState, text: str) -> int:
        stripped = text.strip() if isinstance(text, str) else ""
        # Bounded before int(): Python refuses to convert over 4,300 digits.
        if not stripped.isdigit() or not stripped.isascii() or len(stripped) > 3:
            raise BadNotation(
                words("a move is a column number 1..%(columns)s, not %(text)r", columns=state.columns, text=text)
            )
        return int(stripped) - 1

    def format(self, state: ConnectFourState, action: int) -> str:
        return str(action + 1)

    def join_moves(self, moves: Sequence[str]) -> str | None:
        """The digit string of the game (``4453``): one digit a move, which needs
        every column to be a single digit (boards of up to 9 columns)."""
        if not all(len(move) == 1 and move in "123456789" for move in moves):
            return None
        return "".join(moves)

    def split_moves(self, text: str) -> list[str] | None:
        return [digit for digit in text if not digit.isspace()]

    def describe(self, state: ConnectFourState, seat: int, action: int) -> str:
        return words("dropped a disc in column %(column)s", column=action + 1)

    def serialize(self, state: ConnectFourState) -> JSON:
        return {
            "columns": state.columns,
            "rows": state.rows,
            "connect": state.connect,
            "moves": [m + 1 for m in state.moves],
        }

    def deserialize(self, data: JSON) -> ConnectFourState:
        options = {"columns": data["columns"], "rows": data["rows"], "connect": data["connect"]}
        state = self.initial_state(2, options, 0)
        for column in data["moves"]:
            state = self.apply(state, self.to_move(state)[0], int(column) - 1)
        return state

    def view(self, state: ConnectFourState, seat: int | None) -> JSON:
        # grid[r][c] with r = 0 the top row, as a page draws it; None is empty.
        grid = [
            [state.disc(c, r) for c in range(state.columns)]
            for r in reversed(range(state.rows))
        ]
        last = state.moves[-1] if state.moves else None
        return {
            "columns": state.columns,
            "rows": state.rows,
            "connect": state.connect,
            "grid": grid,
            "to_move": list(self.to_move(state)),
            "last_move": None if last is None else {
                "column": last + 1,
                "row": len(state.board[last]),
            },
            "moves": [m + 1 for m in state.moves],
            "winning_cells": [
                {"column": c + 1, "row": r + 1} for c, r in state.line
            ],
        }


def play_sequence(text: str, options: JSON | None = None) -> ConnectFourState:
    """The position after a benchmark-style move string such as ``4453``."""
    engine = ConnectFour()
    state = engine.initial_state(2, engine.normalize_options(options), 0)
    for ply, char in enumerate(text):
        state = engine.apply(state, ply % 2, engine.parse(state, char))
    return state


def _line_through(state: ConnectFourState, column: int, row: int) -> tuple[Cell, ...]:
    """The winning cells through the disc at (column, row), or () if it makes no line."""
    seat = state.disc(column, row)
    for dc, dr in DIRECTIONS:
        cells = [(column, row)]
        for sign in (1, -1):
            c, r = column + sign * dc, row + sign * dr
            while 0 <= c < state.columns and 0 <= r < state.rows and state.disc(c, r) == seat:
                cells.append((c, r))
                c, r = c + sign * dc, r + sign * dr
        if len(cells) >= state.connect:
            return tuple(sorted(cells))
    return ()



if __name__ == "__main__":
    # ``python -m games.engines.connect_four analyse|bot ...``. The command
    # line is a module of its own, so that loading the rules loads no search;
    # imported by name because it imports this module (a cycle for mypy).
    import importlib

    raise SystemExit(importlib.import_module("games.engines.connect_four_cli").main())
