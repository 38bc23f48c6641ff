from __future__ import annotations

from pathlib import Path

import pytest

from games.engines.base import BadNotation, BadOptions, IllegalMove
from games.engines.connect_four import ConnectFour, ConnectFourState, play_sequence

engine = ConnectFour()
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "connect4"


def fresh(**options: int) -> ConnectFourState:
    opts = engine.normalize_options(options)
    return engine.initial_state(2, opts, 0)


def perft(state: ConnectFourState, depth: int) -> int:
    seat = engine.to_move(state)
    if not seat:
        return 0
    actions = engine.legal_actions(state, seat[0])
    if depth == 1:
        return len(actions)
    return sum(perft(engine.apply(state, seat[0], a), depth - 1) for a in actions)


@pytest.mark.parametrize("depth, nodes", [(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807), (7, 823536)])
def test_move_generation_counts_match_the_known_perft(depth: int, nodes: int) -> None:
    # 7^7 - 7: after six discs in one column, that column is full (OEIS A212693).
    assert perft(fresh(), depth) == nodes


def test_a_disc_falls_to_the_lowest_free_cell() -> None:
    state = play_sequence("44")
    assert state.board[3] == (0, 1)
    view = engine.view(state, 0)
    assert view["grid"][5][3] == 0 and view["grid"][4][3] == 1
    assert view["last_move"] == {"column": 4, "row": 2}


@pytest.mark.parametrize(
    "moves, cells",
    [
        ("1122334", [(c, 1) for c in (1, 2, 3, 4)]),  # horizontal
        ("1212121", [(1, r) for r in (1, 2, 3, 4)]),  # vertical
        ("12234334544", [(1, 1), (2, 2), (3, 3), (4, 4)]),  # rising diagonal
        ("76654554344", [(4, 4), (5, 3), (6, 2), (7, 1)]),  # falling diagonal
    ],
)
def test_four_in_a_row_wins_in_every_direction(moves: str, cells: list[tuple[int, int]]) -> None:
    state = play_sequence(moves)
    outcome = engine.outcome(state)
    assert outcome is not None and outcome.results == ("win", "loss")
    assert engine.to_move(state) == ()
    assert engine.view(state, None)["winning_cells"] == [{"column": c, "row": r} for c, r in cells]


def test_a_line_of_five_marks_all_five() -> None:
    state = play_sequence("1122445" + "53")  # 1,2,4,5 then 3 fills the gap: five in a row
    assert engine.outcome(state) is not None
    assert len(state.line) == 5


def test_a_full_board_is_a_draw() -> None:
    moves = "121212" "212121" "343434" "434343" "565656" "656565" "777777"
    state = play_sequence(moves)
    outcome = engine.outcome(state)
    assert outcome is not None and outcome.results == ("draw", "draw")


def test_illegal_moves_say_why() -> None:
    state = play_sequence("111111")
    with pytest.raises(IllegalMove, match="column 1 is full"):
        engine.apply(state, 0, 0)
    with pytest.raises(IllegalMove, match="no column 8"):
        engine.apply(state, 0, 7)
    with pytest.raises(IllegalMove, match="not your turn"):
        engine.apply(state, 1, 3)
    won = play_sequence("4455667")
    with pytest.raises(IllegalMove, match="over"):
        engine.apply(won, 1, 0)


@pytest.mark.parametrize("text", ["", "a", "4.0", "-1", "٣", None])
def test_unparseable_moves_are_bad_notation(text: str) -> None:
    with pytest.raises(BadNotation):
        engine.parse(fresh(), text)


def test_options_change_size_and_line_length() -> None:
    state = fresh(columns=5, rows=4, connect=3)
    assert len(engine.legal_actions(state, 0)) == 5
    assert engine.outcome(play_sequence("11223", {"columns": 5, "rows": 4, "connect": 3})) is not None
    with pytest.raises(BadOptions):
        engine.normalize_options({"connect": 6, "columns": 5, "rows": 5})
    with pytest.raises(BadOptions):
        engine.normalize_options({"rows": True})


def test_wide_boards_use_two_digit_columns() -> None:
    state = fresh(columns=12)
    assert "12" in engine.legal_moves(state, 0)
    after = engine.play(state, 0, "12")
    assert engine.view(after, None)["last_move"]["column"] == 12


def test_serialisation_round_trips() -> None:
    for moves in ("", "4", "4455", "4455667", "121212212121343434"):
        state = play_sequence(moves)
        assert engine.deserialize(engine.serialize(state)) == state


def test_every_benchmark_position_replays_as_a_game_in_progress() -> None:
    # The shared benchmark files use our notation: each line is a legal, unfinished game.
    files = sorted(SHARED.glob("Test_L*"))
    if not files:
        pytest.skip("shared/data/connect4 is not beside the project")
    count = 0
    for path in files:
        for line in path.read_text().splitlines()[:250]:
            moves, score = line.split()
            state = play_sequence(moves)
            assert engine.outcome(state) is None, line
            assert len(state.moves) == len(moves)
            count += 1
    assert count == 250 * len(files)
