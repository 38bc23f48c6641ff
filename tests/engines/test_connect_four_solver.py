"""The Connect Four solver and the ``perfect`` bot (no database).

Exact scores come from the standard test sets in ../shared/data/connect4 (see
its README): a sample spread over each file, small enough to stay fast.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import pytest

from games.engines.bots import get_bot
from games.engines.connect_four import ConnectFour, play_sequence
from games.engines.connect_four_solver import (
    _SCALE,
    STANDARD,
    Geometry,
    LimitedSearch,
    Position,
    Solver,
    _threats_any_length,
    _threats_of_four,
    best_move,
    choose,
    solve,
)

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "connect4"


def positions(name: str, count: int) -> list[tuple[str, int]]:
    """``count`` (moves, score) lines spread evenly over a test file."""
    lines = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    stride = len(lines) // count
    return [(moves, int(score)) for moves, score in lines[stride // 2::stride][:count]]


# --- exact scores -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, count",
    [("Test_L3_R1", 50), ("Test_L2_R1", 20), ("Test_L1_R1", 10), ("Test_L2_R2", 10)],
)
def test_it_finds_the_exact_score_of_benchmark_positions(name: str, count: int) -> None:
    solver = Solver()
    for moves, score in positions(name, count):
        solver.reset()
        assert solver.solve(Position.from_moves(moves)) == score, moves


def test_a_weak_solve_gives_the_sign_of_the_score() -> None:
    for moves, score in positions("Test_L2_R1", 10):
        assert solve(moves, weak=True) == (score > 0) - (score < 0), moves


def test_solve_takes_a_move_string_or_a_list_of_columns() -> None:
    moves, score = positions("Test_L3_R1", 1)[0]
    assert solve(moves) == solve([int(c) for c in moves]) == score


def test_a_position_one_disc_from_a_win_scores_by_the_disc_count() -> None:
    # Three first-player discs in column 1, three second-player discs in
    # column 2: the first player wins with its 4th disc, so 22 - 4 = 18.
    assert solve("121212") == 18


def test_it_refuses_moves_that_cannot_be_played() -> None:
    with pytest.raises(ValueError, match="no column 8"):
        Position.from_moves("48")
    with pytest.raises(ValueError, match="column 1 is full"):
        Position.from_moves("1111111")
    with pytest.raises(ValueError, match="wins the game"):
        Position.from_moves("1212121")


# --- pieces of the solver checked against independent code ------------------------------


def test_the_general_threat_finder_agrees_with_the_one_for_lines_of_four() -> None:
    rng = random.Random(3)
    for _ in range(200):
        position = Position()
        for _ in range(rng.randrange(0, 30)):
            legal = [c for c in position.legal_columns() if not position.is_winning_move(c)]
            if not legal:
                break
            position = position.play(rng.choice(legal))
        for stones in (position.current, position.current ^ position.mask):
            assert _threats_of_four(
                stones, position.mask, STANDARD.stride, STANDARD.board
            ) == _threats_any_length(stones, position.mask, STANDARD)


def naive_score(columns: int, rows: int, connect: int, moves: tuple[int, ...]) -> int:
    """Plain minimax on a list-of-columns board, with the same score convention.

    Written apart from the solver (no bitboards, no pruning) to check it.
    """
    cells = columns * rows

    def wins(board: tuple[tuple[int, ...], ...], column: int, player: int) -> bool:
        row = len(board[column]) - 1
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                c, r = column + sign * dc, row + sign * dr
                while 0 <= c < columns and 0 <= r < len(board[c]) and board[c][r] == player:
                    count += 1
                    c, r = c + sign * dc, r + sign * dr
            if count >= connect:
                return True
        return False

    @lru_cache(maxsize=None)
    def value(board: tuple[tuple[int, ...], ...], stones: int) -> int:
        player = stones % 2
        children = []
        for column in range(columns):
            if len(board[column]) < rows:
                after = tuple(
                    (*stack, player) if c == column else stack for c, stack in enumerate(board)
                )
                if wins(after, column, player):
                    return (cells + 1 - stones) // 2
                children.append(after)
        if not children:
            return 0
        return max(-value(child, stones + 1) for child in children)

    board: tuple[tuple[int, ...], ...] = tuple(() for _ in range(columns))
    for stones, column in enumerate(moves):
        board = tuple(
            (*stack, stones % 2) if c == column - 1 else stack for c, stack in enumerate(board)
        )
    return value(board, len(moves))


@pytest.mark.parametrize("columns, rows, connect, discs", [(4, 4, 3, 3), (5, 4, 4, 9), (4, 5, 3, 5)])
def test_on_small_boards_it_agrees_with_plain_minimax(
    columns: int, rows: int, connect: int, discs: int
) -> None:
    geometry = Geometry(columns, rows, connect)
    rng = random.Random(columns * 100 + rows * 10 + connect)
    compared = 0
    for _ in range(8):
        position, moves = Position(geometry), list[int]()
        while len(moves) < discs:
            legal = [c for c in position.legal_columns() if not position.is_winning_move(c)]
            column = rng.choice(legal)
            position = position.play(column)
            moves.append(column + 1)
        if position.winning_columns():
            continue
        expected = naive_score(columns, rows, connect, tuple(moves))
        assert Solver(geometry).solve(position) == expected, moves
        compared += 1
    assert compared >= 4


def test_the_depth_limited_search_is_exact_when_it_sees_to_the_end() -> None:
    for moves, score in positions("Test_L3_R1", 200):
        if len(moves) < 34:
            continue
        position = Position.from_moves(moves)
        if position.winning_columns():
            continue
        search = LimitedSearch(STANDARD, float("inf"))
        best, _ = search.best_columns(position, STANDARD.cells - position.moves)
        assert best == _SCALE * score, moves


# --- the bot ----------------------------------------------------------------------------


def play_out(moves: str, first: random.Random | None, second: random.Random | None,
             perfect_opponent: bool) -> str:
    """Moves until the game ends: the player to move now is the bot; the other
    side is the bot too (perfect_opponent) or plays at random."""
    position = Position.from_moves(moves)
    bot_parity = len(moves) % 2
    while True:
        if len(moves) % 2 == bot_parity or perfect_opponent:
            choice = choose(moves, first)
            assert choice.exact, moves
            column = choice.column - 1
        else:
            assert second is not None
            column = second.choice(position.legal_columns())
        won = position.is_winning_move(column)
        position = position.play(column)
        moves += str(column + 1)
        if won or position.full:
            return moves if won else moves + "="


def test_the_bot_wins_won_positions_against_itself_in_exactly_the_promised_discs() -> None:
    rng = random.Random(11)
    won = [(m, s) for m, s in positions("Test_L3_R1", 100) if s > 0][:12]
    won += [(m, s) for m, s in positions("Test_L2_R1", 40) if s > 0][:4]
    for moves, score in won:
        final = play_out(moves, rng, None, perfect_opponent=True)
        assert not final.endswith("=")
        # The winner is the player to move now, and it dropped the last disc.
        assert (len(final) - len(moves)) % 2 == 1, (moves, final)
        # With best play on both sides the game lasts exactly as the score says.
        assert (STANDARD.cells + 1 - (len(final) - 1)) // 2 == score, (moves, final)


def test_the_bot_never_loses_a_won_or_drawn_position_against_random_play() -> None:
    bot_rng, random_rng = random.Random(5), random.Random(6)
    for moves, score in positions("Test_L3_R1", 60)[:40]:
        if score < 0:
            continue
        final = play_out(moves, bot_rng, random_rng, perfect_opponent=False)
        if score > 0:
            assert not final.endswith("=") and (len(final) - len(moves)) % 2 == 1, moves
        else:
            assert final.endswith("=") or (len(final) - len(moves)) % 2 == 1, moves


def test_the_bot_takes_a_win_and_blocks_a_loss() -> None:
    assert best_move("121212") == 1  # the fourth disc in column 1
    assert best_move("12121") == 1  # the second player must block column 1


def test_the_bot_opens_in_the_centre() -> None:
    choice = choose("")
    assert (choice.column, choice.exact, choice.score) == (4, True, 1)


def test_the_bot_picks_at_random_among_equally_good_moves() -> None:
    # A won position with more than one way to keep the same score.
    solver = Solver()
    for moves, _ in positions("Test_L3_R1", 100):
        _, best = solver.best_columns(Position.from_moves(moves))
        if len(best) > 1:
            break
    assert len(best) > 1
    picked = {best_move(moves, random.Random(seed)) - 1 for seed in range(30)}
    assert picked == set(best)


def test_the_bot_falls_back_to_a_limited_search_when_the_solve_takes_too_long() -> None:
    # Two discs in: far beyond what the solver finishes in a fraction of a second.
    choice = choose("44", random.Random(1), seconds=0.2)
    assert not choice.exact
    assert choice.score is None
    assert choice.depth >= 1
    assert 1 <= choice.column <= 7


def test_the_registered_bot_plays_legal_moves_through_the_engine() -> None:
    engine = ConnectFour()
    bot = get_bot("connect-four", "perfect")
    rng = random.Random(2)
    moves, score = next((m, s) for m, s in positions("Test_L3_R1", 50) if s > 0)
    state = play_sequence(moves)
    seat = engine.to_move(state)[0]
    while not engine.is_over(state):
        mover = engine.to_move(state)[0]
        text = bot(engine, state, mover, rng) if mover == seat else engine.format(
            state, engine.random_action(state, mover, rng)
        )
        assert text in engine.legal_moves(state, mover)
        state = engine.play(state, mover, text)
    outcome = engine.outcome(state)
    assert outcome is not None and outcome.winners == (seat,)


def bot_game(columns: int, rows: int, connect: int, seconds: float) -> tuple[str, ...]:
    """The bot (seat 0) against random moves (seat 1): the results per seat."""
    engine = ConnectFour()
    rng = random.Random(4)
    options = engine.normalize_options({"columns": columns, "rows": rows, "connect": connect})
    state = engine.initial_state(2, options, 0)
    while not engine.is_over(state):
        seat = engine.to_move(state)[0]
        if seat == 0:
            text = str(best_move([m + 1 for m in state.moves], rng, columns=columns,
                                 rows=rows, connect=connect, seconds=seconds))
        else:
            text = engine.format(state, engine.random_action(state, seat, rng))
        state = engine.play(state, seat, text)
    outcome = engine.outcome(state)
    assert outcome is not None
    return outcome.results


def test_on_a_small_board_the_bot_solves_and_beats_random_play() -> None:
    # 5x4 with lines of three: every position solves in milliseconds.
    assert bot_game(5, 4, 3, seconds=2.0)[0] == "win"


def test_on_a_big_board_the_bot_plays_a_whole_game_on_a_short_clock() -> None:
    # 8x7 with lines of five: mostly the depth-limited search. How deep it gets
    # depends on the machine, so only legality is asserted here.
    assert bot_game(8, 7, 5, seconds=0.05)[0] in ("win", "draw", "loss")
