"""The Sokoban solver, its API for the service, and the command line."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from games.engines.sokoban import MICROBAN, load_levels, parse_level, solver
from games.engines.sokoban.__main__ import main
from games.engines.sokoban.board import Board
from games.engines.sokoban.deadlocks import push_deadlock
from games.engines.sokoban.engine import replay
from games.engines.sokoban.solver import (
    ALGORITHMS,
    CANCELLED,
    MEMORY_LIMIT,
    SOLVED,
    TIME_LIMIT,
    UNSOLVABLE,
    SolveCancelled,
    SolveResult,
    solve,
    verify_level,
)

SHARED = Path(__file__).parents[2].parent / "shared" / "data" / "sokoban"
LEVELS = load_levels(MICROBAN)
# Microban 93: small but far beyond a quarter of a second for any algorithm here.
HARD = LEVELS[92]


def optima() -> dict[int, int]:
    with (SHARED / "microban_push_optimal.tsv").open(encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return {int(row["level"]): int(row["pushes"]) for row in rows}


def assert_solves(result: SolveResult, level_index: int) -> None:
    assert result.status == SOLVED, result
    state = replay(LEVELS[level_index], result.solution)
    assert state.solved
    assert (result.pushes, result.moves) == (state.pushes, state.moves)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_solves_small_levels(algorithm: str) -> None:
    for index in (0, 1, 3, 4, 6):
        assert_solves(solve(LEVELS[index], algorithm, time_limit=20), index)


@pytest.mark.parametrize("algorithm", ["bfs", "astar", "best"])
def test_the_push_optimal_searches_match_the_known_optima(algorithm: str) -> None:
    known = optima()
    sample = [1, 2, 3, 5, 7, 9, 12, 14, 16, 17, 18] if algorithm == "bfs" else range(1, 31)
    for number in sample:
        result = solve(LEVELS[number - 1], algorithm, time_limit=20)
        assert_solves(result, number - 1)
        assert result.optimal
        assert result.pushes == known[number], f"level {number}"


def test_greedy_and_dfs_do_not_claim_optimality() -> None:
    for algorithm in ("greedy", "dfs"):
        assert not solve(LEVELS[2], algorithm).optimal


def test_a_level_with_a_box_stuck_in_a_corner_is_proved_unsolvable() -> None:
    level = parse_level("#####\n#$  #\n# @.#\n#####\n")
    for algorithm in ALGORITHMS:
        result = solve(level, algorithm)
        assert result.status == UNSOLVABLE and not result.solved


def test_a_level_with_no_possible_push_is_proved_unsolvable_by_every_algorithm() -> None:
    # Each box could reach a goal alone, but two boxes in a row never move.
    level = parse_level("#######\n#@$$..#\n#######\n")
    for algorithm in ALGORITHMS:
        assert solve(level, algorithm).status == UNSOLVABLE


def test_an_already_solved_level_needs_no_push() -> None:
    result = solve(parse_level("####\n#@*#\n####\n"), "best")
    assert result.solved and result.solution == "" and result.pushes == 0


def test_running_out_of_time_is_a_clean_result() -> None:
    result = solve(HARD, "astar", time_limit=0.3)
    assert result.status == TIME_LIMIT and not result.solved
    assert result.expanded > 0 and 0.3 <= result.seconds < 2


def test_running_out_of_memory_is_a_clean_result() -> None:
    result = solve(HARD, "bfs", time_limit=20, memory_limit_mb=0.2)
    assert result.status == MEMORY_LIMIT and not result.solved


def test_the_memory_estimate_stops_a_search_before_the_first_quarter_second() -> None:
    # A fast machine could finish a search inside the first quarter second,
    # past a small limit, if only the timed check looked at memory.
    budget = solver._Budget(30, 1, None)
    budget.check(100)  # 40 KB of a 1 MB limit
    with pytest.raises(solver._Stop) as stop:
        budget.check(1_000_000 // solver.BYTES_PER_POSITION + 1000)
    assert stop.value.status == MEMORY_LIMIT
    # A paused search's positions (``best`` takes turns) count as well.
    budget.held = 1_000_000 // solver.BYTES_PER_POSITION
    with pytest.raises(solver._Stop) as stop:
        budget.check(1000)
    assert stop.value.status == MEMORY_LIMIT


def test_progress_is_reported_and_can_cancel_by_returning_true() -> None:
    seen: list[int] = []

    def progress(expanded: int) -> bool:
        seen.append(expanded)
        return len(seen) >= 2

    result = solve(HARD, "astar", time_limit=20, progress=progress)
    assert result.status == CANCELLED
    assert len(seen) == 2 and seen[0] <= seen[1]


def test_progress_can_cancel_by_raising() -> None:
    def progress(expanded: int) -> None:
        raise SolveCancelled

    assert solve(HARD, "best", time_limit=20, progress=progress).status == CANCELLED


def test_a_result_serialises_to_json() -> None:
    result = solve(LEVELS[0], "best")
    data = json.loads(json.dumps(result.to_json()))
    assert data["solved"] is True and data["status"] == "solved"
    assert data["solution"] == result.solution
    assert {"moves", "pushes", "expanded", "seconds", "optimal", "algorithm"} <= set(data)
    fields = {k: v for k, v in data.items() if k != "solved"}
    assert SolveResult(**fields).solution == result.solution


def test_it_refuses_an_unknown_algorithm() -> None:
    with pytest.raises(ValueError, match="unknown algorithm"):
        solve(LEVELS[0], "magic")


def test_it_accepts_level_text() -> None:
    assert solve("#####\n#@$.#\n#####\n").solution == "R"


def test_verify_level_tells_refuse_accept_and_unverified() -> None:
    assert verify_level(LEVELS[0]).status == SOLVED
    assert verify_level(parse_level("#####\n#$  #\n# @.#\n#####\n")).status == UNSOLVABLE
    assert verify_level(HARD, time_limit=0.2).status == TIME_LIMIT


def test_a_box_frozen_off_a_goal_is_a_deadlock() -> None:
    # Two boxes side by side against the top wall.
    board = Board(parse_level("######\n#    #\n# @$$#\n#..  #\n######\n"))
    boxes = (1 << (1 * board.width + 2)) | (1 << (1 * board.width + 3))
    assert push_deadlock(board, boxes, 1 * board.width + 3, {})
    alone = 1 << (2 * board.width + 3)
    assert not push_deadlock(board, alone, 2 * board.width + 3, {})


def test_boxes_frozen_on_goals_are_no_deadlock() -> None:
    board = Board(parse_level("######\n#..  #\n# @  #\n#$$  #\n######\n"))
    boxes = (1 << (1 * board.width + 1)) | (1 << (1 * board.width + 2))
    assert not push_deadlock(board, boxes, 1 * board.width + 2, {})


def test_the_cli_solves_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(MICROBAN), "--levels", "1-2", "--time-limit", "10"]) == 0
    table = capsys.readouterr().out
    assert table.splitlines()[0].split("\t")[:3] == ["level", "status", "pushes"]
    solutions = tmp_path / "solutions.tsv"
    solutions.write_text(table, encoding="utf-8")
    assert main(["check", str(MICROBAN), str(solutions)]) == 0
    assert "2 of 2 solutions check out" in capsys.readouterr().out


def test_the_cli_prints_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(MICROBAN), "--level", "2", "--algorithm", "bfs", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["level"] == 2 and data["pushes"] == 3 and data["algorithm"] == "bfs"


def test_the_cli_checks_one_lurd_a_line_and_reports_failures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solutions = tmp_path / "solutions.txt"
    solutions.write_text("dlUrrrdLullddrUluRuulDrddrruLdlUU\nrrrr\n", encoding="utf-8")
    assert main(["check", str(MICROBAN), str(solutions)]) == 1
    out = capsys.readouterr().out
    assert "level 1: ok (8 pushes, 33 moves)" in out
    assert "level 2: FAILED: letter 2 (r): there is a wall to the right" in out


def test_the_cli_checks_the_shared_table_of_optima(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(MICROBAN), str(SHARED / "microban_push_optimal.tsv")]) == 0
    assert "152 of 152 solutions check out" in capsys.readouterr().out
