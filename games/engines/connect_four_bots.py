"""Connect Four bots a person can beat: ``easy`` and ``medium``.

They lose the way people lose, not by playing at random. A person sees a
line of three standing in a column at once, one along a row nearly always,
and a diagonal only sometimes; sees the threat on the board but not the trap
two moves ahead; and among moves that look about as good picks one by feel.
So each level:

- notices a square that wins at once, for itself or for the opponent, with a
  chance that depends on the direction of the line it would complete
  (vertical, horizontal, diagonal), and takes its own win or blocks the
  opponent's when it notices one;
- ``medium`` also refuses, when it notices, to drop a disc right below a
  square where the opponent would win (``easy`` does not look at that);
- otherwise rates each column by a plain evaluation (winning squares made,
  discs on cells that many lines cross), ``medium`` after the opponent's best
  reply (two plies), ``easy`` by the position right after its disc; and
  picks among them at random, weighted towards the best (softmax with a
  temperature: the hotter, the looser).

Neither ever searches deep enough to see a double threat or a zugzwang
coming, which is how one beats them.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from .base import Engine
from .connect_four import ConnectFourState
from .connect_four_solver import Geometry, LimitedSearch, Position, geometry_of


@dataclass(frozen=True)
class Style:
    """How well a level sees the board and how loosely it picks."""

    # Chance of noticing a winning square by the direction of its line:
    # vertical, horizontal, diagonal; for its own wins and for the opponent's.
    sees_own: tuple[float, float, float]
    sees_opponent: tuple[float, float, float]
    # Whether it checks that its disc does not give the opponent a square to win on.
    looks_below_threats: bool
    # Plies of look-ahead when rating columns (1: the position after its disc).
    depth: int
    # Softmax temperature over the ratings (evaluation units; 12 = one winning square).
    temperature: float


EASY = Style((0.9, 0.75, 0.5), (0.85, 0.65, 0.35), False, 1, 3.0)
MEDIUM = Style((1.0, 0.95, 0.8), (1.0, 0.9, 0.7), True, 2, 1.5)


def _position(state: ConnectFourState) -> Position:
    position = Position(geometry_of(state.columns, state.rows, state.connect))
    for column in state.moves:
        position = position.play(column)
    return position


def _directions_completed(geometry: Geometry, stones: int, cell: int) -> list[int]:
    """The kinds of line (0 vertical, 1 horizontal, 2 diagonal) a disc on ``cell`` completes."""
    kinds = []
    for kind, shift in ((0, 1), (1, geometry.stride), (2, geometry.stride - 1), (2, geometry.stride + 1)):
        run = 1
        # The sentinel bit above each column is never a disc, so a run stops
        # at the board's edge instead of wrapping into the next column.
        bit = cell << shift
        while bit & stones:
            run, bit = run + 1, bit << shift
        bit = cell >> shift
        while bit & stones:
            run, bit = run + 1, bit >> shift
        if run >= geometry.connect:
            kinds.append(kind)
    return kinds


def _noticed_wins(position: Position, stones: int, chances: tuple[float, float, float],
                  rng: random.Random) -> list[int]:
    """Playable columns where ``stones`` win at once and that this glance notices."""
    geometry = position.geometry
    playable = position.playable()
    noticed = []
    for column in position.legal_columns():
        cell = playable & geometry.column_masks[column]
        kinds = _directions_completed(geometry, stones, cell)
        if kinds and any(rng.random() < chances[kind] for kind in set(kinds)):
            noticed.append(column)
    return noticed


def _gives_a_win(position: Position, column: int, chances: tuple[float, float, float],
                 rng: random.Random) -> bool:
    """Whether playing ``column`` visibly lets the opponent win on the square above it."""
    geometry = position.geometry
    cell = position.move_bit(column)
    above = cell << 1
    if not above & geometry.board:
        return False
    opponent = position.current ^ position.mask
    kinds = _directions_completed(geometry, opponent, above)
    return bool(kinds) and any(rng.random() < chances[kind] for kind in set(kinds))


def _rating(position: Position, column: int, style: Style, rng: random.Random) -> float:
    """The column's value for the mover by a plain evaluation, ``style.depth`` plies deep.

    A reply that wins at once counts only if this glance notices it: the
    look-ahead sees no more than the player would.
    """
    search = LimitedSearch(position.geometry, float("inf"))
    child = position.play(column)
    if child.full:
        return 0.0
    if child.winning_columns():
        if _noticed_wins(child, child.current, style.sees_opponent, rng):
            return float(-1000 * child.win_now_score())
        return float(-search.evaluate(child.current, child.mask))
    if style.depth <= 1:
        return float(-search.evaluate(child.current, child.mask))
    return float(
        -search.search(child.current, child.mask, child.moves, style.depth - 1, -10**6, 10**6)
    )


def _softmax_pick(ratings: dict[int, float], temperature: float, rng: random.Random) -> int:
    best = max(ratings.values())
    weights = {column: math.exp((value - best) / temperature) for column, value in ratings.items()}
    total = sum(weights.values())
    pick = rng.random() * total
    for column, weight in weights.items():
        pick -= weight
        if pick <= 0:
            return column
    return column


def play_in_style(position: Position, style: Style, rng: random.Random) -> int:
    """The column (0-based) a player of ``style`` drops a disc in."""
    own = _noticed_wins(position, position.current, style.sees_own, rng)
    if own:
        return rng.choice(own)
    opponent = position.current ^ position.mask
    blocks = _noticed_wins(position, opponent, style.sees_opponent, rng)
    if blocks:
        return rng.choice(blocks)
    candidates = position.legal_columns()
    if style.looks_below_threats:
        careful = [c for c in candidates if not _gives_a_win(position, c, style.sees_opponent, rng)]
        candidates = careful or candidates
    ratings = {column: _rating(position, column, style, rng) for column in candidates}
    return _softmax_pick(ratings, style.temperature, rng)


def _bot(style: Style) -> Any:
    def bot(engine: Engine[Any, Any], state: ConnectFourState, seat: int, rng: random.Random) -> str:
        return str(play_in_style(_position(state), style, rng) + 1)

    return bot


easy_bot = _bot(EASY)
medium_bot = _bot(MEDIUM)
