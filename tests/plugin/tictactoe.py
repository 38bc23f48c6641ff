"""Tic-tac-toe: a sixth game that exists only in the tests, to show a game plugs in.

Two players mark squares of a 3x3 grid in turn, X (seat 0) first; three in a
row, column or diagonal wins; a full grid without a line is a draw. Squares
are named a1..c3 (column letter, row number from the bottom).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engines.base import DRAW, JSON, LOSS, WIN, BadNotation, Engine, IllegalMove, Outcome

SQUARES = [f"{column}{row}" for row in "123" for column in "abc"]
LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
]


@dataclass(frozen=True)
class Grid:
    marks: tuple[int | None, ...]
    turn: int

    def line(self) -> int | None:
        for a, b, c in LINES:
            if self.marks[a] is not None and self.marks[a] == self.marks[b] == self.marks[c]:
                return self.marks[a]
        return None


class TicTacToe(Engine[Grid, int]):
    slug = "tic-tac-toe"
    name = "Tic-tac-toe"
    min_players = 2
    max_players = 2

    def initial_state(self, players: int, options: JSON, seed: int) -> Grid:
        return Grid((None,) * 9, 0)

    def to_move(self, state: Grid) -> tuple[int, ...]:
        return () if self.outcome(state) else (state.turn,)

    def legal_actions(self, state: Grid, seat: int) -> list[int]:
        if seat not in self.to_move(state):
            return []
        return [square for square, mark in enumerate(state.marks) if mark is None]

    def apply(self, state: Grid, seat: int, action: int) -> Grid:
        if seat not in self.to_move(state):
            raise IllegalMove("it is not this seat's turn")
        if state.marks[action] is not None:
            raise IllegalMove(f"{SQUARES[action]} is taken")
        marks = list(state.marks)
        marks[action] = seat
        return Grid(tuple(marks), 1 - seat)

    def outcome(self, state: Grid) -> Outcome | None:
        winner = state.line()
        if winner is not None:
            return Outcome(tuple(WIN if seat == winner else LOSS for seat in range(2)), "three in a row")
        if all(mark is not None for mark in state.marks):
            return Outcome((DRAW, DRAW), "the grid is full")
        return None

    def parse(self, state: Grid, text: str) -> int:
        cleaned = text.strip().lower() if isinstance(text, str) else ""
        if cleaned not in SQUARES:
            raise BadNotation(f"{text!r} is not a square: squares are a1..c3")
        return SQUARES.index(cleaned)

    def format(self, state: Grid, action: int) -> str:
        return SQUARES[action]

    def describe(self, state: Grid, seat: int, action: int) -> str:
        return f"{'XO'[seat]} on {SQUARES[action]}"

    def serialize(self, state: Grid) -> JSON:
        return {"marks": list(state.marks), "turn": state.turn}

    def deserialize(self, data: JSON) -> Grid:
        return Grid(tuple(data["marks"]), data["turn"])

    def view(self, state: Grid, seat: int | None) -> JSON:
        return {"grid": ["".join("XO"[m] if m is not None else "." for m in state.marks[r * 3 : r * 3 + 3]) for r in range(3)]}
