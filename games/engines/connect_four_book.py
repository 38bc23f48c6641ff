"""The opening book of the ``perfect`` Connect Four bot (7x6, lines of four).

Early positions take the solver far longer than a bot may think, so their
answers are computed beforehand by our own solver (bench/connect_four_book.py
builds the file) and shipped with the package: connect_four_book.txt.

Only positions the bot can meet are in it. The bot's own moves are its
choice, so after each of them the book follows that one move; the opponent's
are anyone's, so it follows every reply. Mirror images share an entry: the
position and its reflection are stored once, under the smaller key.

Each line of the file: the position's key in hex (``current + mask`` of the
bitboards, the solver's key, in the stored orientation), the column the bot
plays (1-based, in that orientation), the position's exact score, and the
moves of one game that reaches the position (in that orientation), so that a
check can replay and re-solve it. Lines starting with ``#`` are comments.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .connect_four_solver import STANDARD, Geometry, Position

BOOK_FILE = Path(__file__).with_name("connect_four_book.txt")


@dataclass(frozen=True)
class BookMove:
    """What the book says of a position: a best column (0-based) and the score."""

    column: int
    score: int


@dataclass(frozen=True)
class BookLine:
    """One line of the book file, in its stored orientation."""

    key: int
    column: int  # 0-based
    score: int
    moves: str

    def format(self) -> str:
        return f"{self.key:x} {self.column + 1} {self.score} {self.moves}"

    @classmethod
    def parse(cls, text: str) -> BookLine:
        key, column, score, *moves = text.split()
        return cls(int(key, 16), int(column) - 1, int(score), moves[0] if moves else "")


def mirror(position: Position) -> Position:
    """The position reflected left to right (same disc count, same player to move)."""
    geometry = position.geometry
    current = mask = 0
    last = geometry.columns - 1
    for column, column_mask in enumerate(geometry.column_masks):
        shift = (last - 2 * column) * geometry.stride
        if shift >= 0:
            current |= (position.current & column_mask) << shift
            mask |= (position.mask & column_mask) << shift
        else:
            current |= (position.current & column_mask) >> -shift
            mask |= (position.mask & column_mask) >> -shift
    return Position(geometry, current, mask, position.moves)


def canonical(position: Position) -> tuple[int, bool]:
    """The book key of a position and whether it is stored as the mirror image."""
    key = position.current + position.mask
    mirrored = mirror(position)
    mirror_key = mirrored.current + mirrored.mask
    return (mirror_key, True) if mirror_key < key else (key, False)


def position_of_key(key: int, geometry: Geometry = STANDARD) -> Position:
    """The position a key names (the inverse of ``current + mask``, in the key's orientation).

    Each column's bits of the key are its own discs plus the ``2**h - 1`` of
    its mask, h discs high: below ``2**(h + 1)``, so no column carries into
    the next, and h is where the top bit of that plus one lies.
    """
    height = geometry.rows + 1
    current = mask = moves = 0
    for column in range(geometry.columns):
        bits = (key >> (column * height)) & ((1 << height) - 1)
        discs = (bits + 1).bit_length() - 1
        current |= (bits + 1 - (1 << discs)) << (column * height)
        mask |= ((1 << discs) - 1) << (column * height)
        moves += discs
    return Position(geometry, current, mask, moves)


def mirror_moves(moves: str, columns: int = 7) -> str:
    return "".join(str(columns + 1 - int(char)) for char in moves)


class Book:
    """The entries of a book file, looked up by position."""

    def __init__(self, lines: list[BookLine]) -> None:
        self.lines = {line.key: line for line in lines}

    def __len__(self) -> int:
        return len(self.lines)

    def lookup(self, position: Position) -> BookMove | None:
        if position.geometry is not STANDARD and (
            position.geometry.columns, position.geometry.rows, position.geometry.connect
        ) != (7, 6, 4):
            return None
        key, mirrored = canonical(position)
        line = self.lines.get(key)
        if line is None:
            return None
        column = position.geometry.columns - 1 - line.column if mirrored else line.column
        return BookMove(column, line.score)

    @classmethod
    def read(cls, path: Path) -> Book:
        return cls(read_lines(path))


def read_lines(path: Path) -> list[BookLine]:
    if not path.exists():
        return []
    return [
        BookLine.parse(text)
        for text in path.read_text().splitlines()
        if text.strip() and not text.startswith("#")
    ]


@cache
def opening_book() -> Book:
    """The book shipped with the package (empty if the file is missing)."""
    return Book.read(BOOK_FILE)
