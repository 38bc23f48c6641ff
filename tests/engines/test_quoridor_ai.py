"""Quoridor's computer players (games/engines/quoridor_ai.py): legal, sensible, deterministic.

Strength is shown by bench/quoridor_bots.py (against OpenSpiel's MCTS and in
4-player games), never here.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.engines.quoridor import Quoridor, distance_to_goal, position
from games.engines.quoridor_ai import (
    DRAWN,
    AlphaBeta,
    Race,
    Rounds,
    _children,
    _node,
    easy_bot,
    medium_bot,
    strong_bot,
)

ENGINE = Quoridor()
LEVELS = {"easy": easy_bot, "medium": medium_bot, "strong": strong_bot}


@pytest.mark.parametrize("players", [2, 4])
def test_every_level_plays_only_legal_moves_to_the_end_of_a_game(players: int) -> None:
    names = list(LEVELS)
    for seed in range(3):
        state = ENGINE.initial_state(players, ENGINE.normalize_options({"players": players}), seed)
        rng = random.Random(seed)
        seats = [names[(seed + s) % 3] for s in range(players)]
        plies = 0
        while not ENGINE.is_over(state) and plies < 300:
            seat = ENGINE.to_move(state)[0]
            move = LEVELS[seats[seat]](ENGINE, state, seat, rng)
            assert move in ENGINE.legal_moves(state, seat), (seats[seat], move)
            state = ENGINE.play(state, seat, move)
            plies += 1
        assert ENGINE.is_over(state)


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_steps_onto_its_goal_when_it_can(level: str) -> None:
    state = position(pawns=("e8", "a1"), turn=0)
    assert LEVELS[level](ENGINE, state, 0, random.Random(1)) == "e9"


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_a_rival_one_step_from_winning_is_fenced_off(level: str) -> None:
    # Black (seat 1) stands on e2, one step from row 1; white is far from row 9.
    state = position(pawns=("a1", "e2"), turn=0)
    move = LEVELS[level](ENGINE, state, 0, random.Random(2))
    after = ENGINE.play(state, 0, move)
    assert distance_to_goal(after.pawns[1], after.goals[1], after.fences) > 1


def test_the_strong_level_is_deterministic_for_a_seed() -> None:
    state = ENGINE.initial_state(2, ENGINE.normalize_options({}), 0)
    for move in ("e2", "e8", "e3", "e7"):
        state = ENGINE.play(state, state.turn, move)
    first = strong_bot(ENGINE, state, state.turn, random.Random(5))
    assert all(strong_bot(ENGINE, state, state.turn, random.Random(5)) == first for _ in range(3))


def test_the_search_keeps_to_its_node_budget_and_still_answers() -> None:
    state = ENGINE.initial_state(2, ENGINE.normalize_options({}), 0)
    node = (state.pawns, state.fences, state.fences_left, state.turn)
    search = AlphaBeta(Race(state.goals), nodes=40)
    action = search.choose(node)
    assert search.left <= 0 or search.left < 40
    assert ENGINE.format(state, action) in ENGINE.legal_moves(state, 0)


def test_the_catalogue_lists_the_levels_with_their_descriptions() -> None:
    levels = [level.to_json() for level in ENGINE.bot_levels()]
    assert [level["name"] for level in levels] == ["random", "easy", "medium", "strong"]
    assert all(level["description"] for level in levels)


def test_with_four_a_move_that_repeats_a_position_the_third_time_counts_as_the_draw_it_is() -> None:
    state = ENGINE.initial_state(4, ENGINE.normalize_options({"players": 4}), 0)
    node = _node(state)
    race = Race(state.goals)
    step = next(child for action, child in _children(node, race, 8) if action < 81)  # a step, not a fence
    seen_twice = ((step[0], step[3]),) * 2
    assert Rounds(race, seen_twice, 1).after(step, 0, 1, state.fences, []) == DRAWN
    assert Rounds(race, seen_twice[:1], 1).after(step, 0, 1, state.fences, []) != DRAWN
    # A fence since then: that position can no longer come back.
    fenced = ENGINE.play(state, 0, "e4h")
    assert Rounds(race, seen_twice, 1).after(_node(fenced), 0, 1, state.fences, []) != DRAWN


def test_with_four_the_strong_level_breaks_a_stand_off_rather_than_let_it_be_drawn() -> None:
    state = ENGINE.initial_state(4, ENGINE.normalize_options({"players": 4}), 0)
    preferred = strong_bot(ENGINE, state, 0, random.Random(3))
    after = ENGINE.play(state, 0, preferred)
    # The same game, but the position after that move has been seen twice already.
    repeated = dataclasses.replace(state, history=(*state.history, (after.pawns, after.turn), (after.pawns, after.turn)))
    other = strong_bot(ENGINE, repeated, 0, random.Random(3))
    assert other != preferred
    assert other in ENGINE.legal_moves(state, 0)
    assert not ENGINE.play(repeated, 0, other).drawn
    assert ENGINE.play(repeated, 0, preferred).drawn



def test_with_four_a_rival_with_no_move_but_to_pass_is_taken_to_pass() -> None:
    # Seat 2's pawn on a1 is hemmed in by pawns and a fence, with no fence of its own:
    # its only move is to pass. The search must go on past it (it used to wait forever).
    hemmed = ("a2", "a1", "a3", "b2")
    state = position(players=4, pawns=hemmed, fences=("a1v",), fences_left=(5, 0, 5, 5), turn=1)
    assert ENGINE.legal_moves(state, 1) == ["pass"]
    reply = Rounds(Race(state.goals), (), 1).reply(_node(state))
    assert reply[3] == 2 and reply[0] == state.pawns
    before = position(players=4, pawns=hemmed, fences=("a1v",), fences_left=(5, 0, 5, 5), turn=0)
    assert strong_bot(ENGINE, before, 0, random.Random(1)) in ENGINE.legal_moves(before, 0)
