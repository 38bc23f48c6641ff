"""Eskimo rules, notation, serialisation and playouts (no database)."""

from __future__ import annotations

import json
import random

import pytest

from games.engines.base import DRAW, LOSS, WIN, BadNotation, IllegalMove
from games.engines.eskimo import (
    PASS,
    TURN_LIMIT,
    Eskimo,
    EskimoMove,
    EskimoState,
    Position,
    setup,
)
from games.engines.registry import get_engine

engine = Eskimo()


def start() -> EskimoState:
    return engine.initial_state(2, engine.normalize_options({}), seed=0)


def play(state: EskimoState, *moves: str) -> EskimoState:
    for text in moves:
        state = engine.play(state, engine.to_move(state)[0], text)
    return state


def moves_of(state: EskimoState) -> list[str]:
    seat = engine.to_move(state)[0]
    return engine.legal_moves(state, seat)


def illegal(state: EskimoState, text: str) -> str:
    with pytest.raises(IllegalMove) as error:
        play(state, text)
    return str(error.value)


# --- an independent move generator, for differential tests -------------------
#
# Written apart from the engine on purpose: a flat 25-cell list, indices
# instead of squares, its own slide loop. If both agree on every position of
# many random games, a slip in either would have to be the same slip twice.

_STEPS = {"n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1),
          "s": (0, -1), "sw": (-1, -1), "w": (-1, 0), "nw": (-1, 1)}


def reference_moves(view: dict[str, object]) -> dict[str, str | None]:
    cells: list[str] = ["."] * 25
    pieces = view["pieces"]
    assert isinstance(pieces, list)
    for seat, squares in enumerate(pieces):
        for name in squares:
            cells[(int(name[1]) - 1) * 5 + "abcde".index(name[0])] = str(seat)
    bear = str(view["bear"])
    bear_index = (int(bear[1]) - 1) * 5 + "abcde".index(bear[0])
    cells[bear_index] = "B"
    me = str(view["to_move"][0])  # type: ignore[index]
    found: dict[str, str | None] = {}
    for index, cell in enumerate(cells):
        column, row = index % 5, index // 5
        for name, (dc, dr) in _STEPS.items():
            c, r = column + dc, row + dr
            inside = 0 <= c < 5 and 0 <= r < 5
            if cell == me:
                last = None
                while inside and cells[r * 5 + c] == ".":
                    last = (c, r)
                    c, r = c + dc, r + dr
                    inside = 0 <= c < 5 and 0 <= r < 5
                if last is not None:
                    found[f"{'abcde'[column]}{row + 1}-{name}"] = f"{'abcde'[last[0]]}{last[1] + 1}"
            elif cell == "B" and view["cooldown"] == 0 and inside and cells[r * 5 + c] == ".":
                found[f"{'abcde'[column]}{row + 1}-{name}"] = f"{'abcde'[c]}{r + 1}"
    return found or {"pass": None}


# --- the start ---------------------------------------------------------------


def test_the_registry_knows_eskimo() -> None:
    assert get_engine("eskimo").name == "Eskimo"


def test_the_start_has_pieces_on_the_back_rows_and_the_bear_in_the_centre() -> None:
    view = engine.view(start(), None)
    assert view["pieces"] == [["a1", "b1", "c1", "d1", "e1"], ["a5", "b5", "c5", "d5", "e5"]]
    assert view["bear"] == "c3"
    assert view["cooldown"] == 0
    assert view["to_move"] == [0]
    assert view["last_move"] is None


def test_the_start_position_has_21_legal_moves() -> None:
    # Counted by hand. Player 1's pieces on row 1, bear on c3, all else empty:
    #   a1: n (to a4, stopped by a5), ne (to b2, stopped by the bear)       = 2
    #   b1: n (to b4), ne (c2 d3 e4, then the edge), nw (a2, then the edge) = 3
    #   c1: n (to c2, stopped by the bear), ne (to e3), nw (to a3)          = 3
    #   d1, e1: mirror images of b1 and a1                                  = 3 + 2
    #   the bear: all 8 neighbours of c3 are empty                          = 8
    # Every other direction from row 1 is off the board or into a neighbour.
    legal = engine.destinations(start())
    assert len(legal) == 21
    assert legal["a1-n"] == "a4"
    assert legal["a1-ne"] == "b2"
    assert legal["b1-ne"] == "e4"
    assert legal["b1-nw"] == "a2"
    assert legal["c1-n"] == "c2"
    assert legal["c3-ne"] == "d4"
    assert "a1-e" not in legal


def perft(state: EskimoState, depth: int) -> int:
    """Number of move sequences of length ``depth`` (ended games stop counting).

    On the way it checks every inner node against the independent generator.
    """
    if depth == 0 or engine.is_over(state):
        return 1
    assert engine.destinations(state) == reference_moves(engine.view(state, None))
    seat = engine.to_move(state)[0]
    return sum(perft(engine.apply(state, seat, move), depth - 1)
               for move in engine.legal_actions(state, seat))


def test_golden_move_counts_from_the_start() -> None:
    # Depth 1 is the hand count above. Depths 2 and 3 were computed by this
    # engine, whose move lists agree with the independent generator in this
    # file at every node counted; they guard against regressions.
    assert perft(start(), 1) == 21
    assert perft(start(), 2) == 349
    assert perft(start(), 3) == 5801


def test_golden_move_count_from_a_middle_game_position() -> None:
    # Bear on d2 resting 2 more turns; player 2 to move. Counted by hand:
    #   a5: e (to c5, stopped by d5), s (to a2, stopped by a1)               = 2
    #   b4: n (b5), ne (c5), se (c3, stopped by the bear), sw (a3), w (a4)  = 5
    #   c4: n (c5), e (d4), se (d3), s (c2, stopped by c1), nw (b5)         = 5
    #   d5: e (e5), s (d3, stopped by the bear), w (b5, stopped by a5)       = 3
    #   e1: w (d1, stopped by c1); n is e2, nw is the bear                   = 1
    #   the bear rests                                                        = 0
    state = setup(
        (["a1", "b3", "c1", "e2", "e4"], ["a5", "b4", "c4", "d5", "e1"]),
        "d2",
        cooldown=2,
        to_move=1,
    )
    legal = engine.destinations(state)
    assert legal == reference_moves(engine.view(state, None))
    assert len(legal) == 16
    assert not any(move.startswith("d2-") for move in legal)  # the bear rests


# --- sliding -------------------------------------------------------------------


def test_a_slide_goes_as_far_as_the_edge() -> None:
    state = setup((["a1"], ["e5"]), "c3")
    after = play(state, "a1-n")
    assert "a5" in engine.view(after, None)["pieces"][0]


def test_a_slide_stops_before_a_piece_of_either_side() -> None:
    state = setup((["a1", "a4"], ["e1"]), "c3")
    assert engine.destinations(state)["a1-n"] == "a3"
    assert engine.destinations(state)["a1-e"] == "d1"


def test_a_slide_stops_before_the_bear() -> None:
    state = setup((["a1"], ["e5"]), "c3")
    assert engine.destinations(state)["a1-ne"] == "b2"


def test_a_slide_of_zero_squares_is_refused_with_the_reason() -> None:
    state = setup((["a1", "a2"], ["b1"]), "c3")
    assert "a1-n" not in engine.destinations(state)
    assert "a1-e" not in engine.destinations(state)
    assert illegal(state, "a1-n") == (
        "the piece on a1 cannot slide north: it is blocked (your piece is on a2)"
    )
    assert illegal(state, "a1-e") == (
        "the piece on a1 cannot slide east: it is blocked (a piece of your opponent is on b1)"
    )
    assert illegal(state, "a1-s") == (
        "the piece on a1 cannot slide south: it is at the edge of the board"
    )
    beside_bear = setup((["c2"], ["e5"]), "c3")
    assert "it is blocked (the bear is on c3)" in illegal(beside_bear, "c2-n")


def test_a_player_may_not_move_the_other_players_piece_or_an_empty_square() -> None:
    assert illegal(start(), "c5-s") == "c5 is not your piece"
    assert illegal(start(), "c2-n") == "there is nothing on c2 to move"


# --- the bear ------------------------------------------------------------------


def test_the_bear_moves_one_square_onto_an_empty_square() -> None:
    state = setup((["a1"], ["e5"]), "c3")
    after = play(state, "c3-nw")
    assert engine.view(after, None)["bear"] == "b4"
    crowded = setup((["c4"], ["e5"]), "c5")
    assert illegal(crowded, "c5-s") == "the bear cannot move south: your piece is on c4"
    assert illegal(crowded, "c5-n") == (
        "the bear cannot move north: it is at the edge of the board"
    )


def test_the_bear_rests_for_exactly_four_turns_after_it_moves() -> None:
    # A moves the bear; B, A, B and A may not move it; then B may.
    state = play(start(), "c3-n")  # A (seat 0): bear to c4
    resting = ["a5-s", "e1-n", "b5-s", "d1-nw"]  # B, A, B, A: none of them near c4
    for turns_left, move in zip((4, 3, 2, 1), resting):
        assert engine.view(state, None)["cooldown"] == turns_left
        assert not any(m.startswith("c4-") for m in moves_of(state))
        plural = "turn" if turns_left == 1 else "turns"
        assert illegal(state, "c4-s") == (
            f"the bear cannot move for {turns_left} more {plural}, this one included"
        )
        state = play(state, move)
    assert engine.view(state, None)["cooldown"] == 0
    assert engine.to_move(state) == (1,)  # B
    assert "c4-s" in moves_of(state)


def test_either_player_may_move_the_bear() -> None:
    state = play(start(), "c1-ne")
    assert "c3-s" in moves_of(state)  # player 2 may move the bear too


# --- winning -------------------------------------------------------------------


def test_trapping_the_bear_against_the_edge_wins() -> None:
    # Bear on a2: the west side is the edge; a1, a3 are taken; d2 slides to b2.
    state = setup((["a1", "a3", "d2"], ["e5"]), "a2")
    after = play(state, "d2-w")
    outcome = engine.outcome(after)
    assert outcome is not None
    assert outcome.results == (WIN, LOSS)
    assert outcome.reason == "the bear is trapped"
    assert engine.to_move(after) == ()


def test_trapping_the_bear_in_a_corner_with_two_edges_wins() -> None:
    state = setup((["b1"], ["e5", "a3"]), "a1", to_move=1)
    after = play(state, "a3-s")  # slides to a2, next to the bear in the corner
    outcome = engine.outcome(after)
    assert outcome is not None and outcome.results == (LOSS, WIN)


def test_pieces_of_both_sides_trap_the_bear_together() -> None:
    state = setup((["c2", "b3"], ["c4", "e3"]), "c3", to_move=1)
    after = play(state, "e3-w")  # stops on d3, beside the bear
    outcome = engine.outcome(after)
    assert outcome is not None and outcome.results == (LOSS, WIN)


def test_the_mover_wins_even_with_the_other_sides_pieces() -> None:
    # Player 1 closes the last side; three of the four are player 2's pieces.
    state = setup((["e3"], ["c2", "b3", "c4"]), "c3")
    after = play(state, "e3-w")
    outcome = engine.outcome(after)
    assert outcome is not None and outcome.results == (WIN, LOSS)


def test_moving_the_bear_diagonally_into_a_blocked_square_wins() -> None:
    # c3 is already closed on all four sides; the bear walks in from b2.
    state = setup((["c2", "b3"], ["c4", "d3"]), "b2")
    assert engine.describe(state, 0, engine.parse(state, "b2-ne")) == (
        "moved the bear north-east from b2 to c3 and trapped the bear"
    )
    after = play(state, "b2-ne")
    outcome = engine.outcome(after)
    assert outcome is not None and outcome.results == (WIN, LOSS)


def test_a_bear_with_one_open_side_is_not_trapped() -> None:
    state = setup((["c2", "b3"], ["c4", "e5"]), "c3")
    after = play(state, "c2-sw")  # opens c2: the bear now has two open sides
    assert engine.outcome(after) is None
    assert not after.position.bear_trapped()


def test_a_finished_game_refuses_further_moves() -> None:
    state = play(setup((["a1", "a3", "d2"], ["e5"]), "a2"), "d2-w")
    assert engine.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove, match="the game is over"):
        engine.play(state, 1, "e5-s")


# --- house rules ---------------------------------------------------------------


def test_a_player_without_a_legal_move_passes_and_the_pass_counts_as_a_turn() -> None:
    # Player 1's only piece is boxed into the corner and the bear rests.
    state = setup((["a1"], ["a2", "b1", "b2", "e5"]), "d4", cooldown=2)
    assert moves_of(state) == ["pass"]
    assert engine.destinations(state) == {"pass": None}
    after = play(state, "pass")
    assert engine.to_move(after) == (1,)
    assert engine.view(after, None)["cooldown"] == 1
    assert engine.view(after, None)["last_move"] == "pass"
    assert engine.describe(state, 0, PASS) == "passed: no legal move"


def test_passing_is_refused_while_a_move_exists() -> None:
    assert illegal(start(), "pass") == (
        "you may pass only when you have no legal move; you have 21"
    )


def test_the_third_repetition_of_a_position_is_a_draw() -> None:
    shuffle = ["b1-nw", "b5-sw", "a2-se", "a4-ne"]  # four turns and back to the start
    state = play(start(), *shuffle)
    assert engine.outcome(state) is None  # the start, seen twice
    state = play(state, *shuffle[:3])
    assert engine.outcome(state) is None
    state = play(state, shuffle[3])  # the start, for the third time
    outcome = engine.outcome(state)
    assert outcome is not None
    assert outcome.results == (DRAW, DRAW)
    assert outcome.reason == "the same position for the third time"


def test_the_bears_rest_and_the_player_to_move_are_part_of_a_position() -> None:
    base = start().position
    assert base != Position(base.pieces, base.bear, 1, base.player)
    assert base != Position(base.pieces, base.bear, base.cooldown, 1)
    # Moving the bear out and back brings the same squares but a resting bear:
    # not a repetition of the start.
    state = play(start(), "c3-n", "b5-sw", "b1-nw", "a4-ne", "a2-se", "c4-s")
    assert state.position.pieces == base.pieces and state.position.bear == base.bear
    assert state.position != Position(base.pieces, base.bear, 0, 0)


def test_200_turns_without_a_win_is_a_draw() -> None:
    # Random moves that neither win nor repeat a position a third time: the
    # game must end drawn on the 200th turn, not a turn sooner.
    rng = random.Random(7)
    state = start()
    while len(state.moves) < TURN_LIMIT - 1:
        seat = engine.to_move(state)[0]
        choices = [
            after
            for move in engine.legal_actions(state, seat)
            if not engine.is_over(after := engine.apply(state, seat, move))
        ]
        state = rng.choice(choices)
    assert engine.outcome(state) is None
    seat = engine.to_move(state)[0]
    seen = (*state.history, state.position)
    quiet = [
        move
        for move in engine.legal_actions(state, seat)
        if (after := engine.apply(state, seat, move)).winner is None
        and after.position not in seen
    ]
    after = engine.apply(state, seat, quiet[0])
    outcome = engine.outcome(after)
    assert outcome is not None
    assert outcome.results == (DRAW, DRAW)
    assert outcome.reason == "200 turns without a win"


# --- notation, turns, words ----------------------------------------------------


@pytest.mark.parametrize("text", ["", "c1", "c1-", "c1-x", "c1-north", "f1-n", "c6-n",
                                  "c0-n", "c10-n", "1c-n", "c1ne", "passes", "c1 - n"])
def test_text_that_does_not_parse_is_bad_notation(text: str) -> None:
    with pytest.raises(BadNotation):
        engine.parse(start(), text)


def test_notation_is_case_and_space_tolerant_and_formats_canonically() -> None:
    move = engine.parse(start(), "  C1-NE ")
    assert move == EskimoMove((2, 0), "ne")
    assert engine.format(start(), move) == "c1-ne"
    assert engine.parse(start(), "PASS") == PASS


def test_moving_out_of_turn_is_refused() -> None:
    with pytest.raises(IllegalMove, match="it is not your turn"):
        engine.play(start(), 1, "c5-s")


def test_describe_says_the_move_in_words() -> None:
    state = start()
    assert engine.describe(state, 0, engine.parse(state, "c1-ne")) == (
        "slid a piece north-east from c1 to e3"
    )
    assert engine.describe(state, 0, engine.parse(state, "c3-s")) == (
        "moved the bear south from c3 to c2"
    )


def test_the_view_shows_the_move_list_last_move_and_destinations() -> None:
    state = play(start(), "c3-s", "a5-s")
    view = engine.view(state, None)
    assert view == engine.view(state, 0) == engine.view(state, 1)  # nothing is hidden
    assert view["moves"] == ["c3-s", "a5-s"]
    assert view["last_move"] == "a5-s"
    assert view["bear"] == "c2"
    assert view["cooldown"] == 3
    assert view["turn"] == 2
    assert view["destinations"]["c1-nw"] == "a3"
    assert "c2-n" not in view["destinations"]  # the bear rests
    json.dumps(view)


# --- playouts, differential runs, serialisation -----------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_seeded_random_playouts_end_and_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    state = start()
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        legal = engine.destinations(state)
        assert legal == reference_moves(engine.view(state, None))
        for text in legal:
            assert engine.format(state, engine.parse(state, text)) == text
        move = engine.random_action(state, seat, rng)
        state = engine.apply(state, seat, move)
        assert all(len(side) == 5 for side in state.position.pieces)
    assert len(state.moves) <= TURN_LIMIT
    outcome = engine.outcome(state)
    assert outcome is not None
    data = json.loads(json.dumps(engine.serialize(state)))
    assert engine.deserialize(data) == state
    replayed = engine.replay(2, {}, 0, [(i % 2, text) for i, text in enumerate(state.moves)])
    assert replayed == state


def test_the_engine_agrees_with_an_independent_move_generator() -> None:
    rng = random.Random(2024)
    for _ in range(30):
        state = start()
        while not engine.is_over(state):
            assert engine.destinations(state) == reference_moves(engine.view(state, None))
            seat = engine.to_move(state)[0]
            state = engine.apply(state, seat, engine.random_action(state, seat, rng))


def test_a_made_up_position_round_trips_through_serialisation() -> None:
    state = setup((["a1"], ["a2", "b1", "b2", "e5"]), "d4", cooldown=2)
    state = play(state, "pass", "e5-w")
    data = engine.serialize(state)
    assert data["start"] == {
        "pieces": [["a1"], ["a2", "b1", "b2", "e5"]],
        "bear": "d4",
        "cooldown": 2,
        "to_move": 0,
    }
    assert data["moves"] == ["pass", "e5-w"]
    assert engine.deserialize(json.loads(json.dumps(data))) == state


def test_setup_refuses_impossible_positions() -> None:
    with pytest.raises(ValueError):
        setup((["a1"], ["a1"]), "c3")
    with pytest.raises(ValueError):
        setup((["a2", "b1"], []), "a1")  # already trapped
    with pytest.raises(ValueError):
        setup((["a1"], []), "c3", cooldown=5)
