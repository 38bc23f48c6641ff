from __future__ import annotations

from typing import Any

import pytest

from games.models import ChatMessage, Match, Room, Seat
from tests.conftest import Player, start_match

pytestmark = pytest.mark.django_db


def test_the_catalogue_lists_every_game_with_its_options(anonymous: Any) -> None:
    games = {g["slug"]: g for g in anonymous.get("/api/games/").json()}
    c4 = games["connect-four"]
    assert c4["name"] == "Connect Four"
    assert (c4["min_players"], c4["max_players"]) == (2, 2)
    assert {o["name"] for o in c4["options"]} >= {"players", "columns", "rows", "connect"}
    assert "random" in c4["bots"]
    levels = {level["name"]: level["description"] for level in c4["ai_levels"]}
    assert set(levels) == set(c4["bots"]) and all(levels.values())


def test_creating_a_room_seats_the_creator_at_seat_zero(alice: Player) -> None:
    response = alice.post("/api/rooms/", {"game": "connect-four"})
    assert response.status_code == 201
    room = response.json()
    assert room["game"] == "connect-four"
    assert room["status"] == "open"
    assert room["match"] is None
    assert room["seats"] == [
        {"seat": 0, "username": "alice", "name": "alice", "bot": None, "rating": 1500, "provisional": True},
        {"seat": 1, "username": None, "name": None, "bot": None, "rating": None, "provisional": None},
    ]
    assert room["options"] == {
        "players": 2, "columns": 7, "rows": 6, "connect": 4, "turn_seconds": 0, "ai": "random", "rated": False
    }


def test_options_change_the_board(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, options={"columns": 9, "rows": 7, "connect": 5})
    assert match["state"]["columns"] == 9 and match["state"]["rows"] == 7
    assert len(match["legal_moves"]) == 9


@pytest.mark.parametrize(
    "payload, code",
    [
        ({"game": "chess"}, "unknown_game"),
        ({}, "unknown_game"),
        ({"game": "connect-four", "options": {"colour": "red"}}, "bad_options"),
        ({"game": "connect-four", "options": {"players": 3}}, "bad_options"),
        ({"game": "connect-four", "options": {"columns": 40}}, "bad_options"),
        ({"game": "connect-four", "options": {"columns": "7"}}, "bad_options"),
        ({"game": "connect-four", "options": {"connect": 6, "columns": 4, "rows": 4}}, "bad_options"),
        ({"game": "connect-four", "options": [1, 2]}, "bad_options"),
    ],
)
def test_it_refuses_bad_rooms(alice: Player, payload: dict[str, Any], code: str) -> None:
    response = alice.post("/api/rooms/", payload)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert not Room.objects.exists()


def test_joining_the_last_seat_starts_the_first_match(alice: Player, bob: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    response = bob.post(f"/api/rooms/{room['id']}/join/")
    assert response.status_code == 200
    joined = response.json()
    assert joined["status"] == "playing"
    assert joined["seats"][1]["username"] == "bob"
    match = alice.get(f"/api/matches/{joined['match']}/").json()
    assert match["status"] == "active"
    assert match["players"] == [
        {"seat": 0, "username": "alice", "name": "alice", "bot": None, "resigned": False, "abandoned": False,
         "rating": 1500},
        {"seat": 1, "username": "bob", "name": "bob", "bot": None, "resigned": False, "abandoned": False,
         "rating": 1500},
    ]
    assert match["to_move"] == [0]
    assert match["version"] == 0


def test_a_full_room_refuses_a_third_player(c4_match: dict[str, Any], carol: Player) -> None:
    response = carol.post(f"/api/rooms/{c4_match['room']}/join/")
    assert response.status_code == 409
    assert response.json()["code"] == "room_full"


def test_one_cannot_take_a_second_seat(alice: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    response = alice.post(f"/api/rooms/{room['id']}/join/")
    assert response.status_code == 409
    assert response.json()["code"] == "already_seated"
    assert Seat.objects.filter(user=alice.user).count() == 1


def test_joining_a_missing_room_is_a_404(alice: Player) -> None:
    response = alice.post("/api/rooms/999/join/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_leaving_gives_the_seat_back_and_an_empty_room_closes(alice: Player, bob: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    response = alice.post(f"/api/rooms/{room['id']}/leave/")
    assert response.status_code == 200
    assert response.json()["status"] == "closed"
    response = bob.post(f"/api/rooms/{room['id']}/join/")
    assert response.status_code == 409
    assert response.json()["code"] == "room_closed"


def test_leaving_after_the_match_started_is_refused(c4_match: dict[str, Any], bob: Player) -> None:
    response = bob.post(f"/api/rooms/{c4_match['room']}/leave/")
    assert response.status_code == 409
    assert response.json()["code"] == "match_started"


def test_leaving_a_room_one_is_not_in_is_refused(alice: Player, dave: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    response = dave.post(f"/api/rooms/{room['id']}/leave/")
    assert response.status_code == 409
    assert response.json()["code"] == "not_seated"


def test_the_lobby_lists_and_filters_rooms(alice: Player, bob: Player, carol: Player) -> None:
    open_room = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    start_match(bob, carol)
    page = carol.get("/api/rooms/?status=open").json()
    assert page["count"] == 1
    assert page["results"][0]["id"] == open_room["id"]
    assert carol.get("/api/rooms/?game=connect-four").json()["count"] == 2
    assert carol.get("/api/rooms/?game=eskimo&status=open").json()["count"] == 0
    response = carol.get("/api/rooms/?status=sleeping")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert carol.get(f"/api/rooms/{open_room['id']}/").json()["host"] == "alice"
    assert carol.get("/api/rooms/12345/").status_code == 404


def test_rematch_hands_the_first_move_to_the_next_seat(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob)
    assert alice.post(f"/api/matches/{match['id']}/resign/").status_code == 200
    # A rematch is an offer (issue #11): bob offers, alice accepts, and it starts.
    assert bob.post(f"/api/rooms/{match['room']}/rematch/").status_code == 202
    response = alice.post(f"/api/rooms/{match['room']}/rematch/")
    assert response.status_code == 201
    second = response.json()
    assert second["number"] == 2
    assert second["id"] != match["id"]
    assert second["players"][0]["username"] == "bob"
    assert second["to_move"] == [0]
    assert bob.get(f"/api/rooms/{match['room']}/").json()["match"] == second["id"]
    # And a third match goes back to alice.
    bob.post(f"/api/matches/{second['id']}/resign/")
    alice.post(f"/api/rooms/{match['room']}/rematch/")
    third = bob.post(f"/api/rooms/{match['room']}/rematch/").json()
    assert third["players"][0]["username"] == "alice"


def test_rematch_before_the_end_is_refused(c4_match: dict[str, Any], alice: Player) -> None:
    response = alice.post(f"/api/rooms/{c4_match['room']}/rematch/")
    assert response.status_code == 409
    assert response.json()["code"] == "match_not_over"
    assert Match.objects.count() == 1


def test_rematch_by_a_stranger_is_refused(c4_match: dict[str, Any], alice: Player, dave: Player) -> None:
    alice.post(f"/api/matches/{c4_match['id']}/resign/")
    response = dave.post(f"/api/rooms/{c4_match['room']}/rematch/")
    assert response.status_code == 403
    assert response.json()["code"] == "not_seated"


def test_chat_belongs_to_the_room_and_outlives_matches(c4_match: dict[str, Any], alice: Player, carol: Player) -> None:
    room = c4_match["room"]
    response = alice.post(f"/api/rooms/{room}/chat/", {"text": "  good luck  "})
    assert response.status_code == 201
    assert response.json()["text"] == "good luck"
    alice.post(f"/api/matches/{c4_match['id']}/resign/")
    alice.post(f"/api/rooms/{room}/rematch/")
    carol.post(f"/api/rooms/{room}/chat/", {"text": "<b>watching</b>"})
    lines = carol.get(f"/api/rooms/{room}/chat/").json()
    assert [(m["username"], m["text"]) for m in lines] == [("alice", "good luck"), ("carol", "<b>watching</b>")]


@pytest.mark.parametrize("text", ["", "   ", "x" * 501, None, 42])
def test_it_refuses_bad_chat_lines(c4_match: dict[str, Any], alice: Player, text: Any) -> None:
    response = alice.post(f"/api/rooms/{c4_match['room']}/chat/", {"text": text})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert not ChatMessage.objects.exists()


def test_a_500_character_line_is_accepted(c4_match: dict[str, Any], alice: Player) -> None:
    assert alice.post(f"/api/rooms/{c4_match['room']}/chat/", {"text": "y" * 500}).status_code == 201


def test_chat_in_a_missing_room_is_a_404(alice: Player) -> None:
    assert alice.post("/api/rooms/404/chat/", {"text": "hi"}).json()["code"] == "not_found"


def test_a_room_is_found_by_its_code_in_any_case(alice: Player, bob: Player, carol: Player) -> None:
    match = start_match(alice, bob)
    code = alice.get(f"/api/rooms/{match['room']}/").json()["code"]
    page = carol.get(f"/api/rooms/?code={code.lower()}").json()
    assert [r["id"] for r in page["results"]] == [match["room"]]
    assert carol.get("/api/rooms/?code=NOPE99").json()["count"] == 0


def test_my_games_say_whose_turn_it_is(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob)
    (line,) = bob.get("/api/matches/?player=me&status=active").json()["results"]
    assert line["to_move"] == [0] and line["id"] == match["id"]


def test_the_lobby_and_my_games_cost_the_same_queries_for_5_or_25_rows(alice: Player, bob: Player) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def cost(url: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert alice.get(url).status_code == 200
        return len(queries)

    for _ in range(5):
        start_match(alice, bob)
    few_rooms, few_matches = cost("/api/rooms/"), cost("/api/matches/?player=me")
    for _ in range(20):
        start_match(alice, bob)
    assert cost("/api/rooms/") == few_rooms
    assert cost("/api/matches/?player=me") == few_matches
