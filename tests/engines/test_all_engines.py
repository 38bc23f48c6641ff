"""Random playouts over every registered engine (the OpenSpiel games_sim idea).

Whatever the game, the interface must hold: legal moves format and parse back
to themselves and apply; states serialise round trip and replay from the log;
views are JSON; the game ends with a result per seat, or is cut off after a cap.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engines.base import BadNotation, BadOptions, Engine, IllegalMove, Outcome, places_by
from games.engines.registry import ENGINES

SLUGS = sorted(ENGINES)
MAX_PLIES = 400


def player_counts(engine: Engine[Any, Any]) -> list[int]:
    counts = list(range(engine.min_players, engine.max_players + 1))
    valid = []
    for n in counts:
        try:
            engine.normalize_options({"players": n})
            valid.append(n)
        except BadOptions:
            pass
    return valid


@pytest.mark.parametrize("slug", SLUGS)
def test_random_playouts_keep_every_promise_of_the_interface(slug: str) -> None:
    engine = ENGINES[slug]
    for players in player_counts(engine):
        options = engine.normalize_options({"players": players})
        for seed in range(3):
            rng = random.Random(seed)
            state = engine.initial_state(players, options, seed)
            log: list[tuple[int, str]] = []
            for _ in range(MAX_PLIES):
                if engine.outcome(state) is not None:
                    break
                to_move = engine.to_move(state)
                assert len(to_move) == 1, "a game in progress has one seat to move (the platform relies on it)"
                seat = to_move[0]
                moves = engine.legal_moves(state, seat)
                assert moves, "a seat to move has a legal move (pass where the rules say so)"
                assert len(set(moves)) == len(moves), "no move is listed twice"
                for other in range(players):
                    if other not in to_move:
                        assert engine.legal_moves(state, other) == []
                move = rng.choice(moves)
                action = engine.parse(state, move)
                assert engine.format(state, action) == move
                assert isinstance(engine.describe(state, seat, action), str)
                state = engine.apply(state, seat, action)
                log.append((seat, move))
                assert engine.deserialize(json.loads(json.dumps(engine.serialize(state)))) == state
                for viewer in [None, *range(players)]:
                    json.dumps(engine.view(state, viewer))
            outcome = engine.outcome(state)
            if outcome is not None:
                assert len(outcome.results) == players
                assert set(outcome.results) <= {"win", "loss", "draw"}
                assert outcome.reason
                assert_places_agree_with_results(outcome.results, outcome.places)
                assert engine.to_move(state) == ()
            assert engine.replay(players, options, seed, log) == state


def assert_places_agree_with_results(results: tuple[str, ...], places: tuple[int, ...]) -> None:
    """Places are competition ranks ("1224"), and a better result never places lower."""
    assert len(places) == len(results)
    assert min(places) == 1
    for place in places:
        assert place == 1 + sum(other < place for other in places)
    order = {"win": 0, "draw": 1, "loss": 2}
    for a, b in [(a, b) for a in range(len(results)) for b in range(len(results))]:
        if order[results[a]] < order[results[b]]:
            assert places[a] < places[b], (results, places)
    winners = [seat for seat, result in enumerate(results) if result == "win"]
    assert all(places[seat] == 1 for seat in winners)


def test_places_follow_from_results_where_the_game_ranks_no_further() -> None:
    assert Outcome(("win", "loss"), "x").places == (1, 2)
    assert Outcome(("loss", "win"), "x").places == (2, 1)
    assert Outcome(("draw", "draw"), "x").places == (1, 1)
    # Four-player Quoridor: the winner first, the other three tied for second.
    assert Outcome(("loss", "loss", "win", "loss"), "x").places == (2, 2, 1, 2)


def test_places_by_ranks_like_a_race() -> None:
    assert places_by([3, 1, 1, 2]) == (4, 1, 1, 3)
    assert places_by([(0, -5), (0, -7), (1, 0)]) == (2, 1, 3)


def test_an_outcome_needs_a_place_for_every_seat() -> None:
    with pytest.raises(ValueError):
        Outcome(("win", "loss"), "x", places=(1,))


@pytest.mark.parametrize("slug", [slug for slug in SLUGS if ENGINES[slug].max_players >= 2])
def test_a_resignation_places_the_resigner_last(slug: str) -> None:
    engine = ENGINES[slug]
    options = engine.normalize_options({})
    players = options["players"]
    state = engine.initial_state(players, options, 3)
    outcome = engine.resign(state, 1, players)
    assert outcome.places[1] == players and all(outcome.places[s] == 1 for s in range(players) if s != 1)
    assert outcome.to_json()["places"] == list(outcome.places)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_has_the_random_level_and_describes_each_level(slug: str) -> None:
    levels = ENGINES[slug].bot_levels()
    assert levels[0].name == "random"
    assert len({level.name for level in levels}) == len(levels)
    assert all(level.description and callable(level.play) for level in levels)
    with pytest.raises(KeyError):
        ENGINES[slug].bot("no-such-level")


@pytest.mark.parametrize("slug", SLUGS)
def test_garbage_is_bad_notation_not_a_crash(slug: str) -> None:
    engine = ENGINES[slug]
    options = engine.normalize_options({})
    state = engine.initial_state(options["players"], options, 7)
    seat = engine.to_move(state)[0]
    # "²" and "①" are digits to str.isdigit but not to int(): a parser that
    # trusts isdigit would crash where it should refuse.
    nasty = ["²", "①", "4²", "e²", "e²h", "c²-ne", "5@3/²", "²@3/1", "pick:²²²²²²", "discard:²", "9" * 5000]
    for text in ["", "  ", "zzzz", "!!", "9" * 40, "\x00", "é", *nasty]:
        with pytest.raises((BadNotation, IllegalMove)):
            engine.play(state, seat, text)


@pytest.mark.parametrize("slug", SLUGS)
def test_unknown_options_are_refused(slug: str) -> None:
    with pytest.raises(BadOptions):
        ENGINES[slug].normalize_options({"no_such_option": 1})
    with pytest.raises(BadOptions):
        ENGINES[slug].normalize_options({"players": ENGINES[slug].max_players + 1})


@pytest.mark.parametrize("slug", SLUGS)
def test_the_catalogue_entry_is_json(slug: str) -> None:
    entry = ENGINES[slug].catalogue().to_json()
    assert json.loads(json.dumps(entry))["slug"] == slug
