"""Reviewing a finished match: GET /api/matches/{id}/analysis/ queues it, a runner computes
each position once in a child process, and the stored review is served after."""

from __future__ import annotations

from typing import Any

import pytest

from games import analysis
from games.models import Analysis, Match
from tests.conftest import Player, play, start_match

pytestmark = pytest.mark.django_db


def quoridor_game(alice: Player, bob: Player, moves: list[str]) -> dict[str, Any]:
    match = start_match(alice, bob, "quoridor")
    people = {"alice": alice, "bob": bob}
    seats = {p["seat"]: people[p["username"]] for p in match["players"]}
    detail = match
    for move in moves:
        response = play(seats[detail["to_move"][0]], detail, move)
        assert response.status_code == 201, response.json()
        detail = response.json()
    return detail


def test_a_match_in_play_is_not_analysed(c4_match: dict[str, Any], alice: Player) -> None:
    response = alice.get(f"/api/matches/{c4_match['id']}/analysis/")
    assert response.status_code == 409 and response.json()["code"] == "match_not_over"
    assert not Analysis.objects.exists()


def test_a_missing_match_is_a_404(alice: Player) -> None:
    assert alice.get("/api/matches/9999/analysis/").status_code == 404


def test_a_finished_quoridor_match_shows_each_pawns_distance_at_every_ply(alice: Player, bob: Player) -> None:
    detail = quoridor_game(alice, bob, ["e2", "e8", "e8h"])
    alice.post(f"/api/matches/{detail['id']}/resign/")
    queued = alice.get(f"/api/matches/{detail['id']}/analysis/")
    assert queued.status_code == 202
    assert queued.json()["status"] == "queued" and queued.json()["plies"] == 4
    assert alice.get(f"/api/matches/{detail['id']}/analysis/").json()["status"] == "queued", "queued once"
    assert analysis.run_queued() == 1
    done = bob.get(f"/api/matches/{detail['id']}/analysis/")
    assert done.status_code == 200
    review = done.json()
    assert review["status"] == "done" and review["done"] == 4
    distances = [position["analysis"]["distances"] for position in review["positions"]]
    # Seat 0 steps up, seat 1 steps down, then a fence across the top lengthens seat 0's way
    # (seat 1's pawn on e8 is past it, its way is unchanged).
    assert distances == [[8, 8], [7, 8], [7, 7], [8, 7]]
    assert analysis.run_queued() == 0, "computed once, then kept"


def test_a_game_with_hidden_hands_says_nothing_in_review(alice: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "manhattan", "options": {"turn_seconds": 0}}).json()
    match = alice.post(f"/api/rooms/{room['id']}/start/").json()
    alice.post(f"/api/matches/{match['id']}/resign/")
    alice.get(f"/api/matches/{match['id']}/analysis/")
    analysis.run_queued()
    review = alice.get(f"/api/matches/{match['id']}/analysis/").json()
    assert review["status"] == "done" and review["positions"]
    assert all(position == {"analysis": None} or position == {"analysis": None, "move": None}
               for position in review["positions"])


def test_a_failed_review_is_tried_again_on_request(alice: Player, bob: Player) -> None:
    detail = quoridor_game(alice, bob, ["e2"])
    alice.post(f"/api/matches/{detail['id']}/resign/")
    alice.get(f"/api/matches/{detail['id']}/analysis/")
    Analysis.objects.update(status=Analysis.Status.FAILED, error="boom")
    failed = alice.get(f"/api/matches/{detail['id']}/analysis/")
    assert failed.status_code == 202 and failed.json()["status"] == "queued"
    assert Match.objects.get(pk=detail["id"]).analysis.status == "queued"


# A box in the middle, its goal at the bottom right: pushed up against the top
# wall it can never leave that wall, and the level is lost.
CORNERED = "#####\n#@  #\n# $ #\n#  .#\n#####\n"


def test_a_sokoban_review_says_at_every_ply_whether_the_level_can_still_be_solved(alice: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "sokoban", "options": {"level": CORNERED}}).json()
    match_id = room["match"]
    version = 0
    for letter in "ddrU":
        response = alice.post(f"/api/matches/{match_id}/moves/", {"move": letter, "version": version})
        assert response.status_code == 201, response.json()
        version = response.json()["version"]
    alice.post(f"/api/matches/{match_id}/resign/")
    assert alice.get(f"/api/matches/{match_id}/analysis/").status_code == 202
    assert analysis.run_queued() == 1
    review = alice.get(f"/api/matches/{match_id}/analysis/").json()
    assert review["status"] == "done"
    found = [position["analysis"] for position in review["positions"]]
    # Two pushes (right, then down) while the box is free; none after it is pushed up.
    solvable = {"solvable": True, "pushes_left": 2, "optimal": True}
    assert found == [solvable, solvable, solvable, solvable, {"solvable": False}]
