"""Quick pairing: exact small cases, and a brute-force greedy on random small inputs."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from collections.abc import Sequence
from itertools import combinations

import pytest

from matchmaking.pairing import Waiting, pair, window


def seeks(*ratings: float, waited: float = 0.0) -> list[Waiting]:
    """Seeks 1, 2, 3... of players 101, 102, 103... with these ratings."""
    return [Waiting(seek, 100 + seek, rating, waited) for seek, rating in enumerate(ratings, start=1)]


def reference(waiting: Sequence[Waiting], size: int) -> list[tuple[int, ...]]:
    """The rule, slowly: one seek per player (the longest waiting, then the
    smaller id), then again and again the allowed group of smallest spread,
    ties by sorted seek ids, among every set of ``size`` seeks left."""
    kept: dict[int, Waiting] = {}
    for entry in sorted(waiting, key=lambda entry: (-entry.waited, entry.seek)):
        kept.setdefault(entry.player, entry)
    left = list(kept.values())
    groups: list[tuple[int, ...]] = []
    while True:
        best: tuple[float, tuple[int, ...]] | None = None
        for group in combinations(left, size):
            spread = max(entry.rating for entry in group) - min(entry.rating for entry in group)
            if spread <= max(window(entry.waited) for entry in group):
                key = (spread, tuple(sorted(entry.seek for entry in group)))
                if best is None or key < best:
                    best = key
        if best is None:
            return groups
        groups.append(best[1])
        left = [entry for entry in left if entry.seek not in best[1]]


def test_the_window_starts_at_100_points_and_widens_10_a_second() -> None:
    assert window(0) == 100
    assert window(30) == 400
    assert window(120) == 1300
    assert window(-5) == 100
    assert window(61) > window(60)


def test_the_closest_ratings_are_paired_first() -> None:
    assert pair(seeks(1500, 1510, 1600, 1620), 2) == [(1, 2), (3, 4)]
    # Whatever the order they come in: not 1600-1500 then 1620-1510, as a
    # pass in arrival order would pair them.
    assert pair(seeks(1600, 1500, 1620, 1510), 2) == [(2, 4), (1, 3)]


def test_a_gap_wider_than_every_window_leaves_both_waiting() -> None:
    assert pair(seeks(1500, 1700, waited=5), 2) == []


def test_the_same_gap_pairs_once_one_of_them_has_waited_long_enough() -> None:
    newcomer = Waiting(1, 101, 1500.0, 0.0)
    assert pair([newcomer, Waiting(2, 102, 1700.0, 9.9)], 2) == []
    # 200 points away takes a window of 200: 10 seconds of waiting.
    assert pair([newcomer, Waiting(2, 102, 1700.0, 10.0)], 2) == [(1, 2)]


def test_the_longest_waiting_seek_takes_in_a_newcomer_at_once() -> None:
    veteran = Waiting(1, 101, 1000.0, 120.0)
    newcomers = [Waiting(2, 102, 2200.0, 0.0), Waiting(3, 103, 2250.0, 0.0)]
    # The newcomers are closest to each other: they pair, the veteran waits.
    assert pair([veteran, *newcomers], 2) == [(2, 3)]
    assert pair([veteran, newcomers[0]], 2) == [(1, 2)]


def test_groups_of_four_are_the_closest_four() -> None:
    waiting = seeks(1500, 2100, 1510, 1490, 2000, 1520, 1800, 2050, 2060, 1200)

    assert pair(waiting, 4) == [(1, 3, 4, 6), (2, 5, 8, 9)]


def test_a_group_of_four_needs_one_member_whose_window_covers_it() -> None:
    waiting = seeks(1500, 1560, 1620, 1680)  # spread 180, windows 100
    assert pair(waiting, 4) == []
    patient = [*waiting[:3], Waiting(4, 104, 1680.0, 8.0)]  # window 180
    assert pair(patient, 4) == [(1, 2, 3, 4)]


def test_a_player_is_never_paired_with_themselves() -> None:
    alice = 7
    assert pair([Waiting(1, alice, 1500.0, 0.0), Waiting(2, alice, 1500.0, 50.0)], 2) == []


def test_a_player_with_several_seeks_is_in_one_group_with_the_longest_waiting() -> None:
    alice = 7
    waiting = [
        Waiting(1, alice, 1500.0, 3.0),
        Waiting(2, alice, 1500.0, 9.0),
        Waiting(3, 8, 1505.0, 0.0),
        Waiting(4, 9, 1495.0, 0.0),
        Waiting(5, 10, 1900.0, 0.0),
    ]

    # Seek 2 pairs with 3 or 4 (5 points either way; (2, 3) has the smaller
    # ids), and seek 1 is not offered to 4 afterwards.
    assert pair(waiting, 2) == [(2, 3)]


def test_equal_spreads_go_to_the_smallest_seek_ids() -> None:
    # Four players at the same rating: the two smallest ids pair first.
    waiting = [Waiting(seek, seek, 1500.0, 0.0) for seek in (8, 3, 5, 1)]
    assert pair(waiting, 2) == [(1, 3), (5, 8)]
    # Two pairs 20 points apart each: the one with seek 1 goes first.
    assert pair(seeks(1700, 1400, 1720, 1420)[::-1], 2) == [(1, 3), (2, 4)]


def test_a_tie_in_ratings_can_make_a_group_that_is_not_a_run_of_neighbours_win() -> None:
    # In rating order the seeks are 1, 9, 2, 3 (1500, 1500, 1510, 1510): the
    # runs of three are 1-9-2 and 9-2-3, but 1-2-3 spreads as little and its
    # ids come first.
    waiting = [
        Waiting(1, 1, 1500.0, 0.0),
        Waiting(9, 9, 1500.0, 0.0),
        Waiting(2, 2, 1510.0, 0.0),
        Waiting(3, 3, 1510.0, 0.0),
    ]
    assert pair(waiting, 3) == [(1, 2, 3)]


def test_the_order_of_the_input_does_not_matter() -> None:
    rng = random.Random(5)
    waiting = [
        Waiting(seek, seek % 40, rng.choice([1500.0, rng.gauss(1500, 200)]), rng.uniform(0, 40)) for seek in range(60)
    ]
    for size in (2, 3, 4):
        expected = pair(waiting, size)
        for _ in range(5):
            rng.shuffle(waiting)
            assert pair(waiting, size) == expected


def test_it_refuses_groups_of_one_and_seeks_listed_twice() -> None:
    with pytest.raises(ValueError):
        pair(seeks(1500, 1500), 1)
    with pytest.raises(ValueError):
        pair([Waiting(1, 1, 1500.0, 0.0), Waiting(1, 2, 1500.0, 0.0)], 2)


def test_too_few_seeks_make_no_group() -> None:
    assert pair([], 2) == []
    assert pair(seeks(1500, 1500, 1500), 4) == []


def random_case(rng: random.Random) -> list[Waiting]:
    """Up to 9 seeks, in three flavours: ratings all different, ratings on a
    coarse grid (ties everywhere), and either flavour with players seeking twice."""
    count = rng.randint(0, 9)
    grid = rng.random() < 0.5
    players = rng.randint(1, count) if count and rng.random() < 0.3 else count
    return [
        Waiting(
            seek,
            rng.randrange(players) if players < count else seek,
            float(rng.choice([1400, 1450, 1500, 1550, 1600])) if grid else rng.gauss(1500, 150),
            rng.choice([0.0, rng.uniform(0, 60)]),
        )
        for seek in rng.sample(range(1, 100), count)
    ]


@pytest.mark.parametrize("seed", range(4))
def test_it_forms_the_same_groups_as_the_slow_greedy(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(500):
        waiting = random_case(rng)
        size = rng.randint(2, 4)
        assert pair(waiting, size) == reference(waiting, size), (waiting, size)


def test_groups_are_allowed_and_disjoint_in_a_large_pass() -> None:
    rng = random.Random(11)
    waiting = [
        Waiting(seek, rng.randrange(1800), round(rng.gauss(1500, 300)), rng.uniform(0, 120)) for seek in range(2000)
    ]
    by_seek = {entry.seek: entry for entry in waiting}
    for size in (2, 3, 4):
        groups = pair(waiting, size)
        players = [by_seek[seek].player for group in groups for seek in group]
        assert len(players) == len(set(players))
        spreads = []
        for group in groups:
            members = [by_seek[seek] for seek in group]
            spread = max(m.rating for m in members) - min(m.rating for m in members)
            assert spread <= max(window(m.waited) for m in members)
            spreads.append(spread)
        # Taking a group never makes another closer: spreads come in order.
        assert spreads == sorted(spreads)


def test_the_module_is_pure_python() -> None:
    # Only the standard library: the rule can be tested, benchmarked and
    # reused without Django or a database.
    source = Path(__file__).resolve().parents[2] / "matchmaking/pairing.py"
    imported = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= {"__future__", "collections", "dataclasses", "heapq", "itertools", "math"}
