"""Eskimo's computer players (games/engines/eskimo_ai.py): legal, they see wins, medium and
strong never hand one over. Strength is shown by bench/eskimo_bots.py."""

from __future__ import annotations

import random

import pytest

from games.engines.eskimo import Eskimo, _after, _destinations, setup
from games.engines import eskimo_ai
from games.engines.eskimo_ai import easy_bot, medium_bot, strong_bot

ENGINE = Eskimo()
LEVELS = {"easy": easy_bot, "medium": medium_bot, "strong": strong_bot}


def test_every_level_plays_only_legal_moves_to_the_end_of_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # A smaller budget keeps this test short; the moves are as legal either way.
    monkeypatch.setattr(eskimo_ai, "STRONG_NODES", 2_000)
    names = list(LEVELS)
    for seed in range(3):
        state = ENGINE.initial_state(2, ENGINE.normalize_options({}), seed)
        rng = random.Random(seed)
        seats = [names[seed % 3], names[(seed + 1) % 3]]
        while not ENGINE.is_over(state):
            seat = ENGINE.to_move(state)[0]
            move = LEVELS[seats[seat]](ENGINE, state, seat, rng)
            assert move in ENGINE.legal_moves(state, seat)
            state = ENGINE.play(state, seat, move)


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_the_bear_is_trapped_when_it_can_be(level: str) -> None:
    # The bear in the a1 corner, a2 already blocked: sliding e1 west stops on b1.
    state = setup(({"a2", "e1"}, {"e5"}), "a1")
    assert LEVELS[level](ENGINE, state, 0, random.Random(3)) == "e1-w"


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_no_win_is_left_to_the_opponent(level: str) -> None:
    # Black's e1 threatens to slide to b1 and trap the bear in a1 (a2 is white's).
    state = setup(({"a2", "c5"}, {"e1", "e5"}), "a1")
    for seed in range(5):
        move = LEVELS[level](ENGINE, state, 0, random.Random(seed))
        after = ENGINE.play(state, 0, move)
        replies = _destinations(after.position)
        assert not any(_after(after.position, reply, end).bear_trapped() for reply, end in replies.items()), move


def test_the_levels_are_listed_with_their_descriptions() -> None:
    levels = [level.to_json() for level in ENGINE.bot_levels()]
    assert [level["name"] for level in levels] == ["random", "easy", "medium", "strong"]
    assert all(level["description"] for level in levels)
