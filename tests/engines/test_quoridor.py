"""Quoridor rules, from constructed positions, golden counts and playouts.

No database. Positions are built with ``quoridor.position`` (pawns as
squares, fences in notation) so each rule is tested where it bites.
"""

from __future__ import annotations

import json
import random

import pytest

from games.engines.base import DRAW, LOSS, WIN, BadNotation, BadOptions, IllegalMove
from games.engines.quoridor import FENCE_H, PASS, Quoridor, QuoridorState, position
from games.engines.registry import get_engine

ENGINE = Quoridor()


def start(players: int = 2) -> QuoridorState:
    return ENGINE.initial_state(players, ENGINE.normalize_options({"players": players}), 0)


def pawn_moves(state: QuoridorState) -> set[str]:
    return {m for m in ENGINE.legal_moves(state, state.turn) if m[-1] not in "hv"}


def fence_moves(state: QuoridorState) -> set[str]:
    return {m for m in ENGINE.legal_moves(state, state.turn) if m[-1] in "hv"}


def refused(state: QuoridorState, move: str) -> str:
    """The IllegalMove message for ``move`` by the seat to move (it must be refused)."""
    assert move not in ENGINE.legal_moves(state, state.turn)
    with pytest.raises(IllegalMove) as error:
        ENGINE.play(state, state.turn, move)
    return str(error.value)


def play(state: QuoridorState, *moves: str) -> QuoridorState:
    for move in moves:
        state = ENGINE.play(state, state.turn, move)
    return state


# --- options, seats, registry -----------------------------------------------------


def test_it_is_registered_as_quoridor() -> None:
    assert isinstance(get_engine("quoridor"), Quoridor)


def test_it_defaults_to_two_players_and_allows_four() -> None:
    assert ENGINE.normalize_options({})["players"] == 2
    assert ENGINE.normalize_options({"players": 4})["players"] == 4


@pytest.mark.parametrize("players", [1, 3, 5])
def test_it_refuses_other_player_counts(players: int) -> None:
    with pytest.raises(BadOptions):
        ENGINE.normalize_options({"players": players})


def test_it_refuses_three_players_saying_why() -> None:
    with pytest.raises(BadOptions, match="2 or 4 players"):
        ENGINE.normalize_options({"players": 3})
    with pytest.raises(BadOptions):
        ENGINE.initial_state(3, {"players": 3}, 0)


def test_two_players_start_on_e1_and_e9_with_ten_fences_each() -> None:
    state = start(2)
    view = ENGINE.view(state, None)
    assert view["pawns"] == ["e1", "e9"]
    assert view["walls_left"] == [10, 10]
    assert view["goals"] == ["row 9", "row 1"]
    assert ENGINE.to_move(state) == (0,)
    assert pawn_moves(state) == {"d1", "f1", "e2"}


def test_four_players_start_on_the_four_sides_and_play_clockwise() -> None:
    state = start(4)
    view = ENGINE.view(state, None)
    assert view["pawns"] == ["e1", "a5", "e9", "i5"]
    assert view["walls_left"] == [5, 5, 5, 5]
    assert view["goals"] == ["row 9", "column i", "row 1", "column a"]
    turns = []
    for move in ("e2", "b5", "e8", "h5", "e3"):
        turns.append(state.turn)
        state = ENGINE.play(state, state.turn, move)
    assert turns == [0, 1, 2, 3, 0]
    assert ENGINE.view(state, None)["pawns"] == ["e3", "b5", "e8", "h5"]


def test_it_refuses_a_move_out_of_turn() -> None:
    state = start()
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        ENGINE.play(state, 1, "e8")


def test_apply_leaves_the_given_state_unchanged() -> None:
    state = play(start(), "e2", "e3h")
    before = ENGINE.serialize(state)
    ENGINE.play(state, state.turn, "e3")
    ENGINE.play(state, state.turn, "a1h")
    assert ENGINE.serialize(state) == before


# --- pawn steps -----------------------------------------------------------------


def test_a_pawn_steps_one_square_orthogonally() -> None:
    state = position(pawns=("e5", "a9"))
    assert pawn_moves(state) == {"e4", "e6", "d5", "f5"}
    assert "out of reach" in refused(state, "e7")
    assert "out of reach" in refused(state, "f6")
    assert "already on e5" in refused(state, "e5")


def test_a_fence_blocks_a_step() -> None:
    state = position(pawns=("e5", "a9"), fences=("e5h", "d4v"))
    # e5h is above e5 and f5; d4v stands between d and e on rows 4 and 5.
    assert pawn_moves(state) == {"e4", "f5"}
    assert refused(state, "e6") == "a fence blocks the step from e5 to e6"
    assert refused(state, "d5") == "a fence blocks the step from e5 to d5"


def test_a_pawn_cannot_step_onto_a_pawn_or_off_the_board() -> None:
    state = position(pawns=("a1", "a2"))
    # Facing P2 with an open square behind it: only the straight jump.
    assert pawn_moves(state) == {"b1", "a3"}
    assert "taken by P2" in refused(state, "a2")


# --- jumps ----------------------------------------------------------------------


def test_a_pawn_jumps_straight_over_a_pawn_it_faces() -> None:
    state = position(pawns=("e4", "e5"))
    assert pawn_moves(state) == {"d4", "f4", "e3", "e6"}
    after = ENGINE.play(state, 0, "e6")
    assert after.pawns[0] == 5 * 9 + 4
    assert ENGINE.describe(state, 0, ENGINE.parse(state, "e6")) == "jumped to e6"
    assert ENGINE.describe(state, 0, ENGINE.parse(state, "e3")) == "moved to e3"


def test_jumps_are_optional_and_go_sideways_too() -> None:
    state = position(pawns=("e5", "f5"))
    assert pawn_moves(state) == {"e4", "e6", "d5", "g5"}


def test_a_diagonal_step_needs_something_behind_the_pawn() -> None:
    state = position(pawns=("e4", "e5"))
    message = refused(state, "f5")
    assert "only when a fence, the board edge or a third pawn is behind it" in message


def test_a_fence_behind_the_pawn_turns_the_jump_into_diagonal_steps() -> None:
    state = position(pawns=("e4", "e5"), fences=("e5h",))
    assert pawn_moves(state) == {"d4", "f4", "e3", "d5", "f5"}
    assert "a fence is behind it" in refused(state, "e6")


def test_the_board_edge_behind_the_pawn_allows_diagonal_steps() -> None:
    state = position(pawns=("e8", "e9"))
    assert pawn_moves(state) == {"d8", "f8", "e7", "d9", "f9"}
    won = ENGINE.play(state, 0, "d9")
    assert ENGINE.outcome(won) is not None and ENGINE.outcome(won).winners == (0,)  # type: ignore[union-attr]


def test_a_fence_blocks_a_diagonal_step() -> None:
    # e5h behind P2, e4v between e and f on rows 4 and 5: f5 is fenced off.
    state = position(pawns=("e4", "e5"), fences=("e5h", "e4v"))
    assert pawn_moves(state) == {"d4", "e3", "d5"}
    assert refused(state, "f5") == "a fence blocks the diagonal step from e5 to f5"


def test_a_fence_between_the_pawns_prevents_any_jump() -> None:
    state = position(pawns=("e4", "e5"), fences=("e4h",))
    assert pawn_moves(state) == {"d4", "f4", "e3"}
    assert refused(state, "e6") == "a fence blocks the way from e4 to e5"
    assert "a fence stands between you and P2's pawn" in refused(state, "f5")


def test_diagonal_steps_against_the_side_edge() -> None:
    # P2 on a5 with a fence behind it: only the b5 side exists.
    state = position(pawns=("a4", "a5"), fences=("a5h",))
    assert pawn_moves(state) == {"a3", "b4", "b5"}


def test_with_four_players_a_third_pawn_behind_allows_diagonal_steps() -> None:
    state = position(4, pawns=("e4", "a1", "e5", "e6"))
    assert pawn_moves(state) == {"d4", "f4", "e3", "d5", "f5"}
    assert refused(state, "e7") == "cannot jump over two pawns"
    assert "taken by P4" in refused(state, "e6")


def test_a_diagonal_step_cannot_land_on_a_pawn() -> None:
    state = position(4, pawns=("e4", "f5", "e5", "e6"))
    assert pawn_moves(state) == {"d4", "f4", "e3", "d5"}
    assert "taken by P2" in refused(state, "f5")


def test_a_jump_onto_the_goal_side_wins() -> None:
    state = position(pawns=("e7", "e8"))
    assert "e9" in pawn_moves(state)
    won = ENGINE.play(state, 0, "e9")
    outcome = ENGINE.outcome(won)
    assert outcome is not None and outcome.results == (WIN, LOSS)


# --- fences ---------------------------------------------------------------------


def test_there_are_128_fence_slots_and_the_corner_ones_are_legal() -> None:
    state = start()
    fences = fence_moves(state)
    assert len(fences) == 128
    assert {"a1h", "a1v", "h8h", "h8v", "h1v", "a8h"} <= fences


@pytest.mark.parametrize("fence", ["i3h", "i3v", "e9h", "e9v", "i9h"])
def test_a_fence_must_lie_wholly_on_the_board(fence: str) -> None:
    assert "stick out of the board" in refused(start(), fence)


def test_placing_a_fence_uses_one_of_the_players_fences() -> None:
    state = play(start(), "e3h")
    assert ENGINE.view(state, None)["walls_left"] == [9, 10]
    assert ENGINE.view(state, None)["fences"] == ["e3h"]


def test_fences_may_not_overlap() -> None:
    state = play(start(), "e3h", "e7v")
    assert refused(state, "e3h") == "there is already a fence at e3h"
    assert refused(state, "d3h") == "fence d3h overlaps fence e3h"
    assert refused(state, "f3h") == "fence f3h overlaps fence e3h"
    assert refused(state, "e6v") == "fence e6v overlaps fence e7v"
    assert refused(state, "e8v") == "fence e8v overlaps fence e7v"
    # End to end and side by side is fine.
    assert {"c3h", "g3h", "e2h", "e4h", "e5v", "d7v", "f7v"} <= fence_moves(state)


def test_fences_may_not_cross_at_their_midpoint() -> None:
    state = play(start(), "e3h", "e7v")
    assert refused(state, "e3v") == "fence e3v crosses fence e3h"
    assert refused(state, "e7h") == "fence e7h crosses fence e7v"
    # Meeting at an end (a T) is no crossing.
    assert {"e2v", "e4v", "d3v", "f3v", "d7h", "f7h", "e6h", "e8h"} <= fence_moves(state)


def test_a_fence_may_not_cut_a_pawn_off_from_its_goal() -> None:
    # P1 in the a1 corner, fenced in on the right along rows 1 and 2.
    state = position(pawns=("a1", "e9"), fences=("a1v",), turn=1)
    assert refused(state, "a2h") == "fence a2h would cut P1 off from its goal"
    assert "a3h" in fence_moves(state)
    mover = position(pawns=("a1", "e9"), fences=("a1v",), turn=0)
    assert refused(mover, "a2h") == "fence a2h would cut you off from your goal"


def test_pawns_do_not_block_paths() -> None:
    # P2 stands in P1's only corridor (a wall between columns a and b up to
    # row 8); that blocks nothing, but closing the corridor's end does.
    fences = ("a1v", "a3v", "a5v", "a7v")
    state = position(pawns=("a1", "a2"), fences=fences, turn=1)
    assert "e5h" in fence_moves(state)
    assert refused(state, "a8h") == "fence a8h would cut P1 off from its goal"


def test_a_fence_may_not_cut_off_any_of_four_pawns() -> None:
    # P2 in the a1 corner aims for column i; a1h closes it from above.
    state = position(4, pawns=("e1", "a1", "e9", "i5"), fences=("a1h",))
    assert refused(state, "b1v") == "fence b1v would cut P2 off from its goal"
    assert "c1v" in fence_moves(state)


def test_a_player_without_fences_must_move() -> None:
    state = position(pawns=("e1", "e9"), fences_left=(0, 10))
    assert set(ENGINE.legal_moves(state, 0)) == {"d1", "f1", "e2"}
    assert refused(state, "e3h") == "you have no fences left: move your pawn"
    assert "pass" not in ENGINE.legal_moves(state, 0)


# --- house rules: pass and threefold repetition -------------------------------------


def stuck_p1(fences_left: tuple[int, ...]) -> QuoridorState:
    # P1 on a1, fenced on the right (a1v), faces P2 on a2 with P3 right behind:
    # no straight jump (two pawns), the a2 sidesteps are the board edge and a1v.
    return position(4, pawns=("a1", "a2", "a3", "i5"), fences=("a1v",), fences_left=fences_left)


def test_a_player_with_no_pawn_move_must_place_a_fence() -> None:
    state = stuck_p1((5, 5, 5, 5))
    assert pawn_moves(state) == set()
    moves = ENGINE.legal_moves(state, 0)
    assert moves and all(m[-1] in "hv" for m in moves)
    assert "place a fence" in refused(state, "pass")


def test_a_player_with_no_move_at_all_passes() -> None:
    state = stuck_p1((0, 5, 5, 5))
    assert ENGINE.legal_moves(state, 0) == ["pass"]
    after = ENGINE.play(state, 0, "pass")
    assert after.turn == 1 and after.pawns == state.pawns
    assert ENGINE.view(after, None)["last_move"] == {"seat": 0, "move": "pass"}
    assert ENGINE.describe(state, 0, PASS) == "passed: no legal move"


def test_pass_is_refused_when_the_pawn_can_move() -> None:
    assert "your pawn can move" in refused(start(), "pass")


def test_the_third_repetition_of_a_position_is_a_draw() -> None:
    state = start()
    state = play(state, "d1", "d9", "e1", "e9")  # the start, a second time
    assert ENGINE.outcome(state) is None
    state = play(state, "d1", "d9", "e1")
    assert ENGINE.outcome(state) is None
    state = play(state, "e9")  # the start, a third time
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.results == (DRAW, DRAW)
    assert "three times" in outcome.reason
    assert ENGINE.to_move(state) == ()
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.play(state, 0, "d1")


def test_the_player_to_move_is_part_of_the_position() -> None:
    # Same pawns, but a different player to move, does not count.
    state = play(start(), "d1", "d9", "e1", "e9", "d1", "d9", "e1")
    assert ENGINE.outcome(state) is None
    assert ENGINE.view(state, None)["pawns"] == ["e1", "d9"]


def test_a_fence_changes_the_position_for_repetition() -> None:
    state = play(start(), "d1", "d9", "e1", "e9")  # start twice
    state = play(state, "a1h", "a8h")
    state = play(state, "d1", "d9", "e1", "e9", "d1", "d9", "e1", "e9")
    # The pawns are back for the third time since a1h, a8h: draw...
    assert ENGINE.outcome(state) is not None
    # ...but only because of the positions since the last fence.
    state = play(start(), "d1", "d9", "e1", "e9", "a1h", "a8h", "d1", "d9", "e1", "e9")
    assert ENGINE.outcome(state) is None


# --- winning ------------------------------------------------------------------------


def test_reaching_the_goal_side_wins_at_once() -> None:
    state = position(pawns=("c8", "e5"))
    won = ENGINE.play(state, 0, "c9")
    outcome = ENGINE.outcome(won)
    assert outcome is not None
    assert outcome.results == (WIN, LOSS)
    assert outcome.reason == "P1 reached row 9"
    assert ENGINE.to_move(won) == ()
    assert ENGINE.legal_actions(won, 1) == []
    with pytest.raises(IllegalMove, match="the game is over"):
        ENGINE.play(won, 1, "e4")


def test_the_second_player_wins_on_row_1() -> None:
    state = position(pawns=("a5", "h2"), turn=1)
    outcome = ENGINE.outcome(ENGINE.play(state, 1, "h1"))
    assert outcome is not None and outcome.results == (LOSS, WIN)


@pytest.mark.parametrize(
    ("seat", "pawns", "move", "goal"),
    [
        (1, ("e2", "h5", "e8", "c3"), "i5", "column i"),
        (2, ("e2", "c5", "b2", "c3"), "b1", "row 1"),
        (3, ("e2", "c5", "e8", "b3"), "a3", "column a"),
    ],
)
def test_each_of_four_players_wins_on_its_own_goal_side(seat: int, pawns: tuple[str, ...], move: str, goal: str) -> None:
    state = position(4, pawns=pawns, turn=seat)
    outcome = ENGINE.outcome(ENGINE.play(state, seat, move))
    assert outcome is not None
    assert outcome.winners == (seat,)
    assert outcome.results.count(LOSS) == 3
    assert outcome.reason == f"P{seat + 1} reached {goal}"


def test_resigning_with_four_players_ends_the_game() -> None:
    outcome = ENGINE.resign(start(4), 2, 4)
    assert outcome.results == (WIN, WIN, LOSS, WIN)


# --- golden counts ------------------------------------------------------------------


def perft(state: QuoridorState, depth: int) -> int:
    if depth == 0 or ENGINE.is_over(state):
        return 1
    actions = ENGINE.legal_actions(state, state.turn)
    if depth == 1:
        return len(actions)
    return sum(perft(ENGINE.apply(state, state.turn, a), depth - 1) for a in actions)


def test_golden_count_at_the_two_player_start() -> None:
    # 3 pawn moves + 128 fences.
    assert perft(start(2), 1) == 131


def test_golden_count_at_depth_two() -> None:
    # After P1's 3 pawn moves P2 has 131 each (393). After each of P1's 128
    # fences P2 has 128 minus the slots that fence takes (itself, 1 or 2
    # overlaps, 1 crossing: 480 in all, 15904 left) plus 3 pawn moves, less 4
    # fences that block one of them (d8h, e8h, d8v, e8v): 380. OpenSpiel
    # agrees: 16677.
    assert perft(start(2), 2) == 393 + 15904 + 380 == 16677


def test_golden_count_at_depth_three() -> None:
    # From OpenSpiel's quoridor, an independent implementation.
    assert perft(start(2), 3) == 2062264


def test_golden_counts_with_four_players() -> None:
    # Every seat sees the start alike: 3 pawn moves + 128 fences. At depth
    # two P2 on a5 plays the part P2 on e9 plays with two players (its steps
    # a4, a6, b5 are blocked by a4h, a5h, a4v, a5v): 16677 again.
    state = start(4)
    for _ in range(4):
        assert perft(state, 1) == 131
        state = ENGINE.play(state, state.turn, sorted(pawn_moves(state))[0])
    assert perft(start(4), 2) == 16677


def test_golden_count_of_a_mid_game_position() -> None:
    # P1 e5 faces P2 e6 with e6h behind it; fences a1h c1h and e6h placed.
    state = position(pawns=("e5", "e6"), fences=("e6h", "a1h", "c1h"), fences_left=(8, 9))
    # Pawn moves: d5, f5, e4, and the diagonals d6, f6 (jump blocked by e6h).
    assert pawn_moves(state) == {"d5", "f5", "e4", "d6", "f6"}
    # Fences taken: e6h, d6h, f6h, e6v; a1h, b1h, a1v; c1h, (b1h), d1h, c1v.
    assert len(fence_moves(state)) == 128 - 4 - 3 - 3
    assert len(ENGINE.legal_moves(state, 0)) == 5 + 118


def test_golden_count_with_a_trap_among_the_fences() -> None:
    # P1 on a1 with a1v: a2h would close the corner; so would nothing else.
    state = position(pawns=("a1", "e9"), fences=("a1v",))
    # Taken by a1v: a1v, a2v, a1h. Trap: a2h. 128 - 3 - 1 = 124; pawn: a2.
    assert pawn_moves(state) == {"a2"}
    assert len(fence_moves(state)) == 124


# --- notation -------------------------------------------------------------------------


def test_parse_and_format_round_trip_for_every_action() -> None:
    state = start()
    for action in range(PASS + 1):
        text = ENGINE.format(state, action)
        assert ENGINE.parse(state, text) == action


def test_it_reads_case_and_spaces_leniently_and_writes_canonically() -> None:
    state = start()
    assert ENGINE.format(state, ENGINE.parse(state, "e2")) == "e2"
    assert ENGINE.format(state, ENGINE.parse(state, " E3H ")) == "e3h"
    assert ENGINE.parse(state, "e3h") >= FENCE_H
    assert ENGINE.parse(state, "pass") == PASS


@pytest.mark.parametrize(
    "text", ["", "e", "e0", "e10", "j1", "e3x", "e3hh", "3e", "pas", "e2e4", "a1 h"]
)
def test_it_refuses_text_that_does_not_parse(text: str) -> None:
    with pytest.raises(BadNotation):
        ENGINE.parse(start(), text)


def test_it_refuses_a_non_string() -> None:
    with pytest.raises(BadNotation):
        ENGINE.parse(start(), 42)  # type: ignore[arg-type]


def test_the_vertical_fence_notation_matches_the_board() -> None:
    # e3v stands between columns e and f along rows 3 and 4.
    state = position(pawns=("e3", "e9"), fences=("e3v",))
    assert "f3" not in pawn_moves(state)
    higher = position(pawns=("e4", "e9"), fences=("e3v",))
    assert "f4" not in pawn_moves(higher)
    lower = position(pawns=("e2", "e9"), fences=("e3v",))
    assert "f2" in pawn_moves(lower)
    # e3h stands between rows 3 and 4 along columns e and f.
    for square, blocked in (("e3", "e4"), ("f3", "f4")):
        assert blocked not in pawn_moves(position(pawns=(square, "a9"), fences=("e3h",)))
    assert "g4" in pawn_moves(position(pawns=("g3", "a9"), fences=("e3h",)))


# --- serialisation and views ------------------------------------------------------------


def test_serialisation_round_trips() -> None:
    samples = [
        start(2),
        start(4),
        play(start(), "e2", "e8", "e3h", "d7v"),
        stuck_p1((0, 5, 5, 5)),
        play(stuck_p1((0, 5, 5, 5)), "pass"),
        play(start(), "d1", "d9", "e1", "e9", "d1", "d9", "e1", "e9"),  # drawn
        ENGINE.play(position(pawns=("c8", "e5")), 0, "c9"),  # won
    ]
    for state in samples:
        data = ENGINE.serialize(state)
        again = ENGINE.deserialize(json.loads(json.dumps(data)))
        assert again == state
        assert ENGINE.outcome(again) == ENGINE.outcome(state)
        assert ENGINE.legal_moves(again, again.turn) == ENGINE.legal_moves(state, state.turn)


def test_the_view_shows_the_board_for_a_web_page() -> None:
    state = play(start(), "e2", "e3h", "e3")
    view = ENGINE.view(state, 1)
    assert view["pawns"] == ["e3", "e9"]
    assert view["fences"] == ["e3h"]
    assert view["walls_left"] == [10, 9]
    assert view["goals"] == ["row 9", "row 1"]
    assert view["goal_squares"][0] == [f"{c}9" for c in "abcdefghi"]
    assert view["to_move"] == [1]
    assert view["last_move"] == {"seat": 0, "move": "e3"}
    assert view["moves"] == [
        {"seat": 0, "move": "e2"},
        {"seat": 1, "move": "e3h"},
        {"seat": 0, "move": "e3"},
    ]
    assert view["outcome"] is None
    assert len(view["legal_moves"]) == len(ENGINE.legal_actions(state, 1))
    # Nothing is hidden: only the legal moves depend on who looks.
    assert ENGINE.view(state, 0)["legal_moves"] == []
    assert ENGINE.view(state, None)["legal_moves"] == []
    json.dumps(view)


def test_the_view_of_a_finished_game_shows_the_result() -> None:
    won = ENGINE.play(position(pawns=("c8", "e5")), 0, "c9")
    view = ENGINE.view(won, None)
    assert view["to_move"] == []
    assert view["outcome"]["results"] == [WIN, LOSS]


# --- an independent move generator, and random playouts -----------------------------------

Square = tuple[int, int]  # (column, row), 0-based
Fence = tuple[int, int, str]  # corner (column, row) and "h" or "v"


def square_of(text: str) -> Square:
    return "abcdefghi".index(text[0]), int(text[1]) - 1


def name_of(square: Square) -> str:
    return f"{'abcdefghi'[square[0]]}{square[1] + 1}"


def fenced(fences: set[Fence], a: Square, b: Square) -> bool:
    """Whether a fence stands between the adjacent squares a and b."""
    if a[1] == b[1]:
        c, r = min(a[0], b[0]), a[1]
        return (c, r, "v") in fences or (c, r - 1, "v") in fences
    c, r = a[0], min(a[1], b[1])
    return (c, r, "h") in fences or (c - 1, r, "h") in fences


def on_board(square: Square) -> bool:
    return 0 <= square[0] < 9 and 0 <= square[1] < 9


def reference_pawn_moves(pawns: list[Square], seat: int, fences: set[Fence]) -> set[str]:
    here = pawns[seat]
    taken = set(pawns)
    result = set()
    for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        near = (here[0] + dc, here[1] + dr)
        if not on_board(near) or fenced(fences, here, near):
            continue
        if near not in taken:
            result.add(near)
            continue
        far = (near[0] + dc, near[1] + dr)
        if on_board(far) and not fenced(fences, near, far) and far not in taken:
            result.add(far)
            continue
        for sc, sr in ((dr, dc), (-dr, -dc)):
            side = (near[0] + sc, near[1] + sr)
            if on_board(side) and not fenced(fences, near, side) and side not in taken:
                result.add(side)
    return {name_of(s) for s in result}


def reaches(start_square: Square, goal: tuple[int, int], fences: set[Fence]) -> bool:
    """Depth-first search for the goal line ``square[axis] == value``."""
    axis, value = goal
    # Push the step towards the goal last, so it is tried first: the search
    # then runs straight at the goal unless fences stop it.
    toward = [(0, 1), (0, -1), (1, 0), (-1, 0)]
    toward.sort(key=lambda d: d[axis] * (1 if value else -1))
    seen = {start_square}
    todo = [start_square]
    while todo:
        square = todo.pop()
        if square[axis] == value:
            return True
        for dc, dr in toward:
            near = (square[0] + dc, square[1] + dr)
            if on_board(near) and near not in seen and not fenced(fences, square, near):
                seen.add(near)
                todo.append(near)
    return False


def reference_fences(pawns: list[Square], fences: set[Fence], players: int) -> set[str]:
    goals = [(1, 8), (1, 0)] if players == 2 else [(1, 8), (0, 8), (1, 0), (0, 0)]
    result = set()
    for c in range(8):
        for r in range(8):
            for kind in "hv":
                along = (1, 0) if kind == "h" else (0, 1)
                clashes = {
                    (c, r, kind),
                    (c - along[0], r - along[1], kind),
                    (c + along[0], r + along[1], kind),
                    (c, r, "v" if kind == "h" else "h"),
                }
                if clashes & fences:
                    continue
                after = fences | {(c, r, kind)}
                if all(reaches(p, g, after) for p, g in zip(pawns, goals)):
                    result.add(f"{'abcdefghi'[c]}{r + 1}{kind}")
    return result


def reference_moves(state: QuoridorState) -> set[str]:
    view = ENGINE.view(state, None)
    pawns = [square_of(p) for p in view["pawns"]]
    fences = {(*square_of(f[:2]), f[2]) for f in view["fences"]}
    seat = state.turn
    moves = reference_pawn_moves(pawns, seat, fences)
    if view["walls_left"][seat]:
        moves |= reference_fences(pawns, fences, state.players)
    return moves or {"pass"}


def random_game(players: int, seed: int, check_every: int) -> QuoridorState:
    """A seeded random game to its end, checking invariants on the way."""
    rng = random.Random(seed)
    state = start(players)
    pawn_bias = rng.choice((0.5, 0.8))
    ply = checks = 0
    while not ENGINE.is_over(state):
        seat = ENGINE.to_move(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        assert moves and len(moves) == len(set(moves))
        # The reference is slow: check the first dozen sampled positions only.
        if ply % check_every == 0 and checks < 8:
            checks += 1
            assert set(moves) == reference_moves(state), (seed, ply)
            assert ENGINE.deserialize(ENGINE.serialize(state)) == state
        steps = [m for m in moves if m[-1] not in "hv"]
        fences = [m for m in moves if m[-1] in "hv"]
        pool = steps if (rng.random() < pawn_bias or not fences) else fences
        state = ENGINE.play(state, seat, rng.choice(pool))
        ply += 1
        assert ply < 2000
    outcome = ENGINE.outcome(state)
    assert outcome is not None and len(outcome.results) == players
    assert outcome.results.count(WIN) in (0, 1)
    assert ENGINE.deserialize(ENGINE.serialize(state)) == state
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_seeded_random_playouts_reach_an_end_and_agree_with_a_reference(players: int) -> None:
    ends = {"win": 0, "draw": 0}
    for seed in range(10):
        state = random_game(players, seed, check_every=5)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        ends["win" if outcome.winners else "draw"] += 1
    assert ends["win"] > 0


def test_uniformly_random_moves_match_the_reference_mid_game() -> None:
    # Uniform random play spends fences fast: crowded boards, many traps.
    for seed in range(4):
        rng = random.Random(100 + seed)
        players = (2, 4)[seed % 2]
        state = start(players)
        for ply in range(32):
            if ENGINE.is_over(state):
                break
            if ply % 3 == 0:
                assert set(ENGINE.legal_moves(state, state.turn)) == reference_moves(state)
            state = ENGINE.apply(state, state.turn, ENGINE.random_action(state, state.turn, rng))


def test_the_random_bot_can_play_it() -> None:
    from games.engines.bots import get_bot

    bot = get_bot("quoridor", "random")
    state = start(2)
    rng = random.Random(7)
    for _ in range(20):
        state = ENGINE.play(state, state.turn, bot(ENGINE, state, state.turn, rng))
        if ENGINE.is_over(state):
            break
