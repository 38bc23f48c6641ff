"""Manhattan through the API: bad input gets a 4xx with the reason, and nothing is stored."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Match, Move
from tests.conftest import Player, make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice: Player, bob: Player, carol: Player, dave: Player) -> tuple[dict[str, Player], dict[str, Any]]:
    room = alice.post("/api/rooms/", {"game": "manhattan", "options": {"turn_seconds": 0}}).json()
    for person in (bob, carol, dave):
        person.post(f"/api/rooms/{room['id']}/join/")
    match_id = alice.get(f"/api/rooms/{room['id']}/").json()["match"]
    people = {p.username: p for p in (alice, bob, carol, dave)}
    return people, {"id": match_id}


def seat_to_move(people: dict[str, Player], match: dict[str, Any]) -> tuple[Player, dict[str, Any], Player]:
    """(the player to move, their view of the match, someone else)."""
    for person in people.values():
        detail = person.get(f"/api/matches/{match['id']}/").json()
        if detail["legal_moves"]:
            other = next(p for p in people.values() if p is not person)
            return person, detail, other
    raise AssertionError("nobody to move")


def refused(player: Player, detail: dict[str, Any], move: str, status: int, code: str, words: str) -> None:
    before = (Move.objects.count(), Match.objects.get(pk=detail["id"]).version)
    response = player.post(f"/api/matches/{detail['id']}/moves/", {"move": move, "version": detail["version"]})
    assert response.status_code == status, (move, response.json())
    assert response.json()["code"] == code
    assert response.json()["detail"] and words in response.json()["detail"], response.json()["detail"]
    assert (Move.objects.count(), Match.objects.get(pk=detail["id"]).version) == before


def test_bad_picks_are_refused(table: Any) -> None:
    people, match = table
    mover, detail, other = seat_to_move(people, match)
    assert detail["state"]["phase"] == "pick"
    refused(mover, detail, "pick:11123", 400, "illegal_move", "six")
    refused(mover, detail, "pick:444444", 400, "illegal_move", "4")
    refused(mover, detail, "pick:abc", 400, "bad_notation", "pick")
    refused(other, detail, detail["legal_moves"][0], 409, "not_your_turn", "not your turn")


def test_bad_placements_are_refused(table: Any) -> None:
    people, match = table
    for _ in range(4):  # everyone picks
        mover, detail, _ = seat_to_move(people, match)
        mover.post(f"/api/matches/{match['id']}/moves/", {"move": "pick:111234", "version": detail["version"]})
    mover, detail, other = seat_to_move(people, match)
    assert detail["state"]["phase"] == "build"
    hand = detail["state"]["hand"]
    missing = next(card for card in range(1, 10) if card not in hand)
    refused(mover, detail, f"{missing}@1/1", 400, "illegal_move", f"card {missing}")
    refused(mover, detail, f"{hand[0]}@1/5", 400, "illegal_move", "no 5-storey pieces")
    refused(mover, detail, f"{hand[0]}@7/1", 400, "illegal_move", "city 7 does not exist")
    refused(mover, detail, f"{hand[0]}@0/1", 400, "illegal_move", "cities are 1..6")
    refused(mover, detail, "build a tower", 400, "bad_notation", "")
    refused(other, detail, f"{hand[0]}@1/1", 409, "not_your_turn", "not your turn")
    assert f"{hand[0]}@1/1" in detail["legal_moves"]


def test_a_piece_not_picked_is_refused(table: Any) -> None:
    people, match = table
    for _ in range(4):
        mover, detail, _ = seat_to_move(people, match)
        mover.post(f"/api/matches/{match['id']}/moves/", {"move": "pick:111111", "version": detail["version"]})
    mover, detail, _ = seat_to_move(people, match)
    card = detail["state"]["hand"][0]
    refused(mover, detail, f"{card}@2/3", 400, "illegal_move", "3-storey")


def test_a_resigned_player_no_longer_sees_the_hand_of_the_seat_an_ai_took(table: Any) -> None:
    people, match = table
    alice = people["alice"]
    before = alice.get(f"/api/matches/{match['id']}/").json()
    seat = before["seat"]
    assert seat is not None and isinstance(before["state"]["hand"], list) and before["state"]["hand"]
    response = alice.post(f"/api/matches/{match['id']}/resign/")
    assert response.status_code == 200
    after = alice.get(f"/api/matches/{match['id']}/").json()
    assert after["status"] == "active"
    assert next(p for p in after["players"] if p["seat"] == seat)["resigned"]
    # Alice now watches as a spectator: no seat, no hand, no legal moves; the
    # AI's cards are as hidden from her as everyone else's.
    assert after["seat"] is None and after["legal_moves"] == []
    assert "hand" not in after["state"] or after["state"]["hand"] is None
    outsider = make_player("erin")
    assert after["state"] == outsider.get(f"/api/matches/{match['id']}/").json()["state"]
