"""The compact standard forms of whole games (Engine.join_moves / split_moves):
Connect Four's digit string, Sokoban's LURD; the other games have none."""

from __future__ import annotations

import random

import pytest

from games.engines.connect_four import ConnectFour
from games.engines.registry import ENGINES
from games.engines.sokoban.engine import Sokoban


def test_connect_four_writes_a_game_as_its_digit_string_and_reads_it_back() -> None:
    engine = ConnectFour()
    assert engine.join_moves(["4", "4", "5", "3"]) == "4453"
    assert engine.split_moves("4453") == ["4", "4", "5", "3"]
    assert engine.split_moves("44 53\n") == ["4", "4", "5", "3"]


def test_connect_four_has_no_digit_string_for_a_board_wider_than_nine_columns() -> None:
    assert ConnectFour().join_moves(["4", "10", "5"]) is None


def test_sokoban_writes_the_lurd_path_the_moves_leave() -> None:
    engine = Sokoban()
    assert engine.join_moves(["l", "u", "R", "d"]) == "luRd"
    # An undo takes back the letter before it; a reset starts the path again.
    assert engine.join_moves(["l", "u", "undo", "r"]) == "lr"
    assert engine.join_moves(["l", "reset", "d", "L"]) == "dL"
    assert engine.split_moves("luRd") == ["l", "u", "R", "d"]


def test_sokobans_lurd_replays_to_the_same_position() -> None:
    engine = Sokoban()
    options = engine.normalize_options({})
    state = engine.initial_state(1, options, 0)
    rng = random.Random(7)
    moves = []
    for _ in range(60):
        action = engine.random_action(state, 0, rng)
        moves.append(engine.format(state, action))
        state = engine.apply(state, 0, action)
        if engine.is_over(state):
            break
    again = engine.initial_state(1, options, 0)
    for move in engine.split_moves(engine.join_moves(moves) or "") or []:
        again = engine.play(again, 0, move)
    assert (again.player, again.boxes) == (state.player, state.boxes)


@pytest.mark.parametrize("slug", ["quoridor", "eskimo", "manhattan"])
def test_games_without_a_compact_form_say_so(slug: str) -> None:
    assert ENGINES[slug].join_moves(["a"]) is None and ENGINES[slug].split_moves("a") is None
