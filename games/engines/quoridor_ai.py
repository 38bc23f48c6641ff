"""Computer players for Quoridor (2 and 4 players): easy, medium and strong.

All three judge a position the way players do, by the race: how many steps
each pawn still needs to its goal around the fences (a breadth-first search
over the board, ``quoridor.distance_to_goal``). What they differ in is what
they look at and how far ahead:

- ``easy`` walks its shortest path and now and then drops a fence in front of
  the leader; it often takes a step that is merely not backwards, and it never
  thinks about the reply.
- ``medium`` weighs every step and the fences that lengthen a rival's path
  (those on one of the rival's shortest paths), one move deep: the move after
  which the race looks best, fences spent sparingly.
- ``strong`` searches: with two players alpha-beta over both sides' steps and
  path-blocking fences, deepening until its budget (a node count, so its
  play does not depend on the machine's load) is spent; with four, it looks
  two rounds ahead, each rival answering as medium would (``Rounds``), and
  knows that a stand-off ends in a draw by repetition.

Fences are only ever tried where they cut a shortest path of some pawn: any
other fence changes no distance now. The search works on bare tuples and the
engine's own move generation, never on its slower checked ``apply``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .base import Engine
from .quoridor import (
    ACTION_OF_SLOT,
    ALL_SLOTS,
    SIZE,
    Fences,
    QuoridorState,
    _bits_of,
    _cuts_off,
    _path_fences,
    _pawn_moves,
    distance_to_goal,
)

WIN = 10_000
# A game drawn by repetition, to the player who could have run for it: nobody wins.
DRAWN = -WIN // 4
# With four players, what a lead costs per fence the rivals still hold:
# everyone fences the leader. (Measured with strong's earlier one-round
# max-n: 58% won against three medium seats with it at 4 or 7, 15% without;
# with the round search, 64% at 4, 63% at 7 or 10; bench/quoridor_bots.py.)
LEADER_TAX = 4
# Nodes the strong player may visit per move (at most about a second of CPU here).
STRONG_NODES = 30_000
# With four players, how many rounds (our move and the three replies) strong
# looks ahead: 2 won 74 of 100 games against three medium seats, 1 won 70
# (bench/quoridor_bots.py), at about a tenth of the CPU.
STRONG_ROUNDS = 2
# The fences a search tries at each node, best first by how much they slow the rival.
FENCE_WIDTH = {"medium": 12, "strong": 8}

Node = tuple[tuple[int, ...], Fences, tuple[int, ...], int]


class Race:
    """Distances to goal, memoised per fence layout and square (a search meets them again and again)."""

    def __init__(self, goals: tuple[int, ...], *, leader_tax: int = LEADER_TAX) -> None:
        self.goals = goals
        self.leader_tax = leader_tax
        self.memo: dict[tuple[int, int, int], int] = {}

    def distance(self, fences: Fences, square: int, seat: int) -> int:
        key = (fences.mask, square, seat)
        found = self.memo.get(key)
        if found is None:
            found = distance_to_goal(square, self.goals[seat], fences)
            if len(self.memo) > 200_000:
                self.memo.clear()
            self.memo[key] = found
        return found

    def value(self, node: Node, seat: int) -> int:
        """How good ``node`` is for ``seat``: the race, fences in hand, whose turn it is."""
        pawns, fences, left, turn = node
        players = len(pawns)
        mine = self.distance(fences, pawns[seat], seat)
        if mine == 0:
            return WIN
        rivals = [self.distance(fences, pawns[s], s) for s in range(players) if s != seat]
        if min(rivals) == 0:
            return -WIN
        # A pawn one step from its goal with the move wins with it (a step can
        # always be taken: a path exists). Sure, but one ply later: half a win.
        if turn == seat and mine == 1:
            return WIN // 2
        if turn != seat and self.distance(fences, pawns[turn], turn) == 1:
            return -WIN // 2
        # Whoever moves next is half a step ahead.
        tempo = 1 if turn == seat else -1
        rival = min(rivals)
        spare = left[seat] - max(left[s] for s in range(players) if s != seat)
        # With four players fences are few (5 each) and everyone blocks the
        # leader: one kept is worth more.
        value = 20 * (rival - mine) + 10 * tempo + (3 if players == 2 else 8) * spare
        if players > 2 and mine < rival and self.leader_tax:
            # Everyone fences the leader: a lead is worth less while the
            # others still hold fences.
            value -= self.leader_tax * sum(left[s] for s in range(players) if s != seat)
        return value


def _step(node: Node, square: int) -> Node:
    pawns, fences, left, turn = node
    pawns = pawns[:turn] + (square,) + pawns[turn + 1 :]
    return pawns, fences, left, (turn + 1) % len(pawns)


def _fence(node: Node, slot: int) -> Node:
    pawns, fences, left, turn = node
    left = left[:turn] + (left[turn] - 1,) + left[turn + 1 :]
    return pawns, fences.add(slot), left, (turn + 1) % len(pawns)


def _fence_slots(node: Node, race: Race, targets: list[int], width: int) -> list[int]:
    """Legal fences on a shortest path of the ``targets`` seats, the ``width`` that slow them most."""
    pawns, fences, left, turn = node
    if not left[turn]:
        return []
    candidates = 0
    for seat in targets:
        path = _path_fences(pawns[seat], race.goals[seat], fences)
        if path > 0:
            candidates |= path
    candidates &= ALL_SLOTS & ~fences.taken
    scored: list[tuple[int, int]] = []
    for slot in _bits_of(candidates):
        if _cuts_off(fences, slot, pawns, race.goals) != -1:
            continue
        after = fences.add(slot)
        gain = sum(race.distance(after, pawns[s], s) - race.distance(fences, pawns[s], s) for s in targets)
        cost = race.distance(after, pawns[turn], turn) - race.distance(fences, pawns[turn], turn)
        if gain - cost > 0:
            scored.append((cost - gain, slot))
    scored.sort()
    return [slot for _, slot in scored[:width]]


def _children(node: Node, race: Race, width: int) -> list[tuple[int, Node]]:
    """(action, child) for the side to move: steps nearest the goal first, then fences."""
    pawns, fences, left, turn = node
    steps = _bits_of(_pawn_moves(fences, pawns, turn))
    steps.sort(key=lambda square: race.distance(fences, square, turn))
    moves = [(square, _step(node, square)) for square in steps]
    rivals = [s for s in range(len(pawns)) if s != turn]
    # With four players, fences go in front of whoever is closest to winning.
    if len(pawns) > 2:
        rivals = [min(rivals, key=lambda s: race.distance(fences, pawns[s], s))]
    moves += [(ACTION_OF_SLOT[slot], _fence(node, slot)) for slot in _fence_slots(node, race, rivals, width)]
    return moves


def _one_move_deep(node: Node, race: Race) -> list[tuple[int, int, Node]]:
    """(value to the side to move, action, child) of each move medium weighs: its whole look ahead."""
    mover = node[3]
    return [(race.value(child, mover), action, child) for action, child in _children(node, race, FENCE_WIDTH["medium"])]


class _Budget(Exception):
    pass


class AlphaBeta:
    """Two-player negamax with alpha-beta, deepened while its node budget lasts."""

    def __init__(self, race: Race, nodes: int) -> None:
        self.race = race
        self.left = nodes

    def score(self, node: Node, depth: int, alpha: int, beta: int) -> int:
        self.left -= 1
        if self.left < 0:
            raise _Budget
        turn = node[3]
        value = self.race.value(node, turn)
        if depth == 0 or abs(value) >= WIN:
            return value - depth if value <= -WIN else value + depth if value >= WIN else value
        best = -WIN * 2
        for _, child in _children(node, self.race, FENCE_WIDTH["strong"]):
            best = max(best, -self.score(child, depth - 1, -beta, -alpha))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best

    def choose(self, node: Node) -> int:
        moves = _children(node, self.race, FENCE_WIDTH["strong"])
        best_action = moves[0][0]
        for depth in range(1, 8):
            try:
                scored = [(-self.score(child, depth - 1, -WIN * 2, WIN * 2), action) for action, child in moves]
            except _Budget:
                break
            best_value = max(value for value, _ in scored)
            best_action = next(action for value, action in scored if value == best_value)
            # Search the best first next time: it prunes the most.
            order = {action: -value for value, action in scored}
            moves.sort(key=lambda move: order[move[0]])
            if best_value >= WIN:
                break
        return best_action


class Rounds:
    """More than two players: whole rounds ahead, each rival answering as it sees the race.

    Each rival is taken to make the move that is best for itself one move
    deep (by the same race value), which is cheap enough to look a round or
    two ahead. The search knows the threefold-repetition rule: when every
    player waits for another to run first, the pawns shuffle until the game is
    drawn, and nobody wins; the strong player would rather break the stand-off.
    """

    def __init__(self, race: Race, history: tuple[tuple[tuple[int, ...], int], ...], rounds: int) -> None:
        self.race = race
        self.rounds = rounds
        self.seen = Counter(history)

    def reply(self, node: Node) -> Node:
        scored = _one_move_deep(node, self.race)
        if not scored:
            # Hemmed in by pawns with nothing worth fencing: it passes, as the rules let it.
            pawns, fences, left, turn = node
            return pawns, fences, left, (turn + 1) % len(pawns)
        return max(scored, key=lambda entry: entry[0])[2]

    def after(self, node: Node, seat: int, rounds: int, fences: Fences, path: list[tuple[tuple[int, ...], int]]) -> int:
        """Our value once the rivals have answered ``node`` (our move made), ``rounds`` rounds on."""
        depth = len(path)
        try:
            while True:
                value = self.race.value(node, seat)
                if abs(value) >= WIN:
                    return value
                if node[1] is fences:
                    # No fence since the game's history began: a position may come round again.
                    key = (node[0], node[3])
                    path.append(key)
                    if self.seen[key] + path.count(key) >= 3:
                        return DRAWN
                if node[3] == seat:
                    break
                node = self.reply(node)
            if rounds <= 1:
                return value
            return max((self.after(child, seat, rounds - 1, fences, path)
                        for _, child in _children(node, self.race, FENCE_WIDTH["strong"])), default=value)
        finally:
            del path[depth:]

    def choose(self, node: Node, rng: random.Random) -> int:
        seat = node[3]
        scored = [(self.after(child, seat, self.rounds, node[1], []), action)
                  for action, child in _children(node, self.race, FENCE_WIDTH["strong"])]
        best = max(value for value, _ in scored)
        return rng.choice([action for value, action in scored if value == best])


def _node(state: QuoridorState) -> Node:
    return state.pawns, state.fences, state.fences_left, state.turn


def _format(engine: Any, state: QuoridorState, action: int) -> str:
    return str(engine.format(state, action))


def easy_bot(engine: Engine[Any, Any], state: QuoridorState, seat: int, rng: random.Random) -> str:
    node = _node(state)
    race = Race(state.goals)
    pawns, fences, left, _ = node
    steps = _bits_of(_pawn_moves(fences, pawns, seat))
    if not steps and not left[seat]:
        return _format(engine, state, engine.legal_actions(state, seat)[0])
    here = race.distance(fences, pawns[seat], seat)
    rivals = [s for s in range(len(pawns)) if s != seat]
    leader = min(rivals, key=lambda s: race.distance(fences, pawns[s], s))
    # Now and then a fence in front of the leader, when the leader is ahead.
    if left[seat] and race.distance(fences, pawns[leader], leader) < here and rng.random() < 0.25:
        slots = _fence_slots(node, race, [leader], 4)
        if slots:
            return _format(engine, state, ACTION_OF_SLOT[rng.choice(slots)])
    if not steps:
        slots = _fence_slots(node, race, rivals, 4) or [
            s for s in _bits_of(ALL_SLOTS & ~fences.taken) if _cuts_off(fences, s, pawns, race.goals) == -1
        ]
        return _format(engine, state, ACTION_OF_SLOT[rng.choice(slots)])
    for square in steps:
        if race.distance(fences, square, seat) == 0:
            return _format(engine, state, square)
    forward = [s for s in steps if race.distance(fences, s, seat) < here]
    sideways = [s for s in steps if race.distance(fences, s, seat) == here]
    # A person not counting often takes a step that only looks fine.
    if sideways and rng.random() < 0.3:
        return _format(engine, state, rng.choice(sideways))
    return _format(engine, state, rng.choice(forward or sideways or steps))


def medium_bot(engine: Engine[Any, Any], state: QuoridorState, seat: int, rng: random.Random) -> str:
    node = _node(state)
    race = Race(state.goals)
    scored = _one_move_deep(node, race)
    if not scored:
        return _format(engine, state, engine.legal_actions(state, seat)[0])
    best = max(value for value, _, _ in scored)
    return _format(engine, state, rng.choice([action for value, action, _ in scored if value == best]))


def strong_bot(engine: Engine[Any, Any], state: QuoridorState, seat: int, rng: random.Random) -> str:
    node = _node(state)
    race = Race(state.goals)
    moves = _children(node, race, FENCE_WIDTH["strong"])
    if not moves:
        return _format(engine, state, engine.legal_actions(state, seat)[0])
    if len(state.pawns) == 2:
        return _format(engine, state, AlphaBeta(race, STRONG_NODES).choose(node))
    # Four players: two rounds ahead, each rival answering what is best for
    # itself by the same race, so it sees the others block whoever leads,
    # itself included, and stand-offs that end in a drawn repetition.
    return _format(engine, state, Rounds(race, state.history, STRONG_ROUNDS).choose(node, rng))

__all__ = ["easy_bot", "medium_bot", "strong_bot"]
