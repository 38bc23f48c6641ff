"""Sokoban on the platform: levels, rooms by level, progress, uploads and solves."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from games.sokoban import jobs
from games.sokoban.models import Level, Progress, SolveJob
from tests.conftest import Player

pytestmark = pytest.mark.django_db

MICROBAN_1 = "dlUrrrdLullddrUluRuulDrddrruLdlUU"  # push-optimal, from shared/data/sokoban
SMALL = "#####\n#@$.#\n#####\n"


def level_id(collection: str = "Microban", number: int = 1) -> int:
    return Level.objects.get(collection=collection, number=number).pk


@pytest.fixture
def bundled_levels() -> None:
    """The bundled collections, loaded again if a transactional test before this one flushed them."""
    if not Level.objects.exists():
        import importlib

        from django.apps import apps

        importlib.import_module("games.sokoban.migrations.0002_bundled_collections").load(apps, None)


def start_level(player: Player, **options: Any) -> dict[str, Any]:
    room = player.post("/api/rooms/", {"game": "sokoban", "options": options})
    assert room.status_code == 201, room.json()
    assert room.json()["status"] == "playing"  # one seat: the match starts at once
    return dict(player.get(f"/api/matches/{room.json()['match']}/").json())


def step(player: Player, match: dict[str, Any], letters: str) -> dict[str, Any]:
    for letter in letters:
        response = player.post(f"/api/matches/{match['id']}/moves/", {"move": letter, "version": match["version"]})
        assert response.status_code == 201, response.json()
        match = response.json()
    return match


def test_the_bundled_collections_are_listed(alice: Player) -> None:
    names = {c["name"]: c for c in alice.get("/api/sokoban/collections/").json()}
    assert names["Microban"]["levels"] == 155 and names["Microban II"]["levels"] == 135
    page = alice.get("/api/sokoban/levels/?collection=Microban").json()
    assert page["count"] == 155
    first = page["results"][0]
    assert first["title"] == "Microban 1" and first["solved"] is False and "#" in first["xsb"]
    assert alice.get(f"/api/sokoban/levels/{first['id']}/").json()["boxes"] == first["boxes"]
    assert alice.get("/api/sokoban/levels/99999/").status_code == 404


def test_solving_a_level_records_progress_with_the_best_counts(alice: Player) -> None:
    match = start_level(alice, level_id=level_id())
    assert match["state"]["title"] == "Microban 1"
    finished = step(alice, match, MICROBAN_1)
    assert finished["status"] == "finished" and finished["result"]["results"] == ["win"]
    progress = Progress.objects.get(user=alice.user)
    assert (progress.best_moves, progress.best_pushes) == (33, 8)
    # A clumsier second solve keeps the best; the counter goes up.
    room = finished["room"]
    again = alice.post(f"/api/rooms/{room}/rematch/").json()
    step(alice, again, "du" + MICROBAN_1)
    progress.refresh_from_db()
    assert (progress.best_moves, progress.best_pushes, progress.solves) == (33, 8, 2)
    listed = alice.get(f"/api/sokoban/levels/{level_id()}/").json()
    assert listed["solved"] and listed["best_moves"] == 33
    assert alice.get("/api/sokoban/collections/").json()[0]["solved"] == 1


def test_undo_and_reset_are_moves_in_the_log(alice: Player) -> None:
    match = start_level(alice, level_id=level_id())
    match = step(alice, match, "dl")
    match = step(alice, match, ["undo"])  # type: ignore[arg-type]
    assert match["state"]["path"] == "d" and match["state"]["moves"] == 2  # undo keeps the counter
    match = step(alice, match, ["reset"])  # type: ignore[arg-type]
    assert match["state"]["moves"] == 0 and match["state"]["path"] == ""
    moves = alice.get(f"/api/matches/{match['id']}/moves/").json()
    assert [m["move"] for m in moves] == ["d", "l", "undo", "reset"]


def test_bad_sokoban_moves_are_refused(alice: Player) -> None:
    match = start_level(alice, level=SMALL)
    response = alice.post(f"/api/matches/{match['id']}/moves/", {"move": "x", "version": 0})
    assert response.status_code == 400 and response.json()["code"] == "bad_notation"
    response = alice.post(f"/api/matches/{match['id']}/moves/", {"move": "u", "version": 0})
    assert response.status_code == 400 and response.json()["code"] == "illegal_move"


def test_a_room_by_level_text_and_bad_level_options(alice: Player) -> None:
    match = start_level(alice, level=SMALL)
    assert step(alice, match, "R")["status"] == "finished"
    for options, code in [
        ({"level_id": 999999}, "bad_options"),
        ({"level": "#####\n#@ .#\n#####"}, "bad_options"),
        ({"level_id": level_id(), "level": SMALL}, "bad_options"),
    ]:
        response = alice.post("/api/rooms/", {"game": "sokoban", "options": options})
        assert response.status_code == 400 and response.json()["code"] == code, options


def test_uploads_in_both_formats_are_stored(alice: Player) -> None:
    response = alice.post("/api/sokoban/levels/", {"text": SMALL, "title": "Tiny"})
    assert response.status_code == 201, response.json()
    (stored,) = response.json()
    assert stored["collection"] == "Uploads" and stored["title"] == "Tiny"
    assert stored["verified"] == "solvable" and stored["uploaded_by"] == "alice"
    numeric = alice.post("/api/sokoban/levels/", {"text": "7 4 4111114 1325231 1320231 4111114"})
    assert numeric.status_code == 201, numeric.json()
    assert numeric.json()[0]["boxes"] == 4
    assert numeric.json()[0]["number"] == stored["number"] + 1


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "empty"),
        ("#####\n#  .#\n# $ #\n#####", "player"),
        ("######\n#@@$.#\n######", "player"),
        ("#####\n#@$ #\n#####", "goal"),
        ("#####\n#@$.\n#####", "wall"),
        ("#" * 500 + "\n" + ("#@$." + " " * 495 + "#\n") + "#" * 500, "500"),
        ("\x01\x02\x7f not a level", "unreadable"),  # (NUL bytes are refused earlier: test_hostile_input)
        ("#####\n#$  #\n#@ .#\n#####", "solve"),
    ],
)
def test_bad_uploads_are_refused_and_nothing_is_stored(alice: Player, text: str, reason: str) -> None:
    before = Level.objects.count()
    response = alice.post("/api/sokoban/levels/", {"text": text})
    assert response.status_code == 400, response.json()
    assert response.json()["code"] in ("bad_level", "unsolvable_level")
    assert response.json()["detail"]
    assert Level.objects.count() == before


def test_a_solve_runs_in_a_child_process_and_reports(alice: Player) -> None:
    response = alice.post("/api/sokoban/solve/", {"level_id": level_id(), "algorithm": "astar", "time_limit": 20})
    assert response.status_code == 201, response.json()
    job = response.json()
    assert job["status"] == "queued"
    again = alice.post("/api/sokoban/solve/", {"level": SMALL})
    assert again.status_code == 409 and again.json()["code"] == "solve_in_progress"
    assert jobs.run_queued() == 1
    done = alice.get(f"/api/sokoban/solve/{job['id']}/").json()
    assert done["status"] == "done"
    result = done["result"]
    assert result["solved"] and result["pushes"] == 8 and result["optimal"] is True
    assert result["moves"] == len(result["solution"])


def test_a_solve_may_run_two_searches_at_once(bundled_levels: None, alice: Player, settings: Any) -> None:
    # With SOKOBAN_SOLVER_THREADS at 2 the child (niced, its address space
    # capped) starts a second search thread once the first second's Python
    # search has not finished Microban 93, and answers as with one.
    settings.SOKOBAN_SOLVER_THREADS = 2
    response = alice.post("/api/sokoban/solve/", {"level_id": level_id("Microban", 93), "time_limit": 30})
    assert response.status_code == 201, response.json()
    assert jobs.run_queued() == 1
    done = alice.get(f"/api/sokoban/solve/{response.json()['id']}/").json()
    assert done["status"] == "done" and done["result"]["solved"], done


@pytest.mark.parametrize(
    "payload, code",
    [
        ({"level": SMALL, "algorithm": "magic"}, "invalid"),
        ({"level": SMALL, "time_limit": 0}, "invalid"),
        ({"level": SMALL, "time_limit": 3600}, "invalid"),
        ({"level": "#####\n#@$ #\n#####"}, "bad_level"),
        ({}, "invalid"),
        ({"level_id": 999999}, "not_found"),
    ],
)
def test_bad_solve_requests_are_refused(alice: Player, payload: dict[str, Any], code: str) -> None:
    response = alice.post("/api/sokoban/solve/", payload)
    assert response.json()["code"] == code
    assert response.status_code in (400, 404)
    assert not SolveJob.objects.exists()


def test_a_solve_belongs_to_its_owner(alice: Player, bob: Player) -> None:
    job = alice.post("/api/sokoban/solve/", {"level": SMALL}).json()
    assert bob.get(f"/api/sokoban/solve/{job['id']}/").status_code == 404
    assert bob.post(f"/api/sokoban/solve/{job['id']}/cancel/").status_code == 404
    assert alice.get("/api/sokoban/solve/not-a-uuid/").status_code == 404


def test_a_queued_solve_cancels_at_once(alice: Player) -> None:
    job = alice.post("/api/sokoban/solve/", {"level": SMALL}).json()
    cancelled = alice.post(f"/api/sokoban/solve/{job['id']}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert jobs.run_queued() == 0
    again = alice.post(f"/api/sokoban/solve/{job['id']}/cancel/")
    assert again.status_code == 409 and again.json()["code"] == "solve_over"




@pytest.mark.django_db(transaction=True)
def test_a_running_solve_stops_on_cancel_and_on_its_time_limit(bundled_levels: None, alice: Player) -> None:
    hard = level_id("Microban II", 131)  # 44 boxes: far beyond a breadth-first search
    # Breadth-first on a big level runs far past a second: the limit stops it cleanly.
    job = alice.post("/api/sokoban/solve/", {"level_id": hard, "algorithm": "bfs", "time_limit": 1}).json()
    jobs.run_queued()
    timed = SolveJob.objects.get(pk=job["id"])
    assert timed.status == "done" and timed.result["solved"] is False
    assert timed.result["status"] == "time_limit" and timed.expanded > 0
    # And a long one is cancelled while it runs.
    job = alice.post("/api/sokoban/solve/", {"level_id": hard, "algorithm": "bfs", "time_limit": 60}).json()
    runner = threading.Thread(target=jobs.run_queued)
    started = time.monotonic()
    runner.start()
    while SolveJob.objects.get(pk=job["id"]).expanded == 0 and time.monotonic() - started < 20:
        time.sleep(0.1)
    assert alice.post(f"/api/sokoban/solve/{job['id']}/cancel/").status_code == 200
    runner.join(timeout=30)
    assert not runner.is_alive()
    assert SolveJob.objects.get(pk=job["id"]).status == "cancelled"
    assert time.monotonic() - started < 30


def test_a_second_solve_names_the_running_one_and_mine_are_listed(alice: Player, bob: Player) -> None:
    first = alice.post("/api/sokoban/solve/", {"level": SMALL}).json()
    refused = alice.post("/api/sokoban/solve/", {"level": SMALL})
    assert refused.status_code == 409 and refused.json()["job"] == first["id"]
    assert [j["id"] for j in alice.get("/api/sokoban/solve/?status=queued").json()] == [first["id"]]
    assert bob.get("/api/sokoban/solve/").json() == []
    assert alice.get("/api/sokoban/solve/?status=lost").json()["code"] == "invalid"


def test_levels_come_in_pages_of_up_to_200_and_uploads_is_always_a_collection(alice: Player) -> None:
    page = alice.get("/api/sokoban/levels/?collection=Microban&page_size=200").json()
    assert len(page["results"]) == 155 and page["next"] is None
    assert len(alice.get("/api/sokoban/levels/?page_size=1000").json()["results"]) == 200
    names = [c["name"] for c in alice.get("/api/sokoban/collections/").json()]
    assert "Uploads" in names
