"""Sokoban rules, from small constructed positions, and the engine interface."""

from __future__ import annotations

import random

import pytest

from games.engines.base import BadNotation, BadOptions, IllegalMove
from games.engines.registry import get_engine
from games.engines.sokoban import DEFAULT_LEVEL, Sokoban, SokobanState, parse_level
from games.engines.sokoban.engine import replay

engine = Sokoban()

# A corridor: the player, then a box, then floor, a goal and a wall.
CORRIDOR = """\
#######
#@$ . #
#######
"""


def start(text: str) -> SokobanState:
    return engine.initial_state(1, engine.normalize_options({"level": text}), 0)


def play(state: SokobanState, moves: str) -> SokobanState:
    for letter in moves.split():
        state = engine.play(state, 0, letter)
    return state


def board(state: SokobanState) -> list[str]:
    return [row.replace("-", " ").rstrip() for row in engine.view(state, 0)["rows"]]


def test_it_is_registered_as_sokoban_for_one_player() -> None:
    assert isinstance(get_engine("sokoban"), Sokoban)
    assert engine.min_players == engine.max_players == 1


def test_the_default_level_is_microban_1() -> None:
    state = engine.initial_state(1, engine.normalize_options({}), 0)
    assert state.level == parse_level(DEFAULT_LEVEL)
    assert board(state) == ["####", "# .#", "#  ###", "#*@  #", "#  $ #", "#  ###", "####"]


def test_the_player_steps_onto_floor() -> None:
    state = play(start("#####\n#@ .#\n#$  #\n#####\n"), "r")
    assert state.player == (2, 1)
    assert (state.moves, state.pushes, state.path) == (1, 0, "r")


def test_the_player_steps_onto_a_goal() -> None:
    state = play(start("#####\n#@.$#\n#####\n"), "r")
    assert board(state)[1] == "# +$#"


def test_the_player_never_walks_through_a_wall() -> None:
    state = start(CORRIDOR)
    with pytest.raises(IllegalMove, match="wall to the left"):
        engine.play(state, 0, "l")
    with pytest.raises(IllegalMove, match="wall"):
        engine.play(state, 0, "u")
    assert engine.legal_moves(state, 0) == ["R"]


def test_a_push_moves_the_box_one_square() -> None:
    state = play(start(CORRIDOR), "r")
    assert board(state)[1] == "# @$. #"
    assert (state.moves, state.pushes, state.path) == (1, 1, "R")


def test_a_box_cannot_be_pushed_into_a_wall() -> None:
    state = play(start("#######\n#@$   #\n#.  $.#\n#######\n"), "r r r")
    assert board(state)[1] == "#   @$#"
    with pytest.raises(IllegalMove, match="against a wall"):
        engine.play(state, 0, "r")


def test_two_boxes_in_a_row_cannot_be_pushed() -> None:
    state = start("#######\n#@$$..#\n#######\n")
    with pytest.raises(IllegalMove, match="two boxes"):
        engine.play(state, 0, "r")
    assert engine.legal_actions(state, 0) == []


def test_a_box_pushed_onto_a_goal_becomes_a_box_on_goal() -> None:
    state = play(start("#####\n#@$.#\n# $.#\n#####\n"), "R")
    assert board(state)[1] == "# @*#"
    assert not state.solved


def test_a_box_can_be_pushed_off_a_goal() -> None:
    state = play(start("######\n#@* .#\n#$   #\n######\n"), "r")
    assert board(state)[1] == "# +$.#"
    assert state.pushes == 1


def test_solving_the_level_ends_the_game_with_a_win() -> None:
    state = play(start(CORRIDOR), "r r")
    outcome = engine.outcome(state)
    assert state.solved and outcome is not None
    assert outcome.results == ("win",) and outcome.reason == "solved"
    assert engine.to_move(state) == () and engine.legal_actions(state, 0) == []
    with pytest.raises(IllegalMove, match="over"):
        engine.play(state, 0, "undo")


def test_undo_takes_back_a_push_but_keeps_the_counters() -> None:
    first = start(CORRIDOR)
    state = play(first, "r")
    back = play(state, "undo")
    assert (back.player, back.boxes) == (first.player, first.boxes)
    assert (back.moves, back.pushes, back.path) == (1, 1, "")


def test_undo_takes_back_one_step_at_a_time_to_the_start_at_most() -> None:
    state = play(start("#######\n#@ $. #\n#.$   #\n#######\n"), "r R")
    assert state.path == "rR"
    state = play(state, "undo")
    assert (state.path, state.player, state.moves) == ("r", (2, 1), 2)
    state = play(state, "undo")
    assert (state.path, state.player) == ("", (1, 1))
    assert "undo" not in engine.legal_actions(state, 0)
    with pytest.raises(IllegalMove, match="nothing to undo"):
        engine.play(state, 0, "undo")


def test_reset_returns_everything_to_the_start_counters_included() -> None:
    first = start("#######\n#@ $ .#\n#######\n")
    state = play(first, "r R undo r")
    assert (state.moves, state.pushes, state.path) == (3, 2, "rR")
    assert play(state, "reset") == first
    assert "reset" in engine.legal_moves(state, 0)
    assert "reset" not in engine.legal_moves(first, 0)
    with pytest.raises(IllegalMove, match="already at its start"):
        engine.play(first, 0, "reset")


def test_reset_is_offered_after_undoing_back_to_the_start() -> None:
    state = play(start(CORRIDOR), "r undo")
    assert engine.legal_moves(state, 0) == ["R", "reset"]


def test_legal_moves_show_pushes_in_upper_case() -> None:
    state = start("######\n#    #\n# @$.#\n#    #\n######\n")
    assert engine.legal_moves(state, 0) == ["l", "u", "R", "d"]


def test_a_push_may_be_written_in_lower_case_and_is_logged_in_upper_case() -> None:
    state = start(CORRIDOR)
    action = engine.parse(state, "r")
    assert engine.format(state, action) == "R"
    assert engine.parse(state, "R") == action


def test_an_upper_case_letter_must_push() -> None:
    state = start("######\n#@ $.#\n######\n")
    with pytest.raises(IllegalMove, match="no box"):
        engine.parse(state, "R")


@pytest.mark.parametrize("text", ["x", "", "rr", "left", "5", None])
def test_it_refuses_text_that_is_not_a_move(text: str) -> None:
    with pytest.raises(BadNotation):
        engine.parse(start(CORRIDOR), text)


def test_the_view_carries_the_board_and_counters() -> None:
    view = engine.view(play(start(CORRIDOR), "r undo r"), None)
    assert view["width"] == 7 and view["height"] == 3
    assert view["rows"][1] == "#-@$.-#"
    assert view["boxes"] == [[3, 1]] and view["goals"] == [[4, 1]] and view["player"] == [2, 1]
    assert len(view["walls"]) == 16
    assert (view["moves"], view["pushes"], view["path"]) == (2, 2, "R")
    assert view["solved"] is False and view["can_undo"] is True


def test_the_view_tells_floor_inside_from_space_outside() -> None:
    view = engine.view(engine.initial_state(1, engine.normalize_options({}), 0), 0)
    assert view["rows"][0] == "####  "
    assert view["rows"][1] == "#-.#  "


def test_the_level_option_is_checked() -> None:
    with pytest.raises(BadOptions, match="no player"):
        engine.normalize_options({"level": "####\n#$.#\n####\n"})
    with pytest.raises(BadOptions, match="must be a string"):
        engine.normalize_options({"level": 5})


def test_the_title_option_is_shown() -> None:
    state = engine.initial_state(1, engine.normalize_options({"title": "First"}), 0)
    assert engine.view(state, 0)["title"] == "First"


def test_serialisation_round_trips_mid_game() -> None:
    for moves in ["", "r", "r undo", "r r", "r undo r reset r"]:
        state = play(start("########\n#@$ . .#\n#  $   #\n########\n"), moves)
        data = engine.serialize(state)
        assert engine.deserialize(data) == state


def test_replay_applies_a_lurd_string() -> None:
    level = parse_level(CORRIDOR)
    assert replay(level, "RR").solved
    assert replay(level, "rr").solved
    with pytest.raises(IllegalMove, match="letter 1"):
        replay(level, "lR")
    with pytest.raises(BadNotation, match="letter 2"):
        replay(level, "Rx")


def test_random_playouts_keep_the_counters_and_path_consistent() -> None:
    rng = random.Random(7)
    for _ in range(20):
        state = engine.initial_state(1, engine.normalize_options({}), 0)
        for _ in range(60):
            if engine.is_over(state):
                break
            before = state
            action = engine.random_action(state, 0, rng)
            state = engine.apply(state, 0, action)
            if action == "reset":
                assert state.moves == state.pushes == 0 and state.path == ""
            else:
                assert state.moves >= before.moves and state.pushes >= before.pushes
            assert len(state.boxes) == len(before.boxes)
            assert state.boxes.isdisjoint(state.level.walls) and state.player not in state.boxes
            again = replay(state.level, state.path)
            assert (again.player, again.boxes) == (state.player, state.boxes)
            assert engine.deserialize(engine.serialize(state)) == state
