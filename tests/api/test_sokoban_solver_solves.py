"""A level solved with the solver (issue #11): the server plays the solver's answer on the
player's behalf (POST /api/sokoban/solve/{job}/step/, moves made by the solver), and such
a solve, or one typed in after the solver showed its answer, is marked solved with the
solver: never the player's own, never their best."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games.models import Move
from games.sokoban.models import Progress, SolveJob
from tests.conftest import Player

from .test_sokoban import MICROBAN_1, level_id, start_level, step

pytestmark = pytest.mark.django_db


def answer(player: Player, solution: str = MICROBAN_1, **level: Any) -> SolveJob:
    """A finished solve of Microban 1 (or ``level``) whose answer is ``solution``, as the worker leaves one."""
    return SolveJob.objects.create(
        user=player.user, level_id=level.get("level_id", level_id()), xsb=level.get("xsb", ""), algorithm="best",
        time_limit=10, memory_limit_mb=512, status=SolveJob.Status.DONE, finished_at=timezone.now(),
        result={"solved": True, "status": "solved", "solution": solution, "moves": len(solution),
                "pushes": sum(c.isupper() for c in solution)},
    )


def solver_step(player: Player, job: SolveJob, match: dict[str, Any]) -> Any:
    return player.post(f"/api/sokoban/solve/{job.pk}/step/", {"match": match["id"], "version": match["version"]})


def play_answer(player: Player, job: SolveJob, match: dict[str, Any]) -> dict[str, Any]:
    for _ in range(200):
        response = solver_step(player, job, match)
        assert response.status_code == 201, response.json()
        match = response.json()
        if match["status"] != "active":
            return match
    raise AssertionError("the solution never ended")


def test_the_server_plays_the_answer_from_the_levels_start_and_marks_the_solve(alice: Player) -> None:
    match = start_level(alice, level_id=level_id())
    match = step(alice, match, "d")  # a step of her own first: the answer is played from the start
    job = answer(alice)
    first = solver_step(alice, job, match).json()
    assert first["state"]["path"] == "" and first["state"]["moves"] == 0
    final = play_answer(alice, job, first)
    assert final["status"] == "finished" and final["state"]["path"] == MICROBAN_1
    assert final["result"]["solver"] is True and final["result"]["reason"] == "solved with the solver"
    made_by = list(Move.objects.filter(match_id=final["id"]).order_by("ply").values_list("made_by", flat=True))
    assert made_by == ["player"] + ["solver"] * 34  # reset, then the 33 letters
    moves = alice.get(f"/api/matches/{final['id']}/moves/").json()
    assert moves[1]["move"] == "reset" and moves[1]["made_by"] == "solver"
    # Not her own solve: the level is not solved, and no best is kept.
    progress = Progress.objects.get(user=alice.user)
    assert (progress.solves, progress.solver_solves, progress.best_moves) == (0, 1, None)
    listed = alice.get(f"/api/sokoban/levels/{level_id()}/").json()
    assert (listed["solved"], listed["solved_with_solver"], listed["best_moves"]) == (False, True, None)
    assert alice.get("/api/sokoban/collections/").json()[0]["solved"] == 0


def test_a_solution_typed_in_after_the_solver_showed_it_is_not_the_players_own(alice: Player) -> None:
    answer(alice)
    final = step(alice, start_level(alice, level_id=level_id()), MICROBAN_1)
    assert final["result"]["solver"] is True
    assert Progress.objects.get(user=alice.user).best_moves is None


def test_an_own_solve_keeps_its_best_beside_solves_with_the_solver(alice: Player) -> None:
    own = step(alice, start_level(alice, level_id=level_id()), "du" + MICROBAN_1)
    assert "solver" not in own["result"]
    job = answer(alice)
    again = alice.post(f"/api/rooms/{own['room']}/rematch/").json()
    assert play_answer(alice, job, again)["result"]["solver"] is True
    progress = Progress.objects.get(user=alice.user)
    # The solver's 33 moves do not replace her own best of 35.
    assert (progress.solves, progress.solver_solves, progress.best_moves, progress.best_pushes) == (1, 1, 35, 8)
    listed = alice.get(f"/api/sokoban/levels/{level_id()}/").json()
    assert listed["solved"] and listed["solved_with_solver"] and listed["best_moves"] == 35


def test_someone_elses_solve_does_not_mark_mine(alice: Player, bob: Player) -> None:
    answer(bob)
    final = step(alice, start_level(alice, level_id=level_id()), MICROBAN_1)
    assert "solver" not in final["result"]
    assert Progress.objects.get(user=alice.user).best_moves == 33


def test_a_level_given_as_text_is_played_from_a_solve_of_that_text(alice: Player) -> None:
    small = "#####\n#@$.#\n#####\n"
    match = start_level(alice, level=small)
    job = answer(alice, "R", level_id=None, xsb=small)
    final = play_answer(alice, job, match)
    assert final["status"] == "finished"
    assert Move.objects.get(match_id=final["id"]).made_by == "solver"


def test_bad_solver_steps_are_refused(alice: Player, bob: Player) -> None:
    match = start_level(alice, level_id=level_id())
    job = answer(alice)
    other_level = answer(alice, level_id=level_id(number=2))
    unsolved = SolveJob.objects.create(user=alice.user, level_id=level_id(), xsb="", algorithm="best", time_limit=1,
                                       memory_limit_mb=512, status=SolveJob.Status.DONE,
                                       result={"solved": False, "status": "time_limit"})
    cases = [
        (alice, job, {"match": match["id"]}, 400, "invalid"),
        (alice, job, {"match": "x", "version": match["version"]}, 400, "invalid"),
        (alice, job, {"match": 999999, "version": match["version"]}, 404, "not_found"),
        (alice, job, {"match": match["id"], "version": match["version"] + 1}, 409, "stale_version"),
        (alice, other_level, {"match": match["id"], "version": match["version"]}, 409, "other_level"),
        (alice, unsolved, {"match": match["id"], "version": match["version"]}, 409, "no_solution"),
        (bob, job, {"match": match["id"], "version": match["version"]}, 404, "not_found"),
    ]
    for player, solve, payload, status, code in cases:
        response = player.post(f"/api/sokoban/solve/{solve.pk}/step/", payload)
        assert (response.status_code, response.json()["code"]) == (status, code), (payload, response.json())
    assert alice.post("/api/sokoban/solve/not-a-uuid/step/", {"match": 1, "version": 0}).status_code == 404
    # Someone else's match: bob has a solve of his own, but the match is not his to play.
    bobs = answer(bob)
    response = bob.post(f"/api/sokoban/solve/{bobs.pk}/step/", {"match": match["id"], "version": match["version"]})
    assert (response.status_code, response.json()["code"]) == (403, "not_seated")
    assert not Move.objects.filter(match_id=match["id"]).exists()
