"""Whole seeded Manhattan games: bots through the engine, what each view may
show, serialisation, notation round trips and replay."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from games.engines.base import WIN
from games.engines.bots import bot_levels, get_bot
from games.engines.manhattan import (
    BUILD,
    EAST,
    NORTH,
    PICK,
    SOUTH,
    WEST,
    Manhattan,
    ManhattanState,
    Site,
    site_index,
)
from games.engines.manhattan_ai import strong_choice
from games.engines.registry import get_engine

ENGINE = Manhattan()
OPTIONS = ENGINE.normalize_options({})


def random_game(seed: int) -> Iterator[tuple[ManhattanState, int, str]]:
    """Every (position, seat to move, move played) of a game between random bots."""
    state = ENGINE.initial_state(4, OPTIONS, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_move(state)[0]
        move = ENGINE.format(state, ENGINE.random_action(state, seat, rng))
        yield state, seat, move
        state = ENGINE.play(state, seat, move)
    yield state, -1, ""


def test_manhattan_is_registered_with_its_bots() -> None:
    assert isinstance(get_engine("manhattan"), Manhattan)
    assert bot_levels("manhattan") == ["greedy", "random", "strong"]


@pytest.mark.parametrize("seed", range(12))
def test_a_random_game_runs_to_its_end_by_the_rules(seed: int) -> None:
    moves = 0
    for state, seat, move in random_game(seed):
        if seat < 0:
            break
        moves += 1
        assert ENGINE.to_move(state) == (seat,)
        for other in range(4):
            if other != seat:
                assert ENGINE.legal_actions(state, other) == []
        assert move in ENGINE.legal_moves(state, seat)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners and len(outcome.scores) == 4
    assert outcome.scores == state.scores == tuple(map(sum, zip(*state.round_points)))
    assert len(state.round_points) == 4
    # 4 rounds of 4 picks and 24 turns; every piece of every player was used.
    assert moves == 4 * (4 + 24)
    assert all(stock == (0, 0, 0, 0) for stock in state.stock)
    placed = sum(site.height for site in state.board)
    lost = sum(sum(pieces) for pieces in state.lost)
    assert placed + lost == 4 * 47


@pytest.mark.parametrize("seed", range(6))
def test_every_move_formats_parses_and_describes(seed: int) -> None:
    for state, seat, _ in random_game(seed):
        if seat < 0:
            break
        for action in ENGINE.legal_actions(state, seat):
            text = ENGINE.format(state, action)
            assert ENGINE.parse(state, text) == action
            assert ENGINE.describe(state, seat, action).startswith(
                ("South ", "West ", "North ", "East ")
            )


@pytest.mark.parametrize("seed", range(8))
def test_serialisation_round_trips_through_json(seed: int) -> None:
    for state, _, _ in random_game(seed):
        data = json.loads(json.dumps(ENGINE.serialize(state)))
        assert ENGINE.deserialize(data) == state


@pytest.mark.parametrize("seed", [3, 99, 2024])
def test_a_game_replays_exactly_from_options_seed_and_moves(seed: int) -> None:
    log = [(seat, move) for _, seat, move in random_game(seed) if seat >= 0]
    *_, (final, _, _) = random_game(seed)
    assert ENGINE.replay(4, OPTIONS, seed, log) == final
    assert ENGINE.replay(4, OPTIONS, seed, log[:50]) == ENGINE.replay(4, OPTIONS, seed, log[:50])
    # Another seed deals other cards, so the same log soon stops being legal or differs.
    other = ENGINE.initial_state(4, OPTIONS, seed + 1)
    assert other.hands != ENGINE.initial_state(4, OPTIONS, seed).hands


# --- hidden information -----------------------------------------------------------


def reshuffle_hidden(state: ManhattanState, seat: int | None, rng: random.Random) -> ManhattanState:
    """The same position with everything ``seat`` may not see dealt again at random."""
    hidden_seats = [s for s in range(4) if s != seat]
    cards = [card for s in hidden_seats for card in state.hands[s]] + list(state.deck)
    rng.shuffle(cards)
    hands = list(state.hands)
    at = 0
    for s in hidden_seats:
        hands[s] = tuple(sorted(cards[at : at + len(state.hands[s])]))
        at += len(state.hands[s])
    return replace(state, hands=tuple(hands), deck=tuple(cards[at:]))


def keys_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_in(item)


@pytest.mark.parametrize("seed", range(10))
def test_no_view_shows_another_seats_cards_or_the_deck(seed: int) -> None:
    rng = random.Random(seed)
    for state, _, _ in random_game(seed):
        for viewer in (None, 0, 1, 2, 3):
            view = ENGINE.view(state, viewer)
            json.dumps(view)
            # The view depends on nothing the viewer may not see: dealing the
            # hidden cards again leaves it unchanged.
            assert ENGINE.view(reshuffle_hidden(state, viewer, rng), viewer) == view
            keys = set(keys_in(view))
            assert not keys & {"hands", "deck", "seed"}
            if viewer is None:
                assert "hand" not in keys and "hand_sites" not in keys
            else:
                assert view["hand"] == list(state.hands[viewer])
                assert list(keys_in(view)).count("hand") == 1
            assert [s["hand_size"] for s in view["seats"]] == [len(h) for h in state.hands]
            assert view["deck_size"] == len(state.deck)


def test_the_view_has_what_a_page_needs() -> None:
    state = ENGINE.initial_state(4, OPTIONS, 5)
    for seat in state.order():
        state = ENGINE.play(state, seat, "pick:111234")
    seat = state.turn
    card = state.hands[seat][0]
    state = ENGINE.play(state, seat, f"{card}@4/3")
    view = ENGINE.view(state, state.turn)
    assert set(view) >= {
        "seat", "round", "phase", "start_player", "to_move", "order", "seats", "cities",
        "deck_size", "cards_played", "last_move", "after_rounds", "hand", "hand_sites",
    }
    assert view["phase"] == "build" and view["round"] == 1
    assert view["last_move"]["seat"] == seat and view["last_move"]["notation"] == f"{card}@4/3"
    who = view["seats"][seat]["direction"]
    assert view["last_move"]["text"].startswith(f"{who} built a 3-storey piece on city 4, ")
    assert view["cards_played"][card - 1] == 1 and sum(view["cards_played"]) == 1
    mover = view["seats"][seat]
    assert mover["picked"] == [1, 1, 1, 2, 4] and mover["remaining"] == {"1": 8, "2": 5, "3": 3, "4": 2}
    assert len(view["cities"]) == 6 and all(len(c["sites"]) == 3 for c in view["cities"])
    built = [
        site for city in view["cities"] for row in city["sites"] for site in row if site["owner"] is not None
    ]
    assert len(built) == 1 and built[0]["height"] == 3 and built[0]["owner"] == seat
    for card_text, target in view["hand_sites"].items():
        assert int(card_text) in view["hand"]
        assert set(target) == {"row", "column", "name"}


# --- bots --------------------------------------------------------------------------


def play_bots(seed: int, levels: list[str]) -> ManhattanState:
    bots = [get_bot("manhattan", level) for level in levels]
    rng = random.Random(seed)
    state = ENGINE.initial_state(4, OPTIONS, seed)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_move(state)[0]
        move = bots[seat](ENGINE, state, seat, rng)
        assert move in ENGINE.legal_moves(state, seat)
        state = ENGINE.play(state, seat, move)
    return state


@pytest.mark.parametrize(
    "seed, levels",
    [(1, ["strong", "greedy", "random", "greedy"]), (2, ["random", "greedy", "random", "greedy"])],
)
def test_whole_games_between_bots(seed: int, levels: list[str]) -> None:
    final = play_bots(seed, levels)
    outcome = ENGINE.outcome(final)
    assert outcome is not None and WIN in outcome.results


def test_greedy_beats_random_bots_most_of_the_time() -> None:
    wins = 0
    for seed in range(10):
        outcome = ENGINE.outcome(play_bots(seed, ["greedy", "random", "random", "random"]))
        assert outcome is not None
        wins += outcome.results[0] == WIN
    assert wins >= 7


def test_the_strong_bot_decides_on_what_its_seat_can_see() -> None:
    # Mid-game positions: the hidden cards dealt again do not change its move.
    for seed in (4,):
        rng = random.Random(seed)
        for index, (state, seat, _) in enumerate(random_game(seed)):
            if seat < 0 or index % 10:
                continue
            other = reshuffle_hidden(state, seat, rng)
            first = strong_choice(ENGINE.view(state, seat), random.Random(1), budget=float("inf"))
            again = strong_choice(ENGINE.view(other, seat), random.Random(1), budget=float("inf"))
            assert first == again
            assert first in ENGINE.legal_moves(state, seat)


def blocked_for_south() -> ManhattanState:
    base = ENGINE.initial_state(4, OPTIONS, 11)
    board = list(base.board)
    for city in range(1, 7):
        for column in range(3):
            board[site_index(city, 0, column)] = Site((0, 4, 0, 0), 1)
    return replace(
        base,
        directions=(SOUTH, WEST, NORTH, EAST),
        phase=BUILD,
        start=0,
        turn=0,
        hands=((1, 2, 3, 3), (5, 5, 5, 5), (5, 5, 5, 5), (5, 5, 5, 5)),
        picked=((1, 2, 3),) * 4,
        board=tuple(board),
    )


@pytest.mark.parametrize("level", ["random", "greedy", "strong"])
def test_every_bot_discards_when_nothing_can_be_built(level: str) -> None:
    state = blocked_for_south()
    move = get_bot("manhattan", level)(ENGINE, state, 0, random.Random(0))
    assert move.startswith("discard:")
    ENGINE.play(state, 0, move)


@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_bots_play_the_forced_round_four_pick(level: str) -> None:
    state = replace(
        blocked_for_south(), round=4, phase=PICK, picked=((),) * 4, stock=((3, 1, 1, 1),) * 4
    )
    assert get_bot("manhattan", level)(ENGINE, state, 0, random.Random(0)) == "pick:111234"


def test_greedy_takes_the_city_majority_when_it_can() -> None:
    base = blocked_for_south()
    board = list(ENGINE.initial_state(4, OPTIONS, 11).board)
    # West holds two buildings of city 2, South one; taking the 1-high one of West
    # at the centre wins the city for South.
    board[site_index(2, 0, 0)] = Site((0, 1, 0, 0), 1)
    board[site_index(2, 1, 1)] = Site((0, 1, 0, 0), 1)
    board[site_index(2, 2, 2)] = Site((1, 0, 0, 0), 0)
    state = replace(base, board=tuple(board), hands=((5, 9, 9, 9),) + base.hands[1:],
                    picked=((1, 1, 2, 3),) * 4)
    assert get_bot("manhattan", "greedy")(ENGINE, state, 0, random.Random(0)) == "5@2/1"
