"""Sokoban in review: whether a position can still be solved, and the pushes left."""

from __future__ import annotations

from games.engines.sokoban.engine import Sokoban, SokobanState

ENGINE = Sokoban()
# A box between the player and its goal; pushing it up instead jams it against a wall.
LEVEL = "\n".join([
    "#####",
    "#   #",
    "#@$.#",
    "#   #",
    "#####",
])


def after(lurd: str) -> SokobanState:
    options = ENGINE.normalize_options({"level": LEVEL})
    state = ENGINE.initial_state(1, options, 1)
    for step in lurd:
        state = ENGINE.play(state, 0, step)
    return state


def test_the_start_is_solvable_with_its_fewest_pushes() -> None:
    assert ENGINE.analyse(after(""), 2.0) == {"solvable": True, "pushes_left": 1, "optimal": True}


def test_a_box_pushed_into_a_corner_leaves_the_level_unsolvable() -> None:
    # Round the box and push it up: against the top wall, where no goal is, it never comes off.
    assert ENGINE.analyse(after("drU"), 2.0) == {"solvable": False}


def test_the_solved_position_has_no_pushes_left() -> None:
    assert ENGINE.analyse(after("R"), 2.0) == {"solvable": True, "pushes_left": 0, "optimal": True}
