"""The Connect Four levels a person can beat (easy, medium) and the command line."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engines.base import random_bot
from games.engines.bots import bot_levels, choose_move, get_bot
from games.engines.connect_four import ConnectFour, ConnectFourState, play_sequence
from games.engines.connect_four_bots import EASY, MEDIUM, Style, _directions_completed, play_in_style
from games.engines.connect_four_cli import FULL_COLUMN, main
from games.engines.connect_four_solver import Position

engine = ConnectFour()
ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data" / "connect4"


def test_the_levels_run_from_weakest_to_perfect_each_with_a_line_for_players() -> None:
    levels = engine.bot_levels()
    assert [level.name for level in levels] == ["random", "easy", "medium", "perfect"]
    assert all(level.description and len(level.description) < 100 for level in levels)
    assert bot_levels("connect-four") == ["easy", "medium", "perfect", "random"]


def play_game(first: str, second: str, seed: int, options: dict[str, int] | None = None) -> ConnectFourState:
    rng = random.Random(seed)
    state = engine.initial_state(2, engine.normalize_options(options), 0)
    bots = (get_bot("connect-four", first), get_bot("connect-four", second))
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        text = bots[seat](engine, state, seat, rng)
        assert text in engine.legal_moves(state, seat)
        state = engine.play(state, seat, text)
    return state


@pytest.mark.parametrize("level", ["easy", "medium"])
@pytest.mark.parametrize("options", [{}, {"columns": 5, "rows": 4, "connect": 3}, {"columns": 12, "rows": 12, "connect": 6}])
def test_the_beatable_levels_play_whole_games_of_legal_moves(level: str, options: dict[str, int]) -> None:
    state = play_game(level, "random", seed=3, options=options)
    assert engine.outcome(state) is not None


def results(first: str, second: str, games: int) -> dict[str, int]:
    """Wins of each level and draws over ``games`` games, colours alternating."""
    tally = {first: 0, second: 0, "draw": 0}
    for game in range(games):
        order = (first, second) if game % 2 == 0 else (second, first)
        state = play_game(*order, seed=game)
        outcome = engine.outcome(state)
        assert outcome is not None
        tally[order[outcome.winners[0]] if outcome.winners else "draw"] += 1
    return tally


def test_easy_beats_random_moves_and_medium_beats_easy() -> None:
    assert results("easy", "random", 20)["easy"] >= 15
    tally = results("medium", "easy", 20)
    assert tally["medium"] >= 13 and tally["medium"] > 2 * tally["easy"]


def test_both_take_a_win_standing_in_a_column_and_block_one() -> None:
    # Three first-player discs in column 1: the first player wins there; the
    # second player, to move in "1212 12", must block it.
    for style in (EASY, MEDIUM):
        assert style.sees_own[0] >= 0.9
    for seed in range(30):
        assert play_in_style(Position.from_moves("121212"), MEDIUM, random.Random(seed)) == 0
        assert play_in_style(Position.from_moves("12121"), MEDIUM, random.Random(seed)) == 0


def test_a_diagonal_threat_is_missed_now_and_then_more_often_by_easy() -> None:
    # The first player (to move next) wins on the playable square of column 2,
    # along a diagonal and nothing else. The second player is to move.
    position = Position.from_moves("132444433")
    opponent = position.current ^ position.mask
    threats = position.geometry.threats(opponent, position.mask)
    assert [c for c in range(7) if threats & position.move_bit(c)] == [1]
    assert _directions_completed(position.geometry, opponent, position.move_bit(1)) == [2]
    blocked = {
        style: sum(play_in_style(position, style, random.Random(seed)) == 1 for seed in range(200))
        for style in (EASY, MEDIUM)
    }
    # Human-like: usually seen, not always; the easy level misses it more.
    assert 100 < blocked[MEDIUM] < 200
    assert 20 < blocked[EASY] < blocked[MEDIUM]


def test_medium_seldom_drops_a_disc_right_below_the_opponents_winning_square() -> None:
    # The first player would win, along a diagonal, on the square right above
    # the playable one of column 2; nothing wins or must be blocked at once.
    position = Position.from_moves("43636752324")
    opponent = position.current ^ position.mask
    threats = position.geometry.threats(opponent, position.mask)
    assert not threats & position.playable()
    above = position.move_bit(1) << 1
    assert threats & above and _directions_completed(position.geometry, opponent, above) == [2]
    under = {
        style: sum(play_in_style(position, style, random.Random(seed)) == 1 for seed in range(200))
        for style in (MEDIUM,)
    }
    assert under[MEDIUM] < 200 * 0.3


def test_a_level_is_not_random_it_prefers_the_centre_of_the_empty_board() -> None:
    picks = [play_in_style(Position(), EASY, random.Random(seed)) for seed in range(200)]
    assert picks.count(3) > 200 / 7 * 1.5 and picks.count(3) > picks.count(0) + picks.count(6)
    assert len(set(picks)) > 2  # but not always the same column either


def test_a_style_is_a_plain_record() -> None:
    assert isinstance(MEDIUM, Style) and MEDIUM.depth > EASY.depth
    assert random_bot is not None


# --- the command line -----------------------------------------------------------------


def test_analyse_prints_each_columns_score_as_the_reference_does(capsys: pytest.CaptureFixture[str]) -> None:
    # The reference solver's -a output for this position, full column 4 included.
    assert main(["analyse", "43444443336"]) == 0
    assert capsys.readouterr().out == "43444443336 -3 -4 -6 -1000 -3 0 0\n"
    assert FULL_COLUMN == -1000


def test_analyse_agrees_with_the_scores_of_the_benchmark_files(capsys: pytest.CaptureFixture[str]) -> None:
    lines = (DATA / "Test_L3_R1").read_text().splitlines()[:40:4]
    assert main(["analyse", *(line.split()[0] for line in lines)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == len(lines)
    for line, out in zip(lines, printed):
        moves, score = line.split()
        fields = out.split()
        assert fields[0] == moves
        assert max(int(s) for s in fields[1:]) == int(score)


def test_the_bot_command_prints_a_legal_column_per_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "medium", "4453", "121212"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first.split()[0] == "4453" and first.split()[1] in engine.legal_moves(play_sequence("4453"), 0)
    assert second == "121212 1"


def test_bad_positions_and_levels_are_reported_not_crashed_on(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "1111111", "1212121"]) == 1
    error = capsys.readouterr().err
    assert "column 1 is full" in error and "wins the game" in error
    assert main(["bot", "grandmaster", "4"]) == 2
    assert "easy, medium, perfect" in capsys.readouterr().err


def test_it_runs_as_a_module_reading_positions_from_standard_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engines.connect_four", "analyse"],
        input="43444443336 0\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "43444443336 -3 -4 -6 -1000 -3 0 0\n"


@pytest.mark.parametrize("level", ["random", "easy", "medium", "perfect"])
def test_every_level_answers_through_the_worker_entry_point(level: str) -> None:
    # What the scheduler's worker process is sent: the serialised state and a
    # seed. A middle game, which every level answers exactly the same way
    # for the same seed (the perfect one by its solve, not a timed search).
    state = play_sequence("5554224333234511764415115")
    text = choose_move("connect-four", level, engine.serialize(state), 1, rng_seed=7)
    assert text in engine.legal_moves(state, 1)
    assert text == choose_move("connect-four", level, engine.serialize(state), 1, rng_seed=7)
