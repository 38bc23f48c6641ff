"""Quoridor (Gigamic rules), for 2 or 4 players.

Rules implemented:

- The board is 9x9. With 2 players each has 10 fences; with 4 players each
  has 5. 3 players is not allowed. Each pawn starts in the middle of its own
  side and races to any square of the opposite side; reaching it wins at once.
- Seats in turn order (clockwise): P1 on e1 aims for row 9 and moves first;
  with 2 players P2 on e9 aims for row 1; with 4 players P2 on a5 aims for
  column i, P3 on e9 for row 1, P4 on i5 for column a.
- A turn is one pawn move or one fence.
- A pawn steps one square orthogonally, never through a fence, never onto
  another pawn.
- Face to face with another pawn, no fence between them: the pawn may jump
  straight over it. If a fence, the board edge or (4 players) a third pawn is
  behind that pawn, it may instead step to the left or right of it
  (diagonally), unless a fence is in the way or a pawn stands there. A pawn
  never jumps two pawns. Jumps are optional.
- A fence is two squares long, lies wholly on the board (128 slots), may not
  overlap another fence and may not cross one at its midpoint. After it is
  placed every pawn must still have a path to its goal side; pawns do not
  block paths. A player without fences must move their pawn.
- House rule: a player with no legal pawn move must place a fence if they
  can; otherwise they pass (``pass``, legal only then).
- House rule: the same position (pawns, fences, player to move) occurring for
  the third time ends the game in a draw.
- Resigning ends the game (the platform default), with 4 players too.

Notation (modern algebraic, seen from P1): columns a..i left to right, rows
1..9 bottom to top. A pawn move is its destination square (``e2``, jumps
too). A fence is the square nearest a1 of the four it touches plus ``h`` or
``v``: ``e3v`` stands between columns e and f along rows 3 and 4; ``e3h``
between rows 3 and 4 along columns e and f. ``pass`` passes.

Representation, chosen so that bots can generate moves millions of times:
squares are 0..80 (``row * 9 + column``, a1 = 0) and every set of squares is
an int used as a bitboard; a fence is a bit of a 128-bit int (bit
``row * 8 + column`` for a horizontal fence, 64 more for a vertical one). A
path search is a bitboard flood fill. When fences are generated, only a fence
that blocks a step of some pawn's current shortest path, and that closes a
ring with the fences and edges it touches, is searched at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

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
    Outcome,
)
from .words import term, words

SIZE = 9
COLUMNS = "abcdefghi"

# An action is an int: 0..80 a pawn's destination square; FENCE_H + corner
# square and FENCE_V + corner square a fence (the corner square is the one
# nearest a1; corners on column i or row 9 are off the board, so a
# well-formed but impossible fence like ``i3h`` parses and is then refused
# with a reason); PASS passes.
FENCE_H = 81
FENCE_V = 162
PASS = 243
Action = int

# The position key of the threefold-repetition house rule: (pawns, seat to
# move); the fences are the same for every entry of one history (see below).
Position = tuple[tuple[int, ...], int]

FENCES_PER_PLAYER = {2: 10, 4: 5}


def _bit(column: int, row: int) -> int:
    return 1 << (row * SIZE + column)


ALL_SQUARES = (1 << SIZE * SIZE) - 1
ROW_MASKS = tuple(sum(_bit(c, k) for c in range(SIZE)) for k in range(SIZE))
COLUMN_MASKS = tuple(sum(_bit(k, r) for r in range(SIZE)) for k in range(SIZE))

# Squares a pawn may leave northwards, southwards, eastwards, westwards on an
# empty board; fences clear bits from these.
OPEN_NORTH = ALL_SQUARES & ~ROW_MASKS[SIZE - 1]
OPEN_SOUTH = ALL_SQUARES & ~ROW_MASKS[0]
OPEN_EAST = ALL_SQUARES & ~COLUMN_MASKS[SIZE - 1]
OPEN_WEST = ALL_SQUARES & ~COLUMN_MASKS[0]

NORTH, SOUTH, EAST, WEST = 0, 1, 2, 3
STEP = (SIZE, -SIZE, 1, -1)
# The two sidesteps of a diagonal move around a pawn met in each direction.
SIDES = ((EAST, WEST), (EAST, WEST), (NORTH, SOUTH), (NORTH, SOUTH))

FENCE_SLOTS = 2 * (SIZE - 1) * (SIZE - 1)  # 128
ALL_SLOTS = (1 << FENCE_SLOTS) - 1
VERTICAL = (SIZE - 1) * (SIZE - 1)  # first vertical slot


def _slot_place(slot: int) -> tuple[bool, int, int]:
    """(is horizontal, corner column, corner row) of a fence slot."""
    horizontal = slot < VERTICAL
    index = slot if horizontal else slot - VERTICAL
    return horizontal, index % (SIZE - 1), index // (SIZE - 1)


def _slot(horizontal: bool, column: int, row: int) -> int:
    return (0 if horizontal else VERTICAL) + row * (SIZE - 1) + column


def _build_fence_tables() -> tuple[
    tuple[tuple[int, int, int, int], ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
]:
    keep: list[tuple[int, int, int, int]] = []
    conflicts: list[int] = []
    points: list[int] = []
    blocks_north = [0] * (SIZE * SIZE)
    blocks_east = [0] * (SIZE * SIZE)
    for slot in range(FENCE_SLOTS):
        horizontal, c, r = _slot_place(slot)
        n = s = e = w = 0
        if horizontal:
            n = _bit(c, r) | _bit(c + 1, r)
            s = _bit(c, r + 1) | _bit(c + 1, r + 1)
            blocks_north[r * SIZE + c] |= 1 << slot
            blocks_north[r * SIZE + c + 1] |= 1 << slot
            # Lattice points (x, y) on a 10x10 grid, y * 10 + x.
            pts = [(c, r + 1), (c + 1, r + 1), (c + 2, r + 1)]
            clash = [(True, c - 1, r), (True, c, r), (True, c + 1, r), (False, c, r)]
        else:
            e = _bit(c, r) | _bit(c, r + 1)
            w = _bit(c + 1, r) | _bit(c + 1, r + 1)
            blocks_east[r * SIZE + c] |= 1 << slot
            blocks_east[(r + 1) * SIZE + c] |= 1 << slot
            pts = [(c + 1, r), (c + 1, r + 1), (c + 1, r + 2)]
            clash = [(False, c, r - 1), (False, c, r), (False, c, r + 1), (True, c, r)]
        keep.append(
            (ALL_SQUARES & ~n, ALL_SQUARES & ~s, ALL_SQUARES & ~e, ALL_SQUARES & ~w)
        )
        mask = 0
        for h, cc, rr in clash:
            if 0 <= cc < SIZE - 1 and 0 <= rr < SIZE - 1:
                mask |= 1 << _slot(h, cc, rr)
        conflicts.append(mask)
        points.append(sum(1 << (y * (SIZE + 1) + x) for x, y in pts))
    return tuple(keep), tuple(conflicts), tuple(points), tuple(blocks_north), tuple(blocks_east)


# FENCE_KEEP[slot]: the open-direction masks to AND with when the fence is
# placed. FENCE_CONFLICTS[slot]: the slots it makes impossible (itself, the
# two it would overlap, the one it would cross). FENCE_POINTS[slot]: its
# three lattice points. STEP_NORTH_FENCES[sq] / STEP_EAST_FENCES[sq]: the
# fences that would block the step from sq to its north / east neighbour.
(
    FENCE_KEEP,
    FENCE_CONFLICTS,
    FENCE_POINTS,
    STEP_NORTH_FENCES,
    STEP_EAST_FENCES,
) = _build_fence_tables()

# The lattice points on the board's rim: a fence touching one is anchored to
# the edge.
RIM_POINTS = sum(
    1 << (y * (SIZE + 1) + x)
    for y in range(SIZE + 1)
    for x in range(SIZE + 1)
    if x in (0, SIZE) or y in (0, SIZE)
)

# ACTION_OF_SLOT[slot] and back.
ACTION_OF_SLOT = tuple(
    (FENCE_H if h else FENCE_V) + r * SIZE + c for h, c, r in map(_slot_place, range(FENCE_SLOTS))
)
SLOT_OF_ACTION = {action: slot for slot, action in enumerate(ACTION_OF_SLOT)}

# Turning a mask of legal slots into actions one byte at a time is several
# times faster than walking its 128 bits.
_BYTE_ACTIONS = tuple(
    tuple(
        tuple(ACTION_OF_SLOT[8 * k + j] for j in range(8) if byte >> j & 1)
        for byte in range(256)
    )
    for k in range(FENCE_SLOTS // 8)
)


def _start_and_goal(players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    e1, e9, a5, i5 = 4, 8 * SIZE + 4, 4 * SIZE, 4 * SIZE + 8
    top, bottom = ROW_MASKS[SIZE - 1], ROW_MASKS[0]
    if players == 2:
        return (e1, e9), (top, bottom)
    return (e1, a5, e9, i5), (top, COLUMN_MASKS[SIZE - 1], bottom, COLUMN_MASKS[0])


GOAL_NAMES = {
    2: (words("row %(row)s", row=9), words("row %(row)s", row=1)),
    4: (
        words("row %(row)s", row=9),
        words("column %(column)s", column="i"),
        words("row %(row)s", row=1),
        words("column %(column)s", column="a"),
    ),
}


def square_name(square: int) -> str:
    return f"{COLUMNS[square % SIZE]}{square // SIZE + 1}"


def seat_name(seat: int) -> str:
    return f"P{seat + 1}"


def _bits_of(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` (squares or fence slots), ascending."""
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low.bit_length() - 1)
        mask ^= low
    return bits


# --- fences on the board -----------------------------------------------------


class Fences(NamedTuple):
    """The fences on the board and what follows from them, built incrementally.

    Only ``mask`` says which fences are placed; the rest is derived from it
    (so equality of the whole tuple is equality of the fences): the
    open-direction masks that paths are searched with, the slots no longer
    available, and the lattice points touched by a fence or the rim.
    """

    mask: int
    north: int
    south: int
    east: int
    west: int
    taken: int
    points: int

    @classmethod
    def empty(cls) -> Fences:
        return cls(0, OPEN_NORTH, OPEN_SOUTH, OPEN_EAST, OPEN_WEST, 0, RIM_POINTS)

    def add(self, slot: int) -> Fences:
        kn, ks, ke, kw = FENCE_KEEP[slot]
        mask, north, south, east, west, taken, points = self
        return Fences(
            mask | 1 << slot,
            north & kn,
            south & ks,
            east & ke,
            west & kw,
            taken | FENCE_CONFLICTS[slot],
            points | FENCE_POINTS[slot],
        )

    def open(self, direction: int) -> int:
        return self[1 + direction]

    def __repr__(self) -> str:
        return f"Fences({[fence_name(s) for s in _bits_of(self.mask)]})"


def fence_name(slot: int) -> str:
    horizontal, c, r = _slot_place(slot)
    return f"{COLUMNS[c]}{r + 1}{'h' if horizontal else 'v'}"


def _reaches(start: int, goal: int, north: int, south: int, east: int, west: int) -> bool:
    """Whether a pawn on ``start`` has a path to ``goal`` (pawns never block paths)."""
    front = 1 << start
    unseen = ALL_SQUARES ^ front
    while True:
        front = (
            (front & north) << SIZE
            | (front & south) >> SIZE
            | (front & east) << 1
            | (front & west) >> 1
        ) & unseen
        if front & goal:
            return True
        if not front:
            return False
        unseen ^= front


def distance_to_goal(start: int, goal: int, fences: Fences) -> int:
    """The fewest steps from ``start`` to any square of ``goal``, around the fences
    (pawns and jumps ignored: the measure players use); -1 when cut off."""
    front = 1 << start
    if front & goal:
        return 0
    unseen = ALL_SQUARES ^ front
    steps = 0
    while front:
        steps += 1
        front = (
            (front & fences.north) << SIZE
            | (front & fences.south) >> SIZE
            | (front & fences.east) << 1
            | (front & fences.west) >> 1
        ) & unseen
        if front & goal:
            return steps
        unseen ^= front
    return -1


def _path_fences(start: int, goal: int, fences: Fences) -> int:
    """The fence slots that would block a step of one shortest path to ``goal``.

    Any fence outside this set leaves that path intact, so it cannot cut the
    pawn off. -1 when there is no path (never in a legal position).
    """
    _, north, south, east, west, _, _ = fences
    front = 1 << start
    unseen = ALL_SQUARES ^ front
    layers = [front]
    while not front & goal:
        front = (
            (front & north) << SIZE
            | (front & south) >> SIZE
            | (front & east) << 1
            | (front & west) >> 1
        ) & unseen
        if not front:
            return -1
        unseen ^= front
        layers.append(front)
    here = (front & goal).bit_length() - 1
    blockers = 0
    # Walk back through the BFS layers; any neighbour in the previous layer
    # with an open step to ``here`` is on a shortest path.
    for layer in reversed(layers[:-1]):
        square = 1 << here
        if (layer & north) << SIZE & square:
            here -= SIZE
            blockers |= STEP_NORTH_FENCES[here]
        elif (layer & south) >> SIZE & square:
            blockers |= STEP_NORTH_FENCES[here]
            here += SIZE
        elif (layer & east) << 1 & square:
            here -= 1
            blockers |= STEP_EAST_FENCES[here]
        else:
            blockers |= STEP_EAST_FENCES[here]
            here += 1
    return blockers


def _cuts_off(fences: Fences, slot: int, pawns: tuple[int, ...], goals: tuple[int, ...]) -> int:
    """Seat of the first pawn the fence at ``slot`` would cut off from its goal, or -1."""
    touching = FENCE_POINTS[slot] & fences.points
    if not touching & (touching - 1):
        # Touching at most one fence or the rim at one point, it cannot close
        # a ring around any square.
        return -1
    kn, ks, ke, kw = FENCE_KEEP[slot]
    north, south = fences.north & kn, fences.south & ks
    east, west = fences.east & ke, fences.west & kw
    for seat, (pawn, goal) in enumerate(zip(pawns, goals)):
        if not _reaches(pawn, goal, north, south, east, west):
            return seat
    return -1


def _legal_fence_slots(fences: Fences, pawns: tuple[int, ...], goals: tuple[int, ...]) -> int:
    """The mask of every slot where a fence may be placed now."""
    free = ALL_SLOTS & ~fences.taken
    if not free:
        return 0
    paths = [_path_fences(pawn, goal, fences) for pawn, goal in zip(pawns, goals)]
    risky = 0
    for path in paths:
        risky |= path
    risky &= free
    _, n0, s0, e0, w0, _, points = fences
    while risky:
        low = risky & -risky
        risky ^= low
        slot = low.bit_length() - 1
        touching = FENCE_POINTS[slot] & points
        if not touching & (touching - 1):
            continue
        kn, ks, ke, kw = FENCE_KEEP[slot]
        north, south, east, west = n0 & kn, s0 & ks, e0 & ke, w0 & kw
        for pawn, goal, path in zip(pawns, goals, paths):
            if path & low and not _reaches(pawn, goal, north, south, east, west):
                free ^= low
                break
    return free


def _fence_actions(slots: int) -> list[int]:
    actions: list[int] = []
    for table in _BYTE_ACTIONS:
        if slots & 255:
            actions.extend(table[slots & 255])
        slots >>= 8
    return actions


def _pawn_moves(fences: Fences, pawns: tuple[int, ...], seat: int) -> int:
    """The mask of squares the pawn of ``seat`` may move to."""
    here = pawns[seat]
    occupied = 0
    for pawn in pawns:
        occupied |= 1 << pawn
    open_masks = fences[1:5]
    targets = 0
    for direction in (NORTH, SOUTH, EAST, WEST):
        opened = open_masks[direction]
        if not opened >> here & 1:
            continue
        step = STEP[direction]
        near = here + step
        if not occupied >> near & 1:
            targets |= 1 << near
            continue
        if opened >> near & 1 and not occupied >> (near + step) & 1:
            targets |= 1 << (near + step)
            continue
        # A fence, the edge or a third pawn behind the pawn met: sidesteps.
        for side in SIDES[direction]:
            if open_masks[side] >> near & 1 and not occupied >> (near + STEP[side]) & 1:
                targets |= 1 << (near + STEP[side])
    return targets


# --- the state -----------------------------------------------------------------


@dataclass(frozen=True)
class QuoridorState:
    players: int
    # Square of each seat's pawn.
    pawns: tuple[int, ...]
    fences: Fences
    fences_left: tuple[int, ...]
    # The seat to move (kept after the game ends: the one who would be next).
    turn: int
    # (seat, action) in the order played.
    moves: tuple[tuple[int, Action], ...] = ()
    # Positions since the last fence, the current one last. Fences are never
    # removed, so no position before the last fence can come back.
    history: tuple[Position, ...] = ()
    winner: int | None = None
    drawn: bool = False

    @property
    def goals(self) -> tuple[int, ...]:
        return _GOALS[self.players]

    @property
    def over(self) -> bool:
        return self.winner is not None or self.drawn


_STARTS = {n: _start_and_goal(n)[0] for n in (2, 4)}
_GOALS = {n: _start_and_goal(n)[1] for n in (2, 4)}


def _parse_square(text: str) -> int:
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "123456789":
        raise BadNotation(words("%(text)r is not a square: columns a..i, rows 1..9", text=text))
    return (int(text[1]) - 1) * SIZE + COLUMNS.index(text[0])


def _parse_fence(text: str) -> int:
    """The slot of a fence written like ``e3h``; BadNotation if it is off the board."""
    if len(text) != 3 or text[2] not in "hv":
        raise BadNotation(words("%(text)r is not a fence: a square a1..h8 then h or v", text=text))
    square = _parse_square(text[:2])
    c, r = square % SIZE, square // SIZE
    if c == SIZE - 1 or r == SIZE - 1:
        raise BadNotation(words("fence %(fence)s would stick out of the board", fence=text))
    return _slot(text[2] == "h", c, r)


def _make_state(
    players: int,
    pawns: tuple[int, ...],
    fences: Fences,
    fences_left: tuple[int, ...],
    turn: int,
    moves: tuple[tuple[int, Action], ...],
    history: tuple[Position, ...],
) -> QuoridorState:
    """A state with its result derived from the position: pawn on goal, or a third repetition."""
    goals = _GOALS[players]
    winner = next((s for s in range(players) if goals[s] >> pawns[s] & 1), None)
    drawn = winner is None and bool(history) and history.count(history[-1]) >= 3
    return QuoridorState(players, pawns, fences, fences_left, turn, moves, history, winner, drawn)


def position(
    players: int = 2,
    pawns: tuple[str, ...] | list[str] | None = None,
    fences: tuple[str, ...] | list[str] = (),
    fences_left: tuple[int, ...] | list[int] | None = None,
    turn: int = 0,
) -> QuoridorState:
    """A constructed position (for tests and puzzles), checked for consistency.

    Raises ValueError if pawns share a square, fences overlap or cross, or a
    pawn has no path to its goal.
    """
    if players not in FENCES_PER_PLAYER:
        raise ValueError("Quoridor is played by 2 or 4 players")
    pawn_squares = _STARTS[players] if pawns is None else tuple(_parse_square(p) for p in pawns)
    if len(pawn_squares) != players or len(set(pawn_squares)) != players:
        raise ValueError(f"need {players} pawns on distinct squares")
    board = Fences.empty()
    for text in fences:
        slot = _parse_fence(text)
        if board.taken >> slot & 1:
            raise ValueError(f"fence {text} overlaps or crosses another fence")
        board = board.add(slot)
    goals = _GOALS[players]
    for seat in range(players):
        if not _reaches(pawn_squares[seat], goals[seat], board.north, board.south,
                        board.east, board.west) and not goals[seat] >> pawn_squares[seat] & 1:
            raise ValueError(f"{seat_name(seat)} has no path to its goal")
    left = (
        (FENCES_PER_PLAYER[players],) * players if fences_left is None else tuple(fences_left)
    )
    if len(left) != players or not 0 <= turn < players:
        raise ValueError("fences_left needs one count per seat, turn a seat")
    return _make_state(players, pawn_squares, board, left, turn, (), ((pawn_squares, turn),))


# --- the engine ------------------------------------------------------------------

_NOTATION = re.compile(r"([a-i])([1-9])([hv]?)")


def parse_action(text: str) -> Action:
    """The action written as ``text``; the notation does not depend on the position."""
    if not isinstance(text, str):
        raise BadNotation(words("a move is text such as e2, e3h, e3v or pass"))
    cleaned = text.strip().lower()
    if cleaned == "pass":
        return PASS
    match = _NOTATION.fullmatch(cleaned)
    if not match:
        raise BadNotation(
            words("%(text)r is not a Quoridor move: write a square (e2), a fence (e3h, e3v) or pass", text=text)
        )
    column, row, orientation = match.groups()
    square = (int(row) - 1) * SIZE + COLUMNS.index(column)
    if orientation == "h":
        return FENCE_H + square
    if orientation == "v":
        return FENCE_V + square
    return square


class Quoridor(Engine[QuoridorState, Action]):
    slug = "quoridor"
    name = words("Quoridor")
    min_players = 2
    max_players = 4
    player_counts = (2, 4)

    def initial_state(self, players: int, options: JSON, seed: int) -> QuoridorState:
        if players not in FENCES_PER_PLAYER:
            raise BadOptions(words("Quoridor is played by 2 or 4 players, not 3"))
        return position(players)

    def to_move(self, state: QuoridorState) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    def legal_actions(self, state: QuoridorState, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        actions = _bits_of(_pawn_moves(state.fences, state.pawns, seat))
        if state.fences_left[seat]:
            actions += _fence_actions(_legal_fence_slots(state.fences, state.pawns, state.goals))
        return actions or [PASS]

    def apply(self, state: QuoridorState, seat: int, action: Action) -> QuoridorState:
        if state.over:
            raise IllegalMove(words("the game is over"))
        if seat != state.turn:
            raise IllegalMove(words("it is not your turn: %(pawn)s is to move", pawn=seat_name(state.turn)))
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMove(words("%(action)r is not a Quoridor move", action=action))
        pawns = state.pawns
        fences = state.fences
        fences_left = state.fences_left
        if 0 <= action < SIZE * SIZE:
            if not _pawn_moves(fences, pawns, seat) >> action & 1:
                raise IllegalMove(self._why_not_step(state, seat, action))
            pawns = pawns[:seat] + (action,) + pawns[seat + 1 :]
            history = state.history
        elif action in SLOT_OF_ACTION:
            slot = SLOT_OF_ACTION[action]
            problem = self._why_not_fence(state, seat, slot)
            if problem:
                raise IllegalMove(problem)
            fences = fences.add(slot)
            fences_left = fences_left[:seat] + (fences_left[seat] - 1,) + fences_left[seat + 1 :]
            history = ()
        elif FENCE_H <= action < PASS:
            raise IllegalMove(
                words(
                    "fence %(fence)s would stick out of the board: its corner square must be in a1..h8",
                    fence=self.format(state, action),
                )
            )
        elif action == PASS:
            if _pawn_moves(fences, pawns, seat):
                raise IllegalMove(words("you may pass only when you cannot move: your pawn can move"))
            if fences_left[seat] and _legal_fence_slots(fences, pawns, state.goals):
                raise IllegalMove(words("you may pass only when you cannot move: place a fence"))
            history = state.history
        else:
            raise IllegalMove(words("%(action)r is not a Quoridor move", action=action))
        turn = (seat + 1) % state.players
        return _make_state(
            state.players,
            pawns,
            fences,
            fences_left,
            turn,
            (*state.moves, (seat, action)),
            (*history, (pawns, turn)),
        )

    def _why_not_fence(self, state: QuoridorState, seat: int, slot: int) -> str | None:
        name = fence_name(slot)
        if not state.fences_left[seat]:
            return words("you have no fences left: move your pawn")
        fences = state.fences
        if fences.mask >> slot & 1:
            return words("there is already a fence at %(fence)s", fence=name)
        clash = fences.mask & FENCE_CONFLICTS[slot]
        if clash:
            other = (clash & -clash).bit_length() - 1
            if (other < VERTICAL) != (slot < VERTICAL):
                return words("fence %(fence)s crosses fence %(other)s", fence=name, other=fence_name(other))
            return words("fence %(fence)s overlaps fence %(other)s", fence=name, other=fence_name(other))
        victim = _cuts_off(fences, slot, state.pawns, state.goals)
        if victim == seat:
            return words("fence %(fence)s would cut you off from your goal", fence=name)
        if victim >= 0:
            return words("fence %(fence)s would cut %(pawn)s off from its goal", fence=name, pawn=seat_name(victim))
        return None

    def _why_not_step(self, state: QuoridorState, seat: int, target: int) -> str:
        here = state.pawns[seat]
        there = square_name(target)
        owner = {square: s for s, square in enumerate(state.pawns)}
        if target == here:
            return words("your pawn is already on %(square)s", square=there)
        if target in owner:
            return words("%(square)s is taken by %(pawn)s's pawn", square=there, pawn=seat_name(owner[target]))
        fences = state.fences
        dc = target % SIZE - here % SIZE
        dr = target // SIZE - here // SIZE

        def direction_of(dcol: int, drow: int) -> int:
            return {(0, 1): NORTH, (0, -1): SOUTH, (1, 0): EAST, (-1, 0): WEST}[(dcol, drow)]

        def open_step(square: int, direction: int) -> bool:
            return bool(fences.open(direction) >> square & 1)

        if abs(dc) + abs(dr) == 1:
            return words("a fence blocks the step from %(start)s to %(square)s", start=square_name(here), square=there)
        if (dc == 0 or dr == 0) and abs(dc + dr) in (2, 3):
            direction = direction_of((dc > 0) - (dc < 0), (dr > 0) - (dr < 0))
            step = STEP[direction]
            near = here + step
            if near not in owner:
                return words(
                    "%(square)s is out of reach: a pawn steps one square, or jumps over a pawn it faces", square=there
                )
            if abs(dc + dr) == 3:
                if near + step in owner:
                    return words("cannot jump over two pawns")
                return words("%(square)s is out of reach: a jump goes over one pawn only", square=there)
            if not open_step(here, direction):
                return words(
                    "a fence blocks the way from %(start)s to %(square)s", start=square_name(here), square=square_name(near)
                )
            return words(
                "cannot jump over %(pawn)s's pawn: a fence is behind it on %(square)s",
                pawn=seat_name(owner[near]),
                square=square_name(near),
            )
        if abs(dc) == 1 and abs(dr) == 1:
            reasons = []
            for dcol, drow in ((dc, 0), (0, dr)):
                direction = direction_of(dcol, drow)
                near = here + STEP[direction]
                if near not in owner:
                    continue
                met = seat_name(owner[near])
                if not open_step(here, direction):
                    reasons.append(words("a fence stands between you and %(pawn)s's pawn", pawn=met))
                    continue
                behind_open = open_step(near, direction)
                if behind_open and near + STEP[direction] not in owner:
                    reasons.append(
                        words(
                            "you may step diagonally around %(pawn)s's pawn only when a fence, "
                            "the board edge or a third pawn is behind it; jump straight over it",
                            pawn=met,
                        )
                    )
                    continue
                reasons.append(
                    words(
                        "a fence blocks the diagonal step from %(start)s to %(square)s",
                        start=square_name(near),
                        square=there,
                    )
                )
            if reasons:
                return reasons[0]
            return words(
                "%(square)s is out of reach: a pawn moves diagonally only around a pawn it faces", square=there
            )
        return words(
            "%(square)s is out of reach: a pawn steps one square orthogonally, or jumps over a pawn it faces",
            square=there,
        )

    def bot_levels(self) -> tuple[BotLevel, ...]:
        from .quoridor_ai import easy_bot, medium_bot, strong_bot

        return (
            *super().bot_levels(),
            BotLevel(
                term("AI level", "easy"),
                words("walks its shortest path, now and then a fence in front of the leader, never thinks ahead"),
                easy_bot,
            ),
            BotLevel(
                term("AI level", "medium"),
                words("weighs every step and the fences that lengthen a rival's path, one move deep"),
                medium_bot,
            ),
            BotLevel(
                term("AI level", "strong"),
                words("searches several moves ahead for both sides, spending fences where they hurt most"),
                strong_bot,
            ),
        )

    def analyse(self, state: QuoridorState, seconds: float) -> JSON | None:
        """Each pawn's shortest path to its goal side: the race a reviewer watches."""
        return {
            "distances": [
                distance_to_goal(pawn, goal, state.fences) for pawn, goal in zip(state.pawns, state.goals, strict=True)
            ]
        }

    def outcome(self, state: QuoridorState) -> Outcome | None:
        if state.winner is not None:
            winner = state.winner
            results = tuple(WIN if s == winner else LOSS for s in range(state.players))
            goal = GOAL_NAMES[state.players][winner]
            return Outcome(results, words("%(pawn)s reached %(goal)s", pawn=seat_name(winner), goal=goal))
        if state.drawn:
            return Outcome((DRAW,) * state.players, words("the same position occurred three times"))
        return None

    # --- notation --------------------------------------------------------------

    def parse(self, state: QuoridorState, text: str) -> Action:
        return parse_action(text)

    def format(self, state: QuoridorState, action: Action) -> str:
        if 0 <= action < FENCE_H:
            return square_name(action)
        if action < FENCE_V:
            return square_name(action - FENCE_H) + "h"
        if action < PASS:
            return square_name(action - FENCE_V) + "v"
        if action == PASS:
            return "pass"
        raise ValueError(f"{action!r} is not a Quoridor action")

    def describe(self, state: QuoridorState, seat: int, action: Action) -> str:
        text = self.format(state, action)
        if action == PASS:
            return words("passed: no legal move")
        if action >= FENCE_H:
            return words("placed a fence at %(fence)s", fence=text)
        here = state.pawns[seat]
        if abs(action % SIZE - here % SIZE) + abs(action // SIZE - here // SIZE) > 1:
            return words("jumped to %(square)s", square=text)
        return words("moved to %(square)s", square=text)

    # --- serialisation and views ----------------------------------------------------

    def serialize(self, state: QuoridorState) -> JSON:
        return {
            "players": state.players,
            "pawns": [square_name(p) for p in state.pawns],
            "fences": [fence_name(s) for s in _bits_of(state.fences.mask)],
            "fences_left": list(state.fences_left),
            "turn": state.turn,
            "moves": [[seat, self.format(state, a)] for seat, a in state.moves],
            "history": [[*(square_name(p) for p in pawns), turn] for pawns, turn in state.history],
        }

    def deserialize(self, data: JSON) -> QuoridorState:
        players = int(data["players"])
        if players not in FENCES_PER_PLAYER:
            raise BadOptions(words("Quoridor is played by 2 or 4 players, not 3"))
        pawns = tuple(_parse_square(p) for p in data["pawns"])
        fences = Fences.empty()
        for text in data["fences"]:
            fences = fences.add(_parse_fence(text))
        history = tuple(
            (tuple(_parse_square(p) for p in entry[:-1]), int(entry[-1]))
            for entry in data["history"]
        )
        moves = tuple((int(seat), parse_action(text)) for seat, text in data["moves"])
        return _make_state(
            players,
            pawns,
            fences,
            tuple(int(n) for n in data["fences_left"]),
            int(data["turn"]),
            moves,
            history,
        )

    def view(self, state: QuoridorState, seat: int | None) -> JSON:
        # Quoridor hides nothing: every seat and spectators see the same,
        # except that the seat to move also gets its legal moves, so the page
        # can highlight them without knowing the rules.
        last = state.moves[-1] if state.moves else None
        outcome = self.outcome(state)
        goals = state.goals
        return {
            "players": state.players,
            "size": SIZE,
            "names": [seat_name(s) for s in range(state.players)],
            "pawns": [square_name(p) for p in state.pawns],
            "fences": [fence_name(s) for s in _bits_of(state.fences.mask)],
            "walls_left": list(state.fences_left),
            "goals": list(GOAL_NAMES[state.players]),
            # The same in words ({"text", "args"}), for a page to say them in its language.
            "goal_words": [goal.to_json() for goal in GOAL_NAMES[state.players]],
            "goal_squares": [[square_name(s) for s in _bits_of(g)] for g in goals],
            "to_move": list(self.to_move(state)),
            "last_move": None
            if last is None
            else {"seat": last[0], "move": self.format(state, last[1])},
            "moves": [{"seat": s, "move": self.format(state, a)} for s, a in state.moves],
            "legal_moves": [] if seat is None else self.legal_moves(state, seat),
            "outcome": None if outcome is None else outcome.to_json(),
        }
