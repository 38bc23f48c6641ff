"""Connect Four in review: each column's exact score where the book or the solver knows it, and blunders."""

from __future__ import annotations

from games.engines.connect_four import ConnectFour, ConnectFourState

ENGINE = ConnectFour()


def after(moves: str) -> ConnectFourState:
    options = ENGINE.normalize_options({})
    state = ENGINE.initial_state(2, options, 1)
    for ply, column in enumerate(moves):
        state = ENGINE.play(state, ply % 2, column)
    return state


def test_the_scores_are_the_reference_solvers_for_the_position_of_the_issue() -> None:
    # The public reference's `-a` prints 43444443336 -3 -4 -6 -1000 -3 0 0 (column 4 full).
    review = ENGINE.analyse(after("43444443336"), 10.0)
    assert review == {"scores": [-3, -4, -6, None, -3, 0, 0], "value": 0}


def test_a_move_that_throws_away_a_draw_is_a_blunder_and_a_drawing_one_is_not() -> None:
    before = ENGINE.analyse(after("43444443336"), 10.0)
    assert ENGINE.judge(before, None, 1, "5") == {"score": -3, "best": 0, "blunder": True}
    assert ENGINE.judge(before, None, 1, "6") == {"score": 0, "best": 0, "blunder": False}


def test_the_opening_is_scored_from_the_book_within_any_budget() -> None:
    # The published first-move values of 7x6 Connect Four: only the centre wins.
    review = ENGINE.analyse(after(""), 0.01)
    assert review == {"scores": [-2, -1, 0, 1, 0, -1, -2], "value": 1}
    assert ENGINE.judge(review, None, 0, "3") == {"score": 0, "best": 1, "blunder": True}
    assert ENGINE.judge(review, None, 0, "4") == {"score": 1, "best": 1, "blunder": False}
    # After the centre, every reply is in the book too (the bot meets them all).
    reply = ENGINE.analyse(after("4"), 0.01)
    assert reply is not None and None not in reply["scores"] and reply["value"] == max(reply["scores"])


def test_a_position_beyond_the_budget_says_what_it_could_not_solve() -> None:
    # Off the book's lines (the bot never opens on the edge) and minutes for the solver.
    review = ENGINE.analyse(after("172"), 0.01)
    assert review is not None and review["value"] is None
    assert ENGINE.judge(review, None, 1, "4") is None


def test_a_won_position_has_nothing_more_to_say() -> None:
    assert ENGINE.analyse(after("1212121"), 1.0) is None
