"""Computer players for Eskimo: easy, medium and strong.

Eskimo is a game of tactics: the move that closes the bear's last open side
wins at once, so what matters is seeing such moves, for oneself and for the
opponent, and the bear's rest (who will be allowed to move it next). The
levels differ in how far they look:

- ``easy`` takes a win it sees most of the time and otherwise moves at
  random, sometimes into the opponent's win;
- ``medium`` looks two moves deep: it always takes a win and never allows one
  the opponent can take at once, but does not see what comes after;
- ``strong`` searches deeper (negamax with alpha-beta, deepened while a node
  budget lasts, so its play does not depend on the machine's load), and when
  nothing is forced prefers positions where it has more ways to close in on
  the bear than its opponent.

Whether Eskimo can be solved here: its positions are the bear's square (25),
five pieces of each side on the other squares (C(24,5) x C(19,5)), the bear's
rest (5) and the side to move (2), about 1.2 x 10^11; a retrograde analysis of
that is far beyond this machine in the time and memory it has (a bit per
position is 14 GB), so it is not solved here.
"""

from __future__ import annotations

import random
from typing import Any

from .base import Engine
from .eskimo import ORTHOGONAL, EskimoMove, EskimoState, Position, _after, _destinations, on_board

WIN = 1_000
STRONG_NODES = 20_000


def _moves(position: Position) -> list[tuple[EskimoMove, Position]]:
    return [(move, _after(position, move, end)) for move, end in _destinations(position).items()]


def _pressure(position: Position, player: int) -> int:
    """How closely ``player``'s pieces hem the bear in: pieces on the squares beside it."""
    column, row = position.bear
    beside = 0
    for dc, dr in ORTHOGONAL:
        square = (column + dc, row + dr)
        if not on_board(square) or square in position.pieces[player]:
            beside += 1
    return beside


class Search:
    def __init__(self, nodes: int) -> None:
        self.left = nodes

    def score(self, position: Position, depth: int, alpha: int, beta: int) -> int:
        """Negamax value for the player to move in ``position`` (the last mover did not win)."""
        self.left -= 1
        if self.left < 0:
            raise _Budget
        children = _moves(position)
        if not children:
            # A pass: the other side moves next.
            if depth == 0:
                return 0
            return -self.score(Position(position.pieces, position.bear, max(0, position.cooldown - 1),
                                        1 - position.player), depth - 1, -beta, -alpha)
        for _, child in children:
            if child.bear_trapped():
                return WIN + depth  # a win now beats a later one
        if depth == 0:
            me = position.player
            return _pressure(position, me) - _pressure(position, 1 - me)
        best = -2 * WIN
        for _, child in children:
            best = max(best, -self.score(child, depth - 1, -beta, -alpha))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best


class _Budget(Exception):
    pass


def _choose(state: EskimoState, depth_limit: int, nodes: int, rng: random.Random) -> EskimoMove | None:
    position = state.position
    children = _moves(position)
    if not children:
        return None
    wins = [move for move, child in children if child.bear_trapped()]
    if wins:
        return rng.choice(wins)
    search = Search(nodes)
    best_moves = [move for move, _ in children]
    for depth in range(1, depth_limit + 1):
        try:
            scored = [(-search.score(child, depth - 1, -2 * WIN, 2 * WIN), move) for move, child in children]
        except _Budget:
            break
        top = max(value for value, _ in scored)
        best_moves = [move for value, move in scored if value == top]
        if top >= WIN or top <= -WIN:
            break
    return rng.choice(best_moves)


def _play(engine: Engine[Any, Any], state: EskimoState, seat: int, move: EskimoMove | None) -> str:
    if move is None:
        return str(engine.format(state, engine.legal_actions(state, seat)[0]))
    return str(engine.format(state, move))


def easy_bot(engine: Engine[Any, Any], state: EskimoState, seat: int, rng: random.Random) -> str:
    children = _moves(state.position)
    if not children:
        return _play(engine, state, seat, None)
    wins = [move for move, child in children if child.bear_trapped()]
    if wins and rng.random() < 0.7:
        return _play(engine, state, seat, rng.choice(wins))
    return _play(engine, state, seat, rng.choice(children)[0])


def medium_bot(engine: Engine[Any, Any], state: EskimoState, seat: int, rng: random.Random) -> str:
    return _play(engine, state, seat, _choose(state, 2, 10**9, rng))


def strong_bot(engine: Engine[Any, Any], state: EskimoState, seat: int, rng: random.Random) -> str:
    return _play(engine, state, seat, _choose(state, 8, STRONG_NODES, rng))


__all__ = ["easy_bot", "medium_bot", "strong_bot"]
