"""Sokoban levels: reading, validating and writing them.

Two input formats are read:

* XSB, the common text format: ``#`` wall, ``@`` player, ``+`` player on a
  goal, ``$`` box, ``*`` box on a goal, ``.`` goal, and space, ``-`` or ``_``
  floor. A file may hold many levels; a level is a run of board lines, and any
  other line (blank, a ``;`` comment, a title) ends it. Collections are
  written two ways, and both are read as published: the SOK way puts a
  level's notes (``Title:``, ``Author:``, a ``Comment:`` ... ``Comment-End:``
  block) right after its board, up to the first blank line; the Microban way
  puts a quoted title (``'Duh!'``) or a ``; 12`` comment before it. So a
  level's title is its own ``Title:`` note, else a ``Title:`` or quoted line
  before its board, else the last ``;`` comment before it (Microban's ``; 12``
  gives level 12 the title ``12``), else the last plain text line before it.
  Its author is its own ``Author:`` note, else one before its board, else one
  in the file's opening notes (SokHard's ``author:Lee J Haywood`` covers the
  whole file). Other lines (copyright notes, web sites, comment blocks) are
  read past.
* The original program's numeric map: ``COLUMNS ROWS`` then one digit per
  cell, row by row: ``0`` floor, ``1`` wall, ``2`` box, ``3`` goal, ``4`` empty
  outside the walls, ``5`` player. Whitespace anywhere is ignored, so one level
  per text (the next header could not be told from the cells).

Levels are always written out in XSB, floor as a space.

A level is accepted only if it has exactly one player, at least one box, as
many boxes as goals, and the player's area is closed by walls: a flood fill
from the player through everything but walls (boxes can move, so they do not
close anything) must not reach the edge of the board. Boards larger than
``MAX_SIDE`` squares a side are refused before any work is done, so an upload
cannot make the server allocate a huge grid. Whether the level can be solved
is not checked here (see ``solver.verify_level``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..words import words

# (column, row), 0-based, row 0 at the top as the level is written.
Cell = tuple[int, int]

MAX_SIDE = 100
# A 100 x 100 board with a title and separators stays far below this; a single
# level text above it is refused before it is scanned.
MAX_LEVEL_CHARS = 40_000
# A collection file (Microban II's mega levels included) stays below this.
MAX_COLLECTION_CHARS = 5_000_000

WALL = "#"
PLAYER = "@"
PLAYER_ON_GOAL = "+"
BOX = "$"
BOX_ON_GOAL = "*"
GOAL = "."
FLOOR = " "
BOARD_CHARS = frozenset("#@+$*.-_ ")

# The numeric format's digits, in the original program's order.
NUMERIC_CELLS = {"0": FLOOR, "1": WALL, "2": BOX, "3": GOAL, "4": FLOOR, "5": PLAYER}
_NUMERIC_RE = re.compile(r"\A\s*(\d+)\s+(\d+)(?:\s|\Z)")


class LevelError(ValueError):
    """The text is not a playable level; the message (words) says why, for the uploader."""

    @property
    def message(self) -> str:
        """The message as raised (``Words``), for the uploader's language."""
        first = self.args[0] if len(self.args) == 1 else None
        return first if isinstance(first, str) else str(self)


@dataclass(frozen=True)
class Level:
    """A level as written: walls, goals, boxes and the player on a width x height board."""

    width: int
    height: int
    walls: frozenset[Cell]
    goals: frozenset[Cell]
    boxes: frozenset[Cell]
    player: Cell
    title: str = ""
    author: str = ""

    @cached_property
    def inside(self) -> frozenset[Cell]:
        """The squares the player's area covers: reachable through anything but walls."""
        return frozenset(_flood(self.player, self.walls, self.width, self.height)[0])

    def to_xsb(self, *, title: bool = True) -> str:
        """The level in XSB, with its title as a ``;`` comment line and its author as a note
        when it has them (``title=False``: the board alone)."""
        rows = []
        for y in range(self.height):
            row = "".join(self.symbol((x, y)) for x in range(self.width))
            rows.append(row.rstrip())
        text = "\n".join(rows) + "\n"
        if title and self.title:
            text = f"; {self.title}\n" + text
        if title and self.author:
            text += f"Author: {self.author}\n"
        return text

    def symbol(self, cell: Cell) -> str:
        if cell in self.walls:
            return WALL
        goal = cell in self.goals
        if cell == self.player:
            return PLAYER_ON_GOAL if goal else PLAYER
        if cell in self.boxes:
            return BOX_ON_GOAL if goal else BOX
        return GOAL if goal else FLOOR

    @property
    def solved(self) -> bool:
        return self.boxes == self.goals


def parse_level(text: str) -> Level:
    """The one level in ``text`` (XSB or numeric); LevelError says what is wrong."""
    if not isinstance(text, str):
        raise LevelError(words("a level must be given as text"))
    if len(text) > MAX_LEVEL_CHARS:
        raise LevelError(
            words(
                "the level text is %(count)s characters long; at most %(maximum)s are accepted",
                count=len(text),
                maximum=MAX_LEVEL_CHARS,
            )
        )
    if not text.strip():
        raise LevelError(words("the level is empty"))
    if _NUMERIC_RE.match(text):
        return parse_numeric(text)
    levels = parse_levels(text)
    if len(levels) != 1:
        raise LevelError(words("the text holds %(count)s levels; give exactly one", count=len(levels)))
    return levels[0]


def parse_levels(text: str) -> list[Level]:
    """Every level of an XSB collection, in order; LevelError names the first bad one."""
    if len(text) > MAX_COLLECTION_CHARS:
        raise LevelError(words("the file is larger than %(maximum)s characters", maximum=MAX_COLLECTION_CHARS))
    if not text.strip():
        raise LevelError(words("the level is empty"))
    if _NUMERIC_RE.match(text):
        return [parse_numeric(text)]
    boards = list(split_boards(text))
    if not boards:
        raise LevelError(words("no level found: a level needs rows of # walls"))
    levels = []
    for number, (title, author, rows) in enumerate(boards, start=1):
        try:
            levels.append(level_from_rows(rows, title, author))
        except LevelError as error:
            if len(boards) == 1:
                raise
            raise LevelError(words("level %(level)s: %(error)s", level=number, error=error.message)) from None
    return levels


def load_levels(path: str | Path) -> list[Level]:
    return parse_levels(Path(path).read_text(encoding="utf-8"))


def split_boards(text: str) -> Iterable[tuple[str, str, list[str]]]:
    """(title, author, board rows) for each run of board lines in an XSB text."""
    # Each board with the text lines before it (since the previous board's
    # notes) and its own notes after it.
    boards: list[tuple[list[str], list[str], list[str]]] = []
    before: list[str] = []
    rows: list[str] = []
    notes: list[str] | None = None
    in_comment = False
    for raw in text.splitlines():
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        if in_comment:
            # A comment block may hold anything, even lines that look like a board.
            in_comment = _key(stripped)[0] != "comment-end"
            if notes is not None:
                notes.append(line)
            continue
        if _is_board_line(line):
            if notes is not None:
                notes = None
            rows.append(line)
            continue
        if rows:
            notes = []
            boards.append((before, rows, notes))
            before, rows = [], []
        if not stripped or stripped.startswith(";"):
            # A blank line ends a board's notes; a ``;`` comment is never
            # one of them but opens the next level's text.
            notes = None
            if not stripped:
                continue
        key, value = _key(stripped)
        if key == "comment" and not value:
            in_comment = True
        if notes is not None:
            notes.append(stripped)
        else:
            before.append(stripped)
    if rows:
        boards.append((before, rows, []))
    default_author = _author(boards[0][0]) if boards else ""
    for before, rows, notes in boards:
        title = _title(notes, before)
        author = _author(notes) or _author(before) or default_author
        yield title, author, rows


def _key(line: str) -> tuple[str, str]:
    """A note line's key (lower case) and value: ``Title: Egg`` is ("title", "Egg")."""
    match = _NOTE_RE.match(line)
    if match is None:
        return "", line
    return match.group(1).strip().lower(), match.group(2).strip()


_NOTE_RE = re.compile(r"\A([A-Za-z][A-Za-z -]*):(.*)\Z")


def _title(notes: list[str], before: list[str]) -> str:
    for lines in (notes, before):
        for line in reversed(lines):
            key, value = _key(line)
            if key == "title" and value:
                return _unquoted(value)
    for line in reversed(before):
        if len(line) >= 2 and line[0] == line[-1] and line[0] in "'\"":
            return _unquoted(line)
    for line in reversed(before):
        if line.startswith(";") and line[1:].strip(" ;-=*"):
            return line[1:].strip()
    for line in reversed(before):
        if not line.startswith(";") and not _key(line)[0]:
            return line
    return ""


def _author(lines: list[str]) -> str:
    for line in lines:
        key, value = _key(line)
        if key == "author" and value:
            return value
    return ""


def _is_board_line(line: str) -> bool:
    # A row must show a wall: every row that crosses a closed area does, and
    # this keeps a title such as "..." or "---" from being read as a board.
    return WALL in line and set(line) <= BOARD_CHARS


def _unquoted(line: str) -> str:
    if len(line) >= 2 and line[0] == line[-1] and line[0] in "'\"":
        return line[1:-1].strip()
    return line


def level_from_rows(rows: list[str], title: str = "", author: str = "") -> Level:
    """Validate XSB board rows and build the level, cropped to the squares that matter."""
    height = len(rows)
    width = max((len(row) for row in rows), default=0)
    _check_size(width, height)
    walls: set[Cell] = set()
    goals: set[Cell] = set()
    boxes: set[Cell] = set()
    players: list[Cell] = []
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char == WALL:
                walls.add((x, y))
            elif char in (PLAYER, PLAYER_ON_GOAL):
                players.append((x, y))
            elif char in (BOX, BOX_ON_GOAL):
                boxes.add((x, y))
            elif char not in "-_ .":
                raise LevelError(words("unknown square %(square)r in row %(row)s", square=char, row=y + 1))
            if char in (GOAL, PLAYER_ON_GOAL, BOX_ON_GOAL):
                goals.add((x, y))
    return _validated(width, height, walls, goals, boxes, players, title, author)


def parse_numeric(text: str) -> Level:
    """A level in the original program's numeric format (``COLUMNS ROWS`` then digits)."""
    match = _NUMERIC_RE.match(text)
    if match is None:
        raise LevelError(words("a numeric level starts with its size: COLUMNS ROWS"))
    width, height = int(match.group(1)), int(match.group(2))
    _check_size(width, height)
    cells = "".join(text[match.end():].split())
    bad = next((c for c in cells if c not in NUMERIC_CELLS), None)
    if bad is not None:
        raise LevelError(words("unknown square %(square)r; the numeric format uses the digits 0-5", square=bad))
    if len(cells) != width * height:
        raise LevelError(
            words(
                "a %(width)s x %(height)s level needs %(needed)s squares, but %(count)s are given",
                width=width,
                height=height,
                needed=width * height,
                count=len(cells),
            )
        )
    rows = [
        "".join(NUMERIC_CELLS[c] for c in cells[y * width:(y + 1) * width]) for y in range(height)
    ]
    return level_from_rows(rows)


def _check_size(width: int, height: int) -> None:
    if width == 0 or height == 0:
        raise LevelError(words("the level is empty"))
    if width > MAX_SIDE or height > MAX_SIDE:
        raise LevelError(
            words(
                "the board is %(width)s x %(height)s squares; the largest accepted is %(maximum)s x %(maximum)s",
                width=width,
                height=height,
                maximum=MAX_SIDE,
            )
        )


def _validated(
    width: int,
    height: int,
    walls: set[Cell],
    goals: set[Cell],
    boxes: set[Cell],
    players: list[Cell],
    title: str,
    author: str = "",
) -> Level:
    if not players:
        raise LevelError(words("the level has no player (@, or + on a goal)"))
    if len(players) > 1:
        raise LevelError(words("the level has %(count)s players; it needs exactly one", count=len(players)))
    if not boxes:
        raise LevelError(words("the level has no box"))
    if len(boxes) != len(goals):
        raise LevelError(
            words(
                "the level has %(boxes)s but %(goals)s; it needs as many of each",
                boxes=words("1 box") if len(boxes) == 1 else words("%(count)s boxes", count=len(boxes)),
                goals=words("1 goal") if len(goals) == 1 else words("%(count)s goals", count=len(goals)),
            )
        )
    player = players[0]
    _, leak = _flood(player, walls, width, height)
    if leak is not None:
        raise LevelError(
            words(
                "the player's area is not closed by walls: it is open at column %(column)s, row %(row)s",
                column=leak[0] + 1,
                row=leak[1] + 1,
            )
        )
    # Crop to the squares that carry something, so that equal levels written
    # with different margins are equal values and round-trip through XSB.
    used = walls | goals | boxes | {player}
    left = min(x for x, _ in used)
    top = min(y for _, y in used)
    right = max(x for x, _ in used)
    bottom = max(y for _, y in used)

    def moved(cells: set[Cell]) -> frozenset[Cell]:
        return frozenset((x - left, y - top) for x, y in cells)

    return Level(
        right - left + 1,
        bottom - top + 1,
        moved(walls),
        moved(goals),
        moved(boxes),
        (player[0] - left, player[1] - top),
        title,
        author,
    )


def _flood(
    start: Cell, walls: set[Cell] | frozenset[Cell], width: int, height: int
) -> tuple[set[Cell], Cell | None]:
    """Squares reachable from ``start`` through non-walls, and the first one on the edge."""
    seen = {start}
    stack = [start]
    leak: Cell | None = None
    while stack:
        x, y = stack.pop()
        if x in (0, width - 1) or y in (0, height - 1):
            # On the board's edge without a wall: the player could walk off it.
            if leak is None or (y, x) < (leak[1], leak[0]):
                leak = (x, y)
            continue
        for nxt in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if nxt not in seen and nxt not in walls:
                seen.add(nxt)
                stack.append(nxt)
    return seen, leak
