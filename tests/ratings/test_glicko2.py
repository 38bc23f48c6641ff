"""Glicko-2 against the paper's worked example and the properties a rating must have."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from ratings.glicko2 import (
    DEFAULT_DEVIATION,
    DEFAULT_RATING,
    DEFAULT_VOLATILITY,
    PROVISIONAL_DEVIATION,
    Rating,
    rate,
    rate_by_places,
)


def test_it_reproduces_glickmans_worked_example() -> None:
    player = Rating(1500.0, 200.0, 0.06)
    games = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0), (Rating(1700.0, 300.0), 0.0)]

    after = rate(player, games, tau=0.5)

    # The paper prints 1464.06 because it rounds mu' to -0.2069 before
    # converting back; unrounded, the rating is 1464.0507. Both agree within
    # 0.01, and the paper's volatility 0.05999 is 0.059996 truncated.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_between_two_new_players_moves_both_by_the_same_amount() -> None:
    winner, loser = rate_by_places([Rating(), Rating()], [1, 2])

    assert round(winner.rating, 1) == 1662.3
    assert round(loser.rating, 1) == 1337.7
    assert winner.deviation == loser.deviation < DEFAULT_DEVIATION


def test_a_draw_between_equals_keeps_them_equal_and_more_certain() -> None:
    alice = bob = Rating(1620.0, 180.0, 0.06)

    after_alice, after_bob = rate_by_places([alice, bob], [1, 1])

    assert after_alice == after_bob
    assert after_alice.rating == pytest.approx(1620.0)
    assert after_alice.deviation < alice.deviation


def test_rating_by_places_is_rating_against_each_other_seat_with_pairwise_scores() -> None:
    ratings = [Rating(1500.0, 350.0), Rating(1720.0, 80.0, 0.05), Rating(1390.0, 150.0), Rating(1610.0, 60.0, 0.07)]
    places = [1, 2, 2, 4]
    # Seat 0 beat everyone; seats 1 and 2 drew with each other, lost to seat 0
    # and beat seat 3; seat 3 lost to everyone.
    scores = [
        [None, 1.0, 1.0, 1.0],
        [0.0, None, 0.5, 1.0],
        [0.0, 0.5, None, 1.0],
        [0.0, 0.0, 0.0, None],
    ]

    by_places = rate_by_places(ratings, places)

    for seat in range(4):
        games = [(ratings[other], score) for other, score in enumerate(scores[seat]) if score is not None]
        assert by_places[seat] == rate(ratings[seat], games)


def test_swapping_seats_swaps_the_results() -> None:
    rng = random.Random(8)
    for _ in range(50):
        count = rng.randint(2, 5)
        ratings = [
            Rating(rng.uniform(800, 2400), rng.uniform(40, 350), rng.uniform(0.04, 0.09)) for _ in range(count)
        ]
        places = [rng.randint(1, count) for _ in range(count)]
        order = list(range(count))
        rng.shuffle(order)

        straight = rate_by_places(ratings, places)
        shuffled = rate_by_places([ratings[i] for i in order], [places[i] for i in order])

        assert shuffled == [straight[i] for i in order]


def test_winning_never_lowers_a_rating_and_a_better_score_never_rates_lower() -> None:
    rng = random.Random(12)
    for _ in range(300):
        player = Rating(rng.uniform(800, 2400), rng.uniform(30, 350), rng.uniform(0.03, 0.1))
        opponents = [Rating(rng.uniform(800, 2400), rng.uniform(30, 350)) for _ in range(rng.randint(1, 4))]

        won = rate(player, [(opponent, 1.0) for opponent in opponents])
        lost = rate(player, [(opponent, 0.0) for opponent in opponents])
        assert won.rating >= player.rating >= lost.rating

        others = [(opponent, rng.choice([0.0, 0.5, 1.0])) for opponent in opponents[1:]]
        by_score = [rate(player, [(opponents[0], score), *others]).rating for score in (0.0, 0.5, 1.0)]
        assert by_score == sorted(by_score)


def test_a_period_without_games_only_grows_the_deviation() -> None:
    player = Rating(1830.0, 80.0, 0.06)

    after = rate(player, [])

    assert after.rating == player.rating
    assert after.volatility == player.volatility
    assert after.deviation == pytest.approx((80.0**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_the_deviation_never_exceeds_that_of_a_newcomer() -> None:
    assert rate(Rating(), []).deviation == DEFAULT_DEVIATION
    assert rate(Rating(1500.0, 349.9), []).deviation == DEFAULT_DEVIATION
    # Losing to an unknown player 2,500 points above says almost nothing:
    # uncapped, this newcomer's deviation would come out at 350.13.
    assert rate(Rating(), [(Rating(4000.0, 350.0), 0.0)]).deviation == DEFAULT_DEVIATION
    rng = random.Random(3)
    for _ in range(200):
        player = Rating(rng.uniform(800, 2400), rng.uniform(250, 350), rng.uniform(0.05, 0.2))
        opponents = [(Rating(rng.uniform(0, 3000), 350.0), rng.choice([0.0, 0.5, 1.0])) for _ in range(3)]
        assert rate(player, opponents).deviation <= DEFAULT_DEVIATION


def test_a_rating_is_provisional_until_its_deviation_falls_below_110() -> None:
    assert Rating().provisional
    assert Rating(deviation=PROVISIONAL_DEVIATION).provisional
    assert not Rating(deviation=PROVISIONAL_DEVIATION - 0.001).provisional
    assert (Rating().rating, Rating().deviation, Rating().volatility) == (
        DEFAULT_RATING,
        DEFAULT_DEVIATION,
        DEFAULT_VOLATILITY,
    )


def test_it_refuses_places_that_do_not_match_the_seats() -> None:
    with pytest.raises(ValueError):
        rate_by_places([Rating(), Rating()], [1])


def test_the_module_is_pure_python() -> None:
    # Only the standard library: the rule can be tested, benchmarked and
    # reused without Django or a database.
    source = Path(__file__).resolve().parents[2] / "ratings/glicko2.py"
    imported = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= {"__future__", "collections", "dataclasses", "heapq", "itertools", "math"}
