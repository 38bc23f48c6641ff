"""Hostile and odd input found in review: always a 4xx in the error shape, never a 500."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import ChatMessage, Move
from games.sokoban.models import SolveJob
from tests.conftest import Player, start_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("move", ["9" * 5000, "1" * 65, "٣" * 10])
def test_absurd_moves_are_bad_notation(c4_match: dict[str, Any], alice: Player, move: str) -> None:
    response = alice.post(f"/api/matches/{c4_match['id']}/moves/", {"move": move, "version": 0})
    assert response.status_code == 400 and response.json()["code"] == "bad_notation"
    assert not Move.objects.exists()


@pytest.mark.parametrize("move", ["1@1/" + "9" * 5000, "discard:" + "9" * 60, "pick:" + "1" * 60])
def test_absurd_manhattan_moves_are_bad_notation(alice: Player, move: str) -> None:
    room = alice.post("/api/rooms/", {"game": "manhattan", "options": {"turn_seconds": 0}}).json()
    match = alice.post(f"/api/rooms/{room['id']}/start/").json()
    response = alice.post(f"/api/matches/{match['id']}/moves/", {"move": move, "version": match["version"]})
    assert response.status_code in (400, 409)
    assert response.json()["code"] in ("bad_notation", "not_your_turn")


def test_nul_characters_are_refused_everywhere(c4_match: dict[str, Any], alice: Player, anonymous: Any) -> None:
    chat = alice.post(f"/api/rooms/{c4_match['room']}/chat/", {"text": "hi\x00there"})
    assert chat.status_code == 400 and chat.json() == {"code": "invalid", "detail": "text may not contain NUL characters"}
    assert not ChatMessage.objects.exists()
    login = anonymous.post("/api/auth/login/", {"username": "al\x00ice", "password": "x"}, format="json")
    assert login.status_code == 400 and login.json()["code"] == "invalid"
    listing = alice.get("/api/rooms/?code=AB%00CD")
    assert listing.status_code == 400 and listing.json()["code"] == "invalid"
    page = Client().post("/login/", {"username": "a\x00b", "password": "x"})
    assert page.status_code == 400


@pytest.mark.parametrize(
    "method, url",
    [
        ("get", "/api/nothing-here/"),
        ("get", "/api/rooms/abc/"),
        ("get", "/api/matches/1/positions/-1/"),
        ("post", "/api/rooms/1/join"),  # no trailing slash: no redirect, no 500
    ],
)
def test_unknown_api_paths_are_json_404s(alice: Player, method: str, url: str) -> None:
    response = getattr(alice.client, method)(url)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_missing_match_says_not_found(alice: Player) -> None:
    assert alice.get("/api/matches/424242/").json() == {"code": "not_found", "detail": "not found"}


def test_an_oversized_body_is_a_413_in_the_error_shape(alice: Player) -> None:
    response = alice.client.post("/api/rooms/", data="x" * (7 * 1024 * 1024), content_type="application/json")
    assert response.status_code == 413 and response.json()["code"] == "request_too_large"


@pytest.mark.parametrize("target", ["https://evil.example/phish", "//evil.example/", "http://127.0.0.1.evil/"])
def test_login_never_redirects_off_site(alice: Player, target: str) -> None:
    response = Client().post(f"/login/?next={target}", {"username": "alice", "password": "secret-pass"})
    assert response.status_code == 302 and response["Location"] == "/"


def test_login_follows_a_local_next() -> None:
    from tests.conftest import make_player

    make_player("zoe")
    response = Client().post("/login/?next=/rooms/3/", {"username": "zoe", "password": "secret-pass"})
    assert response["Location"] == "/rooms/3/"


def test_a_solve_left_running_by_a_dead_server_does_not_block_the_player(alice: Player) -> None:
    job = alice.post("/api/sokoban/solve/", {"level": "#####\n#@$.#\n#####"}).json()
    # The server that claimed it died long ago, mid-solve.
    SolveJob.objects.filter(pk=job["id"]).update(
        status="running", started_at=timezone.now() - timedelta(minutes=10)
    )
    again = alice.post("/api/sokoban/solve/", {"level": "#####\n#@$.#\n#####"})
    assert again.status_code == 201, again.json()
    stale = alice.get(f"/api/sokoban/solve/{job['id']}/").json()
    assert stale["status"] == "failed" and "stopped" in stale["error"]


def test_a_solve_whose_server_crashed_seconds_ago_no_longer_blocks_its_owner(alice: Player) -> None:
    level = "#####\n#@$.#\n#####"
    job = alice.post("/api/sokoban/solve/", {"level": level, "time_limit": 60}).json()
    # Claimed by a server that then crashed 15 s ago, well inside the job's minute:
    # its runner stopped touching the job.
    SolveJob.objects.filter(pk=job["id"]).update(
        status="running", started_at=timezone.now() - timedelta(seconds=20),
        seen_at=timezone.now() - timedelta(seconds=15),
    )
    again = alice.post("/api/sokoban/solve/", {"level": level})
    assert again.status_code == 201, again.json()
    assert alice.get(f"/api/sokoban/solve/{job['id']}/").json()["status"] == "failed"


def test_a_solve_whose_server_is_alive_still_blocks_a_second_one(alice: Player) -> None:
    level = "#####\n#@$.#\n#####"
    job = alice.post("/api/sokoban/solve/", {"level": level, "time_limit": 60}).json()
    SolveJob.objects.filter(pk=job["id"]).update(
        status="running", started_at=timezone.now() - timedelta(seconds=20), seen_at=timezone.now()
    )
    again = alice.post("/api/sokoban/solve/", {"level": level})
    assert again.status_code == 409 and again.json()["code"] == "solve_in_progress"


def test_cancelling_a_solve_whose_server_crashed_takes_effect_at_once(alice: Player) -> None:
    level = "#####\n#@$.#\n#####"
    job = alice.post("/api/sokoban/solve/", {"level": level, "time_limit": 60}).json()
    SolveJob.objects.filter(pk=job["id"]).update(
        status="running", started_at=timezone.now() - timedelta(seconds=20),
        seen_at=timezone.now() - timedelta(seconds=15),
    )
    cancelled = alice.post(f"/api/sokoban/solve/{job['id']}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert alice.post("/api/sokoban/solve/", {"level": level}).status_code == 201


def test_a_closed_room_takes_no_chat(alice: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    alice.post(f"/api/rooms/{room['id']}/leave/")
    response = alice.post(f"/api/rooms/{room['id']}/chat/", {"text": "anyone?"})
    assert response.status_code == 409 and response.json()["code"] == "room_closed"


def test_the_admin_shows_no_hands_and_cannot_rewrite_the_log(alice: Player, bob: Player) -> None:
    from accounts.models import User

    match = start_match(alice, bob)
    alice.post(f"/api/matches/{match['id']}/moves/", {"move": "4", "version": 0})
    staff = User.objects.create_superuser("root", password="root-pass-1")
    admin = Client()
    admin.force_login(staff)
    page = admin.get(f"/admin/games/match/{match['id']}/change/").content.decode()
    assert 'name="snapshot"' not in page and 'name="seed"' not in page
    move = Move.objects.get()
    assert admin.get("/admin/games/move/add/").status_code == 403
    assert admin.post(f"/admin/games/move/{move.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Move.objects.filter(pk=move.pk).exists()


# --- text that is not text, and JSON nested beyond reason (issue 10) --------

LONE_SURROGATE = '"x\\ud800y"'  # valid JSON, not valid Unicode text


def raw_json(player: Player, method: str, url: str, text: str) -> Any:
    return getattr(player.client, method)(url, data=text.encode(), content_type="application/json")


def test_a_lone_surrogate_in_chat_is_bad_text_and_nothing_is_stored(c4_match: dict[str, Any], alice: Player) -> None:
    response = raw_json(alice, "post", f"/api/rooms/{c4_match['room']}/chat/", '{"text": ' + LONE_SURROGATE + "}")
    assert response.status_code == 400 and response.json()["code"] == "bad_text"
    assert not ChatMessage.objects.exists()


def test_a_lone_surrogate_in_a_display_name_is_bad_text(alice: Player) -> None:
    response = raw_json(alice, "patch", "/api/auth/me/", '{"display_name": ' + LONE_SURROGATE + "}")
    assert response.status_code == 400 and response.json()["code"] == "bad_text"
    assert alice.get("/api/auth/me/").json()["display_name"] != "x\ud800y"


@pytest.mark.parametrize("where", ["key", "nested value"])
def test_a_lone_surrogate_anywhere_in_the_body_is_bad_text(alice: Player, where: str) -> None:
    body = '{"game": "connect-four", "options": {' + (
        LONE_SURROGATE + ': 1}}' if where == "key" else '"x": [' + LONE_SURROGATE + "]}}"
    )
    response = raw_json(alice, "post", "/api/rooms/", body)
    assert response.status_code == 400 and response.json()["code"] == "bad_text"


@pytest.mark.parametrize(
    "method, url",
    [("post", "/api/rooms/"), ("patch", "/api/auth/me/"), ("post", "/api/seeks/"), ("post", "/api/auth/login/")],
)
def test_json_nested_a_thousand_deep_is_refused(alice: Player, method: str, url: str) -> None:
    response = raw_json(alice, method, url, "[" * 1000 + "]" * 1000)
    assert response.status_code == 400
    assert response.json()["code"] == "too_deep" and response.json()["max_depth"] == 32


def test_json_nested_a_little_is_still_read(alice: Player) -> None:
    response = raw_json(alice, "post", "/api/rooms/", '{"game": "connect-four", "options": {}}')
    assert response.status_code == 201


def test_a_post_with_a_session_cookie_to_an_unknown_api_path_is_a_json_404(alice: Player) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice.user)
    response = browser.post("/api/matches/null,null/moves/", {"move": "4"}, content_type="application/json")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_failed_csrf_check_under_the_api_is_json(alice: Player) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice.user)
    response = browser.post("/api/auth/me/", {}, content_type="application/json")
    assert response.status_code == 403
    assert response["Content-Type"].startswith("application/json") and response.json()["detail"]
