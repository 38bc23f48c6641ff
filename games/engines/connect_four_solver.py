"""A Connect Four solver and the ``perfect`` bot built on it.

The solver computes the exact score of a position under best play on both
sides, with the convention of the benchmark files in shared/data/connect4: 0 is
a draw; a positive score means the player to move wins, ``(cells + 1 - n) // 2``
where ``n`` is the number of stones on the board when the winner drops the
winning disc (on 7x6 that is 22 minus the winner's own stones, winning one
included); a negative score is the same for the opponent.

How it searches (the ideas of the best-known public solver, written afresh):

- A position is two integers: the discs of the player to move and all discs.
  Each column takes ``rows + 1`` bits, the extra bit a sentinel that is never
  set, so shifting a line of discs past the top of a column lands on an empty
  bit instead of the bottom of the next column.
- Negamax with alpha-beta. The true score lies within bounds known from the
  number of discs alone, and the window is clamped to them first.
- The score is found by a sequence of null-window searches (is the score
  above ``x``?) that narrow the range known from the disc count; while the
  range straddles 0 the probe goes to half its far end rather than to its
  middle, because a window far from the true score is cheap to settle.
- A transposition table keeps the lower and upper bounds proved for each
  position seen (two dicts in Python; a fixed array in C, where a newer
  position takes an older one's slot).
- Moves are tried by the number of winning squares they create for the mover,
  the centre column first among equals.
- Moves that let the opponent win at once are never searched: a square below
  an opponent's winning square is not played, a single opponent threat must
  be blocked, and two are a loss found without searching.

The search runs in a compiled core (games/engines/_c4core.c, the same
negamax in C, plus the column that last proved a bound in each table entry,
tried first the next time) when the install built it, and in pure Python
otherwise: same answers, about 30x slower. Both are exercised by the tests.

The bot (``choose``/``best_move``, registered as the ``perfect`` level) plays,
in this order: a win at once; the one move that does not lose at once; on
7x6 the opening book's move (connect_four_book.py, built by our own solver
ahead of time for the positions the bot can meet where the solve would take
too long); the exact solve, if it finishes within 85% of its CPU-time
budget; and otherwise the choice of a depth-limited search with a simple
evaluation (winning squares and discs on cells that many lines cross),
deepening until the budget is spent: strong, not perfect. Where the book
runs out before the solve is fast enough (see docs/benchmarks.md for how far
the shipped book goes), and on other board sizes, that last step can happen.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from .base import Engine
from .connect_four import ConnectFourState


class SearchAborted(Exception):
    """The search ran out of time or nodes; the bounds it stored are still true."""


class Geometry:
    """Bit layout of one board size; ``connect`` discs in a row win."""

    def __init__(self, columns: int = 7, rows: int = 6, connect: int = 4) -> None:
        self.columns = columns
        self.rows = rows
        self.connect = connect
        self.cells = columns * rows
        self.stride = rows + 1
        self.bottom = sum(1 << (column * self.stride) for column in range(columns))
        self.board = self.bottom * ((1 << rows) - 1)
        self.column_masks = tuple(
            ((1 << rows) - 1) << (column * self.stride) for column in range(columns)
        )
        # Centre first, then outwards, left before right: central discs take
        # part in more lines, so they are the likelier best moves.
        self.order = tuple(
            sorted(range(columns), key=lambda column: (abs(2 * column - columns + 1), column))
        )
        # Vertical, horizontal and the two diagonals, as bit shifts.
        self.directions = (1, self.stride, self.stride - 1, self.stride + 1)
        # For the evaluation: cells grouped by how many lines run through them.
        self.weight_masks = _weight_masks(self)

    @property
    def standard(self) -> bool:
        return (self.columns, self.rows, self.connect) == (7, 6, 4)

    def threats(self, stones: int, mask: int) -> int:
        """Empty cells that would complete a line of ``stones`` (playable now or not)."""
        if self.connect == 4:
            return _threats_of_four(stones, mask, self.stride, self.board)
        return _threats_any_length(stones, mask, self)


def _threats_of_four(stones: int, mask: int, stride: int, board: int) -> int:
    # Vertical: only three discs right below the cell can make it a threat.
    found = (stones << 1) & (stones << 2) & (stones << 3)
    # Then each other direction: ``stones << k*step`` marks the cell k steps
    # after a disc, ``>>`` the cell k steps before one. A threat has three discs
    # around it in one of the four ways a cell sits in a line of four: three
    # behind, two behind and one ahead, and the mirror images.
    for step in (stride, stride - 1, stride + 1):
        behind = stones << step
        ahead = stones >> step
        two_behind = behind & (stones << 2 * step)
        two_ahead = ahead & (stones >> 2 * step)
        found |= two_behind & ((stones << 3 * step) | ahead)
        found |= two_ahead & ((stones >> 3 * step) | behind)
    return found & (board ^ mask)


def _threats_any_length(stones: int, mask: int, geometry: Geometry) -> int:
    length = geometry.connect
    found = 0
    for shift in geometry.directions:
        # near[k]: cells whose neighbour k steps along the direction holds a disc.
        near = {
            k: (stones >> (k * shift)) if k > 0 else (stones << (-k * shift))
            for k in range(1 - length, length)
            if k
        }
        for first in range(1 - length, 1):
            line = -1
            for k in range(first, first + length):
                if k:
                    line &= near[k]
            found |= line
    return found & (geometry.board ^ mask)


def _weight_masks(geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """(lines through a cell, mask of such cells), for cells in at least one line."""
    lines_through: dict[int, int] = {}
    steps = ((0, 1), (1, 0), (1, 1), (1, -1))
    for column in range(geometry.columns):
        for row in range(geometry.rows):
            for dc, dr in steps:
                cells = [(column + k * dc, row + k * dr) for k in range(geometry.connect)]
                if all(0 <= c < geometry.columns and 0 <= r < geometry.rows for c, r in cells):
                    for c, r in cells:
                        bit = c * geometry.stride + r
                        lines_through[bit] = lines_through.get(bit, 0) + 1
    masks: dict[int, int] = {}
    for bit, count in lines_through.items():
        masks[count] = masks.get(count, 0) | (1 << bit)
    return tuple(sorted(masks.items()))


STANDARD = Geometry()


@cache
def geometry_of(columns: int, rows: int, connect: int) -> Geometry:
    """One Geometry per board size, so positions and solvers of a size can be shared."""
    return STANDARD if (columns, rows, connect) == (7, 6, 4) else Geometry(columns, rows, connect)


# --- positions ---------------------------------------------------------------------


class Position:
    """A board as bitboards: ``current`` holds the discs of the player to move."""

    __slots__ = ("geometry", "current", "mask", "moves")

    def __init__(self, geometry: Geometry = STANDARD, current: int = 0, mask: int = 0,
                 moves: int = 0) -> None:
        self.geometry = geometry
        self.current = current
        self.mask = mask
        self.moves = moves

    @classmethod
    def from_moves(cls, moves: str | Sequence[int], geometry: Geometry = STANDARD) -> Position:
        """The position after 1-based column moves (``"4453"`` or ``[4, 4, 5, 3]``).

        ValueError for a column that does not exist or is full, and for a move
        that wins: a finished game has nothing left to solve.
        """
        columns = [int(char) for char in moves] if isinstance(moves, str) else list(moves)
        position = cls(geometry)
        for number, column in enumerate(columns, start=1):
            if not 1 <= column <= geometry.columns:
                raise ValueError(f"move {number}: there is no column {column}")
            if not position.can_play(column - 1):
                raise ValueError(f"move {number}: column {column} is full")
            if position.is_winning_move(column - 1):
                raise ValueError(f"move {number} wins the game: there is nothing to solve")
            position = position.play(column - 1)
        return position

    def playable(self) -> int:
        return (self.mask + self.geometry.bottom) & self.geometry.board

    def can_play(self, column: int) -> bool:
        return not self.mask & (self.geometry.column_masks[column] & ~(
            self.geometry.column_masks[column] >> 1))

    def move_bit(self, column: int) -> int:
        return self.playable() & self.geometry.column_masks[column]

    def is_winning_move(self, column: int) -> bool:
        return bool(self.geometry.threats(self.current, self.mask) & self.move_bit(column))

    def play(self, column: int) -> Position:
        bit = self.move_bit(column)
        if not bit:
            raise ValueError(f"column {column + 1} is full")
        return Position(self.geometry, self.current ^ self.mask, self.mask | bit, self.moves + 1)

    def legal_columns(self) -> list[int]:
        return [c for c in self.geometry.order if self.move_bit(c)]

    def winning_columns(self) -> list[int]:
        wins = self.geometry.threats(self.current, self.mask) & self.playable()
        return [c for c in self.geometry.order if wins & self.geometry.column_masks[c]]

    def non_losing_columns(self) -> list[int]:
        """Columns after which the opponent cannot win at once (the mover cannot win now)."""
        geometry = self.geometry
        danger = geometry.threats(self.current ^ self.mask, self.mask)
        playable = self.playable()
        forced = playable & danger
        if forced & (forced - 1):
            return []
        safe = (forced or playable) & ~(danger >> 1)
        return [c for c in geometry.order if safe & geometry.column_masks[c]]

    @property
    def full(self) -> bool:
        return self.moves >= self.geometry.cells

    def win_now_score(self) -> int:
        """The score of winning with the next disc."""
        return (self.geometry.cells + 1 - self.moves) // 2


# --- the exact solver -----------------------------------------------------------------


def _compiled_core(geometry: Geometry, table_bits: int) -> Any:
    """The compiled search for ``geometry``, or None (not built, or the board is too big)."""
    try:
        from . import _c4core  # type: ignore[attr-defined]
    except ImportError:
        return None
    if geometry.columns * geometry.stride > 64:
        return None
    return _c4core.Solver(geometry.columns, geometry.rows, geometry.connect, table_bits)


class Solver:
    """Exact scores of positions on one board size; reuse it to keep its table.

    The search runs in the compiled core (``_c4core``, built by the install
    from games/engines/_c4core.c) when it is there and the board fits in 64
    bits; otherwise in pure Python, ~50x slower, with the same answers.
    ``compiled=False`` asks for the pure-Python search, ``True`` insists on
    the compiled one (ValueError if it cannot be had).

    ``limit`` bounds the calls made after it (SearchAborted when exceeded);
    its seconds are CPU seconds of the calling thread, so a busy machine
    slows the bot's answer but does not make it give up on an exact one.
    ``nodes`` counts the positions searched since the last ``reset``.
    """

    # How many nodes between two looks at the clock and the table size.
    CHECK_EVERY = 2048
    # Bounds kept before the table starts afresh (~200 bytes each in CPython);
    # forgetting bounds costs time, never correctness.
    MAX_ENTRIES = 1_000_000

    def __init__(self, geometry: Geometry = STANDARD, *, compiled: bool | None = None,
                 table_bits: int = 23) -> None:
        self.geometry = geometry
        self.lower: dict[int, int] = {}
        self.upper: dict[int, int] = {}
        self.deadline: float | None = None
        self.max_nodes: int | None = None
        self.core = _compiled_core(geometry, table_bits) if compiled is not False else None
        if compiled and self.core is None:
            raise ValueError("the compiled solver is not available for this board")
        self._search, self._count = self._build_search()

    @property
    def compiled(self) -> bool:
        return self.core is not None

    @property
    def nodes(self) -> int:
        return self.core.nodes if self.core is not None else self._count(None)

    def reset(self) -> None:
        if self.core is not None:
            self.core.reset()
        self.lower.clear()
        self.upper.clear()
        self._count(0)

    def limit(self, *, seconds: float | None = None, max_nodes: int | None = None) -> None:
        self.deadline = None if seconds is None else time.thread_time() + seconds
        self.max_nodes = None if max_nodes is None else self.nodes + max_nodes
        if self.core is not None:
            self.core.limit(-1.0 if seconds is None else seconds, max_nodes or 0)

    # The search is a closure over locals: attribute and global look-ups cost
    # more than the arithmetic in CPython, and this runs millions of times.
    def _build_search(
        self,
    ) -> tuple[Callable[[int, int, int, int, int, int], int], Callable[[int | None], int]]:
        geometry = self.geometry
        cells = geometry.cells
        bottom = geometry.bottom
        board = geometry.board
        stride = geometry.stride
        lower_bounds = self.lower
        upper_bounds = self.upper
        order_masks = tuple(geometry.column_masks[c] for c in geometry.order)
        four = geometry.connect == 4
        check_every = self.CHECK_EVERY
        max_entries = self.MAX_ENTRIES
        solver = self
        nodes = 0

        def count(value: int | None) -> int:
            nonlocal nodes
            if value is not None:
                nodes = value
            return nodes

        def check_budget() -> None:
            if len(lower_bounds) + len(upper_bounds) > max_entries:
                lower_bounds.clear()
                upper_bounds.clear()
            if solver.max_nodes is not None and nodes >= solver.max_nodes:
                raise SearchAborted("node budget spent")
            if solver.deadline is not None and time.thread_time() >= solver.deadline:
                raise SearchAborted("time budget spent")

        def negamax(
            current: int, mask: int, moves: int, alpha: int, beta: int, danger: int
        ) -> int:
            # ``danger``: the opponent's winning squares, computed by the
            # caller, which needed them to order its moves anyway.
            # Precondition: the player to move cannot win with this disc (the
            # caller checked), so the best it can hope for is winning later.
            nonlocal nodes
            nodes += 1
            if not nodes % check_every:
                check_budget()
            playable = (mask + bottom) & board
            forced = playable & danger
            if forced:
                if forced & (forced - 1):
                    # Two squares to block at once: the opponent wins next.
                    return -((cells - moves) // 2)
                playable = forced
            # Never fill the square right below an opponent's winning square.
            safe = playable & ~(danger >> 1)
            if not safe:
                return -((cells - moves) // 2)
            if moves >= cells - 2:
                # Both remaining discs are safe and neither can win: a draw.
                return 0
            # The opponent cannot win with its next disc (only safe moves are
            # played), so at worst it wins with the one after.
            floor = -((cells - 2 - moves) // 2)
            if alpha < floor:
                alpha = floor
                if alpha >= beta:
                    return alpha
            ceiling = (cells - 1 - moves) // 2
            key = current + mask
            bound = upper_bounds.get(key)
            if bound is not None and bound < ceiling:
                ceiling = bound
            if beta > ceiling:
                beta = ceiling
                if alpha >= beta:
                    return beta
            bound = lower_bounds.get(key)
            if bound is not None and bound > alpha:
                alpha = bound
                if alpha >= beta:
                    return alpha

            # Most new winning squares for the mover first; among equals the
            # centre first (the rank breaks ties, as it is never equal).
            children: list[tuple[int, int, int, int]] = []
            rank = 0
            for column_mask in order_masks:
                move = safe & column_mask
                if move:
                    if four:
                        threats = _threats_of_four(current | move, mask | move, stride, board)
                    else:
                        threats = _threats_any_length(current | move, mask | move, geometry)
                    children.append((threats.bit_count(), rank, move, threats))
                    rank -= 1
            if rank < -1:
                children.sort(reverse=True)
            opponent = current ^ mask
            for _, _, move, threats in children:
                score = -negamax(opponent, mask | move, moves + 1, -beta, -alpha, threats)
                if score >= beta:
                    lower_bounds[key] = score
                    return score
                if score > alpha:
                    alpha = score
            upper_bounds[key] = alpha
            return alpha

        return negamax, count

    def window(self, position: Position, alpha: int, beta: int) -> int:
        """A score within [alpha, beta]: exact if inside, else the bound it proves."""
        if position.geometry is not self.geometry:
            raise ValueError("the position is for another board size")
        if position.full:
            return 0
        if position.winning_columns():
            return position.win_now_score()
        if self.core is not None:
            score: int | None = self.core.search(
                position.current, position.mask, position.moves, alpha, beta
            )
            if score is None:
                raise SearchAborted("budget spent")
            return score
        danger = self.geometry.threats(position.current ^ position.mask, position.mask)
        return self._search(position.current, position.mask, position.moves, alpha, beta, danger)

    def solve(self, position: Position, *, weak: bool = False) -> int:
        """The exact score (weak: only its sign, -1, 0 or 1)."""
        if position.full:
            return 0
        if position.winning_columns():
            return 1 if weak else position.win_now_score()
        cells, moves = self.geometry.cells, position.moves
        low = -((cells - moves) // 2)
        high = (cells + 1 - moves) // 2
        if weak:
            low, high = -1, 1
        while low < high:
            probe = low + (high - low) // 2
            # Probe at half the bound rather than at the midpoint while the
            # midpoint is near 0: a window far from the true score is cheap to
            # settle, so the range shrinks geometrically towards the score,
            # and each probe leaves bounds in the table for the next.
            if probe <= 0 and -(-low // 2) < probe:
                probe = -(-low // 2)
            elif probe >= 0 and high // 2 > probe:
                probe = high // 2
            value = self.window(position, probe, probe + 1)
            if value <= probe:
                high = value
            else:
                low = value
        # A weak search may prove more than its window asked (a quick loss).
        return max(-1, min(1, low)) if weak else low

    def best_columns(self, position: Position) -> tuple[int, list[int]]:
        """The exact score and every column (0-based) that keeps it."""
        wins = position.winning_columns()
        if wins:
            return position.win_now_score(), wins
        score = self.solve(position)
        best = []
        for column in position.legal_columns():
            # A move keeps the score iff the reply's score is at most -score;
            # one null window around that value decides it.
            if self.window(position.play(column), -score, -score + 1) <= -score:
                best.append(column)
        return score, best


def _first(candidate: tuple[int, int]) -> int:
    return candidate[0]


# --- depth-limited search for when the solve does not finish ---------------------------------

# Exact results are scaled past anything the evaluation can return.
_SCALE = 1000


class LimitedSearch:
    """Alpha-beta to a fixed depth, with an evaluation at the horizon."""

    def __init__(self, geometry: Geometry, deadline: float) -> None:
        self.geometry = geometry
        self.deadline = deadline
        self.nodes = 0

    def evaluate(self, current: int, mask: int) -> int:
        """Winning squares and discs on busy cells, the mover's minus the opponent's."""
        geometry = self.geometry
        opponent = current ^ mask
        value = 12 * (
            geometry.threats(current, mask).bit_count()
            - geometry.threats(opponent, mask).bit_count()
        )
        for lines, cells in geometry.weight_masks:
            value += lines * ((current & cells).bit_count() - (opponent & cells).bit_count())
        return max(-_SCALE + 1, min(_SCALE - 1, value))

    def search(self, current: int, mask: int, moves: int, depth: int, alpha: int,
               beta: int) -> int:
        # Same precondition as the exact search: the mover cannot win at once.
        self.nodes += 1
        if not self.nodes % 1024 and time.thread_time() >= self.deadline:
            raise SearchAborted("time budget spent")
        geometry = self.geometry
        cells = geometry.cells
        opponent = current ^ mask
        danger = geometry.threats(opponent, mask)
        playable = (mask + geometry.bottom) & geometry.board
        forced = playable & danger
        if forced:
            if forced & (forced - 1):
                return -_SCALE * ((cells - moves) // 2)
            playable = forced
        safe = playable & ~(danger >> 1)
        if not safe:
            return -_SCALE * ((cells - moves) // 2)
        if moves >= cells - 2:
            return 0
        if depth <= 0:
            return self.evaluate(current, mask)
        candidates = []
        for column in geometry.order:
            move = safe & geometry.column_masks[column]
            if move:
                gain = geometry.threats(current | move, mask | move).bit_count()
                candidates.append((gain, move))
        candidates.sort(key=_first, reverse=True)
        for _, move in candidates:
            score = -self.search(opponent, mask | move, moves + 1, depth - 1, -beta, -alpha)
            if score >= beta:
                return score
            if score > alpha:
                alpha = score
        return alpha

    def best_columns(self, position: Position, depth: int) -> tuple[int, list[int]]:
        """The best (scaled) value at ``depth`` and every column reaching it."""
        values: dict[int, int] = {}
        for column in position.legal_columns():
            child = position.play(column)
            if child.full:
                values[column] = 0
            elif child.winning_columns():
                values[column] = -_SCALE * child.win_now_score()
            else:
                values[column] = -self.search(
                    child.current, child.mask, child.moves, depth - 1, -_SCALE * 100,
                    _SCALE * 100,
                )
        best = max(values.values())
        return best, [column for column, value in values.items() if value == best]


# --- the bot ---------------------------------------------------------------------------


def solve(moves: str | Sequence[int], *, weak: bool = False) -> int:
    """The exact score of the 7x6 position after ``moves`` (1-based columns, ``"4453"``)."""
    return Solver().solve(Position.from_moves(moves), weak=weak)


@dataclass(frozen=True)
class Choice:
    """A move the bot chose, and how sure it is of it."""

    column: int  # 1-based
    # True: the column keeps the exact score ``score`` (None when the move
    # was forced: every other column loses at once); False: the solve did not
    # finish and a search ``depth`` moves deep chose it.
    exact: bool
    score: int | None = None
    depth: int = 0
    # Where the move came from: "win" (a win at once), "forced" (the one
    # move that does not lose at once), "book", "solve", or "search" (the
    # depth-limited search, after the solve ran out of time).
    source: str = ""


# One solver per board size and process, kept between moves: the bounds it
# proved for one position are still true for the next, and a game's next
# position is mostly in its table already. A second thread asking while it
# searches gets a solver of its own.
_SHARED: dict[tuple[int, int, int], Solver] = {}
_SHARED_BUSY: set[tuple[int, int, int]] = set()
_SHARED_LOCK = threading.Lock()


@contextmanager
def _borrowed_solver(geometry: Geometry) -> Iterator[Solver]:
    size = (geometry.columns, geometry.rows, geometry.connect)
    with _SHARED_LOCK:
        mine = size not in _SHARED_BUSY
        if mine:
            _SHARED_BUSY.add(size)
            if size not in _SHARED:
                _SHARED[size] = Solver(geometry)
    solver = _SHARED[size] if mine else Solver(geometry)
    try:
        yield solver
    finally:
        solver.limit()
        if mine:
            with _SHARED_LOCK:
                _SHARED_BUSY.discard(size)


def choose(
    moves: str | Sequence[int],
    rng: random.Random | None = None,
    *,
    columns: int = 7,
    rows: int = 6,
    connect: int = 4,
    seconds: float = 1.0,
    book: bool = True,
) -> Choice:
    """The bot's move for the player to move after ``moves`` (1-based columns).

    Among equally good columns ``rng`` picks one; without it the most central.
    On 7x6 the opening book answers first (``book=False`` skips it). Then
    the exact solve gets 85% of ``seconds``, CPU seconds of this thread; if
    it does not finish, a depth-limited search deepens until 95% of
    ``seconds`` are up.
    """
    started = time.thread_time()
    geometry = geometry_of(columns, rows, connect)
    position = Position.from_moves(moves, geometry)
    if not position.legal_columns():
        raise ValueError("the board is full")
    wins = position.winning_columns()
    if wins:
        return Choice(_pick(wins, rng) + 1, True, position.win_now_score(), source="win")
    safe = position.non_losing_columns()
    if len(safe) == 1:
        return Choice(safe[0] + 1, True, source="forced")
    if book and geometry.standard:
        from .connect_four_book import opening_book

        entry = opening_book().lookup(position)
        if entry is not None:
            return Choice(entry.column + 1, True, entry.score, source="book")
        if position.moves == 0:
            # Without a book entry for the empty board: the centre, the one
            # winning opening on 7x6 (score +1), the published result (James
            # D. Allen and Victor Allis, 1988).
            return Choice(geometry.order[0] + 1, True, 1, source="book")
    with _borrowed_solver(geometry) as solver:
        solver.limit(seconds=max(0.0, 0.85 * seconds - (time.thread_time() - started)))
        try:
            score, best = solver.best_columns(position)
            return Choice(_pick(best, rng) + 1, True, score, source="solve")
        except SearchAborted:
            pass
    # 95%: the search looks at the clock only every 1024 nodes, and the
    # caller's move still has to be made after it.
    depth, best = _deepen(position, started + 0.95 * seconds)
    return Choice(_pick(best, rng) + 1, False, None, depth, source="search")


def best_move(
    moves: str | Sequence[int],
    rng: random.Random | None = None,
    *,
    columns: int = 7,
    rows: int = 6,
    connect: int = 4,
    seconds: float = 1.0,
) -> int:
    """A best column (1-based) for the player to move: ``choose(...).column``."""
    return choose(
        moves, rng, columns=columns, rows=rows, connect=connect, seconds=seconds
    ).column


def _deepen(position: Position, deadline: float) -> tuple[int, list[int]]:
    """The deepest completed depth-limited search before ``deadline``: (depth, columns)."""
    search = LimitedSearch(position.geometry, float("inf"))
    # Depth 1 always completes: at the very least, never hand over a win.
    depth, (_, best) = 1, search.best_columns(position, 1)
    search.deadline = deadline
    while depth < position.geometry.cells - position.moves:
        try:
            _, best = search.best_columns(position, depth + 1)
        except SearchAborted:
            break
        depth += 1
    return depth, best


def _pick(columns: list[int], rng: random.Random | None) -> int:
    return rng.choice(columns) if rng is not None else columns[0]


def perfect_bot(
    engine: Engine[Any, Any], state: ConnectFourState, seat: int, rng: random.Random
) -> str:
    """The ``perfect`` level: the book's move, or the exact solve's within 1 CPU s.

    Where neither answers in time (beyond the book before the solve is fast
    enough, and on big boards) it plays the choice of a depth-limited
    search: strong, not perfect.
    """
    column = best_move(
        [move + 1 for move in state.moves],
        rng,
        columns=state.columns,
        rows=state.rows,
        connect=state.connect,
    )
    return str(column)
