"""Eskimo: two players and a polar bear on a 5x5 ice floe.

Rules: the board has 5 columns (a..e) and 5 rows (1..5, counted from player 1's
side). Each of the two players has 5 pieces, starting on their own back row:
player 1 (seat 0) on row 1, player 2 (seat 1) on row 5. The polar bear starts
in the centre, on c3. Player 1 moves first. On a turn a player does one of:

- slide one of their own pieces in one of the 8 directions (n ne e se s sw w
  nw; north points to row 5) as far as it can go: it stops before the edge of
  the board, before another piece (of either side) or before the bear. It must
  move at least one square, so a piece whose first square in that direction is
  off the board or taken cannot slide that way;
- move the bear one square in one of the 8 directions onto an empty square.
  Either player may move the bear. After the bear moves it rests: neither
  player may move it during the next 4 turns (A moves the bear; B, A, B and A
  may not; then B may). Every turn counts, a pass included.

The player whose move leaves the bear blocked on all 4 orthogonal sides (each
side either the edge of the board or a piece of either player) wins at once.
That includes moving the bear diagonally onto a square that is already blocked
on all 4 sides.

House rules:
- a player with no legal move passes (``pass``); passing is legal only then;
- the same position (every piece, the bear, the bear's rest and the player to
  move) arising for the third time is a draw; the starting position counts;
- 200 turns (passes included) without a win is a draw.

Notation: a square is a column letter and a row digit (``c3``); a move is the
square of the piece or of the bear to move, a dash and a direction: ``c1-ne``
slides the piece on c1 north-east, ``c3-s`` moves the bear from c3 south. A
pass is ``pass``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .base import (
    DRAW,
    JSON,
    LOSS,
    WIN,
    BadNotation,
    BotLevel,
    Engine,
    IllegalMove,
    Outcome,
)
from .words import term, words

SIZE = 5
COLUMNS = "abcde"
# How many turns the bear rests after it has moved (the mover's turn not counted).
BEAR_REST = 4
TURN_LIMIT = 200
REPETITIONS_FOR_DRAW = 3
PASS_NOTATION = "pass"

Square = tuple[int, int]  # (column, row), 0-based; row 0 is player 1's back row

# In notation order; north points away from player 1, towards row 5.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "n": (0, 1),
    "ne": (1, 1),
    "e": (1, 0),
    "se": (1, -1),
    "s": (0, -1),
    "sw": (-1, -1),
    "w": (-1, 0),
    "nw": (-1, 1),
}
DIRECTION_WORDS = {
    "n": words("north"),
    "ne": words("north-east"),
    "e": words("east"),
    "se": words("south-east"),
    "s": words("south"),
    "sw": words("south-west"),
    "w": words("west"),
    "nw": words("north-west"),
}
# The bear is trapped when these four neighbours are all blocked.
ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))

_MOVE_PATTERN = re.compile(r"([a-z]+)(\d+)-([a-z]+)")


def square_name(square: Square) -> str:
    return f"{COLUMNS[square[0]]}{square[1] + 1}"


def parse_square(text: str) -> Square:
    """The square named ``text`` (``c3``); BadNotation if there is no such square."""
    name = text.strip().lower()
    if (
        len(name) != 2
        or name[0] not in COLUMNS
        # Not str.isdigit: "²" passes it and then fails int().
        or name[1] not in "123456789"
        or not 1 <= int(name[1]) <= SIZE
    ):
        raise BadNotation(words("there is no square %(text)r; squares are a1..e5", text=text))
    return COLUMNS.index(name[0]), int(name[1]) - 1


def on_board(square: Square) -> bool:
    return 0 <= square[0] < SIZE and 0 <= square[1] < SIZE


def step(square: Square, direction: str) -> Square:
    dc, dr = DIRECTIONS[direction]
    return square[0] + dc, square[1] + dr


@dataclass(frozen=True)
class EskimoMove:
    """A slide or a bear move from ``origin`` towards ``direction``; origin None is a pass."""

    origin: Square | None
    direction: str = ""

    @property
    def is_pass(self) -> bool:
        return self.origin is None


PASS = EskimoMove(None)


@dataclass(frozen=True)
class Position:
    """Everything the rules look at; two equal positions count as a repetition."""

    pieces: tuple[frozenset[Square], frozenset[Square]]
    bear: Square
    # Turns, this one included, before the bear may move again; 0: it may move now.
    cooldown: int
    player: int

    def occupied(self) -> frozenset[Square]:
        return self.pieces[0] | self.pieces[1] | {self.bear}

    def bear_trapped(self) -> bool:
        occupied = self.occupied()
        bear_column, bear_row = self.bear
        for dc, dr in ORTHOGONAL:
            side = (bear_column + dc, bear_row + dr)
            if on_board(side) and side not in occupied:
                return False
        return True


@dataclass(frozen=True)
class EskimoState:
    position: Position
    # Every earlier position of this game, oldest first, for the repetition rule.
    history: tuple[Position, ...] = ()
    moves: tuple[str, ...] = ()
    winner: int | None = None
    # Why the game was drawn; empty while it is not.
    draw: str = ""

    @property
    def over(self) -> bool:
        return self.winner is not None or bool(self.draw)

    @property
    def start(self) -> Position:
        return self.history[0] if self.history else self.position


def starting_position() -> Position:
    return Position(
        pieces=(
            frozenset((column, 0) for column in range(SIZE)),
            frozenset((column, SIZE - 1) for column in range(SIZE)),
        ),
        bear=(SIZE // 2, SIZE // 2),
        cooldown=0,
        player=0,
    )


def setup(
    pieces: tuple[Iterable[str], Iterable[str]],
    bear: str,
    *,
    cooldown: int = 0,
    to_move: int = 0,
) -> EskimoState:
    """A game starting from a made-up position (tests, puzzles); squares by name.

    Any number of pieces per side is accepted, so a position can show one rule
    with few pieces. ValueError if squares overlap or the bear is already trapped.
    """
    first = frozenset(parse_square(name) for name in pieces[0])
    second = frozenset(parse_square(name) for name in pieces[1])
    bear_square = parse_square(bear)
    if first & second or bear_square in first | second:
        raise ValueError("two things on one square")
    if not 0 <= cooldown <= BEAR_REST:
        raise ValueError(f"the bear's rest is 0..{BEAR_REST} turns")
    if to_move not in (0, 1):
        raise ValueError("the player to move is seat 0 or 1")
    position = Position((first, second), bear_square, cooldown, to_move)
    if position.bear_trapped():
        raise ValueError("the bear is already trapped")
    return EskimoState(position)


def _slide_end(occupied: frozenset[Square], origin: Square, direction: str) -> Square | None:
    """Where a piece on ``origin`` stops sliding that way; None if it cannot move at all."""
    end = None
    square = step(origin, direction)
    while on_board(square) and square not in occupied:
        end = square
        square = step(square, direction)
    return end


def _bear_end(occupied: frozenset[Square], origin: Square, direction: str) -> Square | None:
    square = step(origin, direction)
    return square if on_board(square) and square not in occupied else None


def _destinations(position: Position) -> dict[EskimoMove, Square]:
    """Every legal move of the player to move (a pass aside) and where it ends."""
    occupied = position.occupied()
    legal: dict[EskimoMove, Square] = {}
    movers = sorted(position.pieces[position.player], key=square_name)
    for origin in movers:
        for direction in DIRECTIONS:
            end = _slide_end(occupied, origin, direction)
            if end is not None:
                legal[EskimoMove(origin, direction)] = end
    if position.cooldown == 0:
        for direction in DIRECTIONS:
            end = _bear_end(occupied, position.bear, direction)
            if end is not None:
                legal[EskimoMove(position.bear, direction)] = end
    return legal


def _blocker(position: Position, square: Square) -> str:
    """What stands on ``square``, in words, for an IllegalMove message."""
    if square == position.bear:
        return words("the bear is on %(square)s", square=square_name(square))
    owner = 0 if square in position.pieces[0] else 1
    if owner == position.player:
        return words("your piece is on %(square)s", square=square_name(square))
    return words("a piece of your opponent is on %(square)s", square=square_name(square))


def _destination(position: Position, move: EskimoMove) -> Square:
    """Where ``move`` ends; IllegalMove saying why if it cannot be played here."""
    assert move.origin is not None
    origin, direction = move.origin, move.direction
    name = square_name(origin)
    way = DIRECTION_WORDS[direction]
    occupied = position.occupied()
    first = step(origin, direction)
    if origin == position.bear:
        if position.cooldown == 1:
            raise IllegalMove(words("the bear cannot move for 1 more turn, this one included"))
        if position.cooldown:
            raise IllegalMove(
                words("the bear cannot move for %(turns)s more turns, this one included", turns=position.cooldown)
            )
        if not on_board(first):
            raise IllegalMove(words("the bear cannot move %(way)s: it is at the edge of the board", way=way))
        if first in occupied:
            raise IllegalMove(
                words("the bear cannot move %(way)s: %(blocker)s", way=way, blocker=_blocker(position, first))
            )
        return first
    if origin in position.pieces[1 - position.player]:
        raise IllegalMove(words("%(square)s is not your piece", square=name))
    if origin not in position.pieces[position.player]:
        raise IllegalMove(words("there is nothing on %(square)s to move", square=name))
    if not on_board(first):
        raise IllegalMove(
            words("the piece on %(square)s cannot slide %(way)s: it is at the edge of the board", square=name, way=way)
        )
    if first in occupied:
        raise IllegalMove(
            words(
                "the piece on %(square)s cannot slide %(way)s: it is blocked (%(blocker)s)",
                square=name,
                way=way,
                blocker=_blocker(position, first),
            )
        )
    end = _slide_end(occupied, origin, direction)
    assert end is not None
    return end


def _after(position: Position, move: EskimoMove, end: Square | None) -> Position:
    """The position after a legal ``move`` that ends on ``end`` (None for a pass)."""
    player = position.player
    cooldown = max(0, position.cooldown - 1)
    bear = position.bear
    pieces = position.pieces
    if move.origin is not None and end is not None:
        if move.origin == position.bear:
            bear = end
            cooldown = BEAR_REST
        else:
            mine = (pieces[player] - {move.origin}) | {end}
            pieces = (mine, pieces[1]) if player == 0 else (pieces[0], mine)
    return Position(pieces, bear, cooldown, 1 - player)


class Eskimo(Engine[EskimoState, EskimoMove]):
    slug = "eskimo"
    name = words("Eskimo")
    min_players = 2
    max_players = 2

    def initial_state(self, players: int, options: JSON, seed: int) -> EskimoState:
        return EskimoState(starting_position())

    def to_move(self, state: EskimoState) -> tuple[int, ...]:
        return () if state.over else (state.position.player,)

    def legal_actions(self, state: EskimoState, seat: int) -> list[EskimoMove]:
        if self.to_move(state) != (seat,):
            return []
        return list(_destinations(state.position)) or [PASS]

    def destinations(self, state: EskimoState) -> dict[str, str | None]:
        """Notation -> destination square of each legal move (None for a pass)."""
        if state.over:
            return {}
        legal = _destinations(state.position)
        if not legal:
            return {PASS_NOTATION: None}
        return {self.format(state, move): square_name(end) for move, end in legal.items()}

    def apply(self, state: EskimoState, seat: int, action: EskimoMove) -> EskimoState:
        if state.over:
            raise IllegalMove(words("the game is over"))
        position = state.position
        if seat != position.player:
            raise IllegalMove(words("it is not your turn"))
        end: Square | None = None
        if action.is_pass:
            legal = _destinations(position)
            if legal:
                raise IllegalMove(
                    words("you may pass only when you have no legal move; you have %(count)s", count=len(legal))
                )
        else:
            if action.origin is None or not on_board(action.origin):
                raise IllegalMove(words("that square is not on the board"))
            if action.direction not in DIRECTIONS:
                raise IllegalMove(words("there is no direction %(direction)r", direction=action.direction))
            end = _destination(position, action)
        after = _after(position, action, end)
        history = (*state.history, position)
        moves = (*state.moves, self.format(state, action))
        if after.bear_trapped():
            return EskimoState(after, history, moves, winner=seat)
        if history.count(after) + 1 >= REPETITIONS_FOR_DRAW:
            return EskimoState(after, history, moves, draw=words("the same position for the third time"))
        if len(moves) >= TURN_LIMIT:
            return EskimoState(after, history, moves, draw=words("%(turns)s turns without a win", turns=TURN_LIMIT))
        return EskimoState(after, history, moves)

    def bot_levels(self) -> tuple[BotLevel, ...]:
        from .eskimo_ai import easy_bot, medium_bot, strong_bot

        return (
            *super().bot_levels(),
            BotLevel(
                term("AI level", "easy"),
                words("takes a win it sees most of the time, otherwise moves at random"),
                easy_bot,
            ),
            BotLevel(
                term("AI level", "medium"),
                words("always takes a win and never leaves one to you, but looks no further"),
                medium_bot,
            ),
            BotLevel(
                term("AI level", "strong"),
                words("searches several moves ahead and hems the bear in with its own pieces"),
                strong_bot,
            ),
        )

    def outcome(self, state: EskimoState) -> Outcome | None:
        if state.winner is not None:
            results = tuple(WIN if s == state.winner else LOSS for s in range(2))
            return Outcome(results, words("the bear is trapped"))
        if state.draw:
            return Outcome((DRAW, DRAW), state.draw)
        return None

    def parse(self, state: EskimoState, text: str) -> EskimoMove:
        stripped = text.strip().lower() if isinstance(text, str) else ""
        if stripped == PASS_NOTATION:
            return PASS
        match = _MOVE_PATTERN.fullmatch(stripped)
        if match is None:
            raise BadNotation(
                words("a move is a square, a dash and a direction (c1-ne), or 'pass'; not %(text)r", text=text)
            )
        column, row, direction = match.groups()
        origin = parse_square(column + row)
        if direction not in DIRECTIONS:
            raise BadNotation(
                words(
                    "there is no direction %(direction)r; directions are %(directions)s",
                    direction=direction,
                    directions=" ".join(DIRECTIONS),
                )
            )
        return EskimoMove(origin, direction)

    def format(self, state: EskimoState, action: EskimoMove) -> str:
        if action.origin is None:
            return PASS_NOTATION
        return f"{square_name(action.origin)}-{action.direction}"

    def describe(self, state: EskimoState, seat: int, action: EskimoMove) -> str:
        if action.origin is None:
            return words("passed: no legal move")
        position = state.position
        end = _destination(position, action)
        way = DIRECTION_WORDS[action.direction]
        start, finish = square_name(action.origin), square_name(end)
        trapped = _after(position, action, end).bear_trapped()
        if action.origin == position.bear:
            if trapped:
                return words(
                    "moved the bear %(way)s from %(start)s to %(finish)s and trapped the bear",
                    way=way, start=start, finish=finish,
                )
            return words("moved the bear %(way)s from %(start)s to %(finish)s", way=way, start=start, finish=finish)
        if trapped:
            return words(
                "slid a piece %(way)s from %(start)s to %(finish)s and trapped the bear",
                way=way, start=start, finish=finish,
            )
        return words("slid a piece %(way)s from %(start)s to %(finish)s", way=way, start=start, finish=finish)

    def serialize(self, state: EskimoState) -> JSON:
        start = state.start
        return {
            "start": {
                "pieces": [sorted(square_name(s) for s in side) for side in start.pieces],
                "bear": square_name(start.bear),
                "cooldown": start.cooldown,
                "to_move": start.player,
            },
            "moves": list(state.moves),
        }

    def deserialize(self, data: JSON) -> EskimoState:
        # Replaying the moves rebuilds the history the repetition rule needs,
        # and checks every move again.
        start = data["start"]
        state = setup(
            (start["pieces"][0], start["pieces"][1]),
            start["bear"],
            cooldown=start["cooldown"],
            to_move=start["to_move"],
        )
        for text in data["moves"]:
            state = self.play(state, state.position.player, text)
        return state

    def view(self, state: EskimoState, seat: int | None) -> JSON:
        # Nothing is hidden in Eskimo: every seat and spectators see the same.
        position = state.position
        return {
            "size": SIZE,
            "pieces": [sorted(square_name(s) for s in side) for side in position.pieces],
            "bear": square_name(position.bear),
            "cooldown": position.cooldown,
            "bear_rest": BEAR_REST,
            "to_move": list(self.to_move(state)),
            "last_move": state.moves[-1] if state.moves else None,
            "moves": list(state.moves),
            "turn": len(state.moves),
            "turn_limit": TURN_LIMIT,
            "destinations": self.destinations(state),
            "winner": state.winner,
        }
