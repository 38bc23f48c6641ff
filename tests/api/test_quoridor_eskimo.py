"""Quoridor (2 and 4 players) and Eskimo through the REST API.

Rooms are created and joined like any other game's; random games are played
to the end one POST at a time, each by the seat to move, with the version it
last saw and a move taken from its own ``legal_moves``; and every kind of bad
move is refused with the platform's error shape while nothing is stored.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.models import Match, Move, Room
from tests.conftest import Player, make_player, play, start_match

pytestmark = pytest.mark.django_db

# Quoridor with 4 players, clockwise from the bottom: P1..P4 are seats 0..3.
FOUR_PLAYER_STARTS = ["e1", "a5", "e9", "i5"]


def detail_for(player: Player, match: dict[str, Any]) -> dict[str, Any]:
    response = player.get(f"/api/matches/{match['id']}/")
    assert response.status_code == 200, response.json()
    return dict(response.json())


def moved(player: Player, match: dict[str, Any], move: str) -> dict[str, Any]:
    """``player`` plays ``move``; it must be stored. Returns the match as ``player`` now sees it."""
    response = play(player, match, move)
    assert response.status_code == 201, (move, response.json())
    return dict(response.json())


def play_moves(by_seat: list[Player], match: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    """Each move by the seat to move, in order; returns the match as the next seat to move sees it."""
    detail = match
    for move in moves:
        mover = by_seat[detail["to_move"][0]]
        detail = moved(mover, detail, move)
        if detail["to_move"]:
            detail = detail_for(by_seat[detail["to_move"][0]], detail)
    return detail


def refused(
    player: Player, match: dict[str, Any], move: str, *, status: int, code: str, reason: str = ""
) -> str:
    """``move`` by ``player`` is refused with ``code`` (and ``reason`` in its detail); nothing is stored."""
    moves_before = Move.objects.filter(match_id=match["id"]).count()
    version_before = Match.objects.get(pk=match["id"]).version
    response = play(player, match, move)
    assert response.status_code == status, (move, response.json())
    body = response.json()
    assert set(body) == {"code", "detail"}
    assert body["code"] == code, (move, body)
    assert reason in body["detail"], (move, body)
    assert Move.objects.filter(match_id=match["id"]).count() == moves_before
    assert Match.objects.get(pk=match["id"]).version == version_before
    assert detail_for(player, match)["version"] == version_before
    return str(body["detail"])


def four_player_match(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> tuple[dict[str, Any], list[Player]]:
    room = alice.post("/api/rooms/", {"game": "quoridor", "options": {"players": 4}}).json()
    for guest in (bob, carol, dave):
        response = guest.post(f"/api/rooms/{room['id']}/join/")
        assert response.status_code == 200, response.json()
    match_id = response.json()["match"]
    return detail_for(alice, {"id": match_id}), [alice, bob, carol, dave]


def random_playout(by_seat: list[Player], match: dict[str, Any], rng: random.Random, limit: int) -> dict[str, Any]:
    """Random legal moves, each POSTed by the seat to move, until the game ends; the final detail."""
    detail = match
    played: list[str] = []
    while detail["status"] == "active":
        assert len(played) < limit, f"no result after {limit} moves"
        seat = detail["to_move"][0]
        mover = by_seat[seat]
        mine = detail_for(mover, detail)
        assert mine["seat"] == seat and mine["to_move"] == [seat]
        assert mine["legal_moves"], "the seat to move always has a move (pass included)"
        # Nobody else is offered a move.
        other = by_seat[(seat + 1) % len(by_seat)]
        assert detail_for(other, detail)["legal_moves"] == []
        move = rng.choice(mine["legal_moves"])
        after = moved(mover, mine, move)
        assert after["version"] == mine["version"] + 1
        played.append(move)
        detail = after
    stored = by_seat[0].get(f"/api/matches/{detail['id']}/moves/").json()
    assert [m["move"] for m in stored] == played
    assert [m["seat"] for m in stored] == [i % len(by_seat) for i in range(len(played))]
    assert [m["ply"] for m in stored] == list(range(1, len(played) + 1))
    assert detail["version"] == len(played)
    assert detail["to_move"] == [] and detail["legal_moves"] == []
    return detail


# --- Quoridor: rooms ------------------------------------------------------------


def test_a_two_player_quoridor_match_starts_with_pawns_on_e1_and_e9(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "quoridor")
    state = match["state"]
    assert match["players"][0]["username"] == "alice" and match["players"][1]["username"] == "bob"
    assert state["players"] == 2
    assert state["pawns"] == ["e1", "e9"]
    assert state["fences"] == []
    assert state["walls_left"] == [10, 10]
    assert state["goals"] == ["row 9", "row 1"]
    assert match["to_move"] == [0] and state["last_move"] is None
    # alice's pawn can step left, right or up; every one of the 128 fences is free.
    pawn_moves = [m for m in match["legal_moves"] if len(m) == 2]
    assert sorted(pawn_moves) == ["d1", "e2", "f1"]
    assert len(match["legal_moves"]) == 3 + 128
    assert detail_for(bob, match)["legal_moves"] == []


def test_a_four_player_quoridor_room_starts_when_the_fourth_player_joins(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    response = alice.post("/api/rooms/", {"game": "quoridor", "options": {"players": 4}})
    assert response.status_code == 201, response.json()
    room = response.json()
    assert room["options"]["players"] == 4
    assert [s["username"] for s in room["seats"]] == ["alice", None, None, None]
    for guest, seated in ((bob, 2), (carol, 3)):
        joined = guest.post(f"/api/rooms/{room['id']}/join/").json()
        assert joined["status"] == "open" and joined["match"] is None
        assert sum(1 for s in joined["seats"] if s["username"]) == seated
    joined = dave.post(f"/api/rooms/{room['id']}/join/").json()
    assert joined["status"] == "playing" and joined["match"] is not None
    match = detail_for(alice, {"id": joined["match"]})
    assert [(p["seat"], p["username"]) for p in match["players"]] == [
        (0, "alice"), (1, "bob"), (2, "carol"), (3, "dave")]
    state = match["state"]
    assert state["pawns"] == FOUR_PLAYER_STARTS
    assert state["walls_left"] == [5, 5, 5, 5]
    assert state["goals"] == ["row 9", "column i", "row 1", "column a"]
    assert match["to_move"] == [0]
    for seat, player in enumerate((bob, carol, dave), start=1):
        seen = detail_for(player, match)
        assert seen["seat"] == seat and seen["legal_moves"] == []
    # A fifth person finds the room full.
    response = make_player("erin").post(f"/api/rooms/{room['id']}/join/")
    assert response.status_code == 409 and response.json()["code"] == "room_full"


def test_a_three_player_quoridor_room_is_refused(alice: Player) -> None:
    response = alice.post("/api/rooms/", {"game": "quoridor", "options": {"players": 3}})
    assert response.status_code == 400
    assert response.json()["code"] == "bad_options"
    assert "2 or 4" in response.json()["detail"]
    assert not Room.objects.exists()


# --- random games to the end ----------------------------------------------------------


@pytest.mark.parametrize("seed", [2, 0])
def test_a_random_two_player_quoridor_game_through_the_api_ends(
    alice: Player, bob: Player, seed: int
) -> None:
    match = start_match(alice, bob, "quoridor")
    final = random_playout([alice, bob], match, random.Random(seed), limit=1000)
    state = final["state"]
    results = final["result"]["results"]
    assert final["status"] == "finished"
    if "win" in results:
        winner = results.index("win")
        assert sorted(results) == ["loss", "win"]
        assert state["pawns"][winner] in state["goal_squares"][winner]
        assert final["result"]["reason"] == f"P{winner + 1} reached {state['goals'][winner]}"
    else:
        assert results == ["draw", "draw"]
        assert final["result"]["reason"] == "the same position occurred three times"
    assert sum(state["walls_left"]) + len(state["fences"]) == 20
    assert [m["move"] for m in state["moves"]] == [
        m["move"] for m in alice.get(f"/api/matches/{final['id']}/moves/").json()]
    response = play(alice, final, "e2")
    assert response.status_code == 409 and response.json()["code"] == "match_over"


@pytest.mark.parametrize("seed", [4])
def test_a_random_four_player_quoridor_game_through_the_api_ends(
    alice: Player, bob: Player, carol: Player, dave: Player, seed: int
) -> None:
    match, by_seat = four_player_match(alice, bob, carol, dave)
    final = random_playout(by_seat, match, random.Random(seed), limit=2000)
    results = final["result"]["results"]
    state = final["state"]
    assert len(results) == 4
    if "win" in results:
        winner = results.index("win")
        assert results.count("win") == 1 and results.count("loss") == 3
        assert state["pawns"][winner] in state["goal_squares"][winner]
    else:
        assert results == ["draw"] * 4
    assert sum(state["walls_left"]) + len(state["fences"]) == 20


@pytest.mark.parametrize("seed", [2, 3])
def test_a_random_eskimo_game_through_the_api_ends(alice: Player, bob: Player, seed: int) -> None:
    match = start_match(alice, bob, "eskimo")
    assert match["state"]["bear"] == "c3"
    assert match["state"]["pieces"] == [["a1", "b1", "c1", "d1", "e1"], ["a5", "b5", "c5", "d5", "e5"]]
    # Every legal move has a destination in the view, and nothing else does.
    assert set(match["state"]["destinations"]) == set(match["legal_moves"])
    final = random_playout([alice, bob], match, random.Random(seed), limit=400)
    results = final["result"]["results"]
    state = final["state"]
    if "win" in results:
        assert state["winner"] == results.index("win")
        assert final["result"]["reason"] == "the bear is trapped"
    else:
        assert results == ["draw", "draw"] and state["winner"] is None
    assert state["destinations"] == {}
    assert sorted(len(side) for side in state["pieces"]) == [5, 5]


# --- Quoridor: refused moves -------------------------------------------------------------


@pytest.mark.parametrize("move", ["z1", "e10", "e0", "e3x", "e3hv", "hello", "3e", "e-3", "e 3"])
def test_quoridor_refuses_unparseable_notation(alice: Player, bob: Player, move: str) -> None:
    match = start_match(alice, bob, "quoridor")
    detail = refused(alice, match, move, status=400, code="bad_notation")
    assert "Quoridor move" in detail or "not a" in detail


def test_quoridor_refuses_an_empty_move(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "quoridor")
    refused(alice, match, "", status=400, code="bad_notation")


def test_quoridor_refuses_overlapping_and_crossing_fences(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "quoridor")
    match = play_moves([alice, bob], match, ["e3h"])
    assert match["state"]["fences"] == ["e3h"]
    assert "d3h" not in match["legal_moves"] and "e3v" not in match["legal_moves"]
    refused(bob, match, "e3h", status=400, code="illegal_move", reason="already a fence at e3h")
    refused(bob, match, "d3h", status=400, code="illegal_move", reason="fence d3h overlaps fence e3h")
    refused(bob, match, "f3h", status=400, code="illegal_move", reason="fence f3h overlaps fence e3h")
    refused(bob, match, "e3v", status=400, code="illegal_move", reason="fence e3v crosses fence e3h")
    # Beside it, touching end to end, is fine.
    after = moved(bob, match, "g3h")
    assert after["state"]["fences"] == ["e3h", "g3h"]
    assert after["state"]["walls_left"] == [9, 9]


def test_quoridor_refuses_a_fence_that_sticks_out_of_the_board(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "quoridor")
    refused(alice, match, "i3h", status=400, code="illegal_move", reason="stick out of the board")
    refused(alice, match, "e9v", status=400, code="illegal_move", reason="stick out of the board")


def test_quoridor_refuses_a_fence_that_traps_a_pawn(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "quoridor")
    # Row 1 is walled off from a to h; the only way out for alice is column i.
    match = play_moves([alice, bob], match, ["a1h", "c1h", "e1h", "g1h"])
    assert "h1v" not in match["legal_moves"]
    refused(alice, match, "h1v", status=400, code="illegal_move", reason="would cut you off from your goal")
    match = play_moves([alice, bob], match, ["a8h"])
    refused(bob, match, "h1v", status=400, code="illegal_move", reason="would cut P1 off from its goal")


def test_quoridor_refuses_a_jump_over_two_pawns(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    match, by_seat = four_player_match(alice, bob, carol, dave)
    match = play_moves(by_seat, match, [
        "e2", "b5", "e8", "h5",
        "e3", "c5", "e7", "g5",
        "e4", "d5", "e6", "f5",
        "e5",
    ])
    # Row 5 now reads d5 bob, e5 alice, f5 dave: bob may not jump both.
    assert match["state"]["pawns"] == ["e5", "d5", "e6", "f5"]
    assert match["to_move"] == [1]
    refused(bob, match, "g5", status=400, code="illegal_move", reason="cannot jump over two pawns")
    refused(bob, match, "f5", status=400, code="illegal_move", reason="f5 is taken by P4's pawn")
    # A third pawn behind alice: bob may step around her; carol on e6 leaves only e4.
    assert "e4" in match["legal_moves"] and "e6" not in match["legal_moves"]
    refused(bob, match, "c6", status=400, code="illegal_move", reason="out of reach")


def test_quoridor_refuses_a_move_by_the_wrong_player(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    match = start_match(alice, bob, "quoridor")
    refused(bob, match, "e8", status=409, code="not_your_turn")
    four, by_seat = four_player_match(alice, bob, carol, dave)
    refused(carol, four, "e8", status=409, code="not_your_turn")
    four = play_moves(by_seat, four, ["e2"])
    refused(alice, four, "e3", status=409, code="not_your_turn")
    refused(dave, four, "h5", status=409, code="not_your_turn")


def test_quoridor_refuses_a_fence_when_none_are_left(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "quoridor")
    # Ten fences each, on rows 2..6 and out of everyone's way but still passable.
    fences = [f"{c}{r}h" for r in (2, 4, 6) for c in "aceg"] + [f"{c}7v" for c in "abcdefgh"]
    match = play_moves([alice, bob], match, fences[:20])
    assert match["state"]["walls_left"] == [0, 0]
    assert all(len(m) == 2 for m in match["legal_moves"])
    refused(alice, match, "a8h", status=400, code="illegal_move", reason="no fences left")


# --- Eskimo: refused moves ---------------------------------------------------------------


@pytest.mark.parametrize("move", ["c1", "c1ne", "c1-", "f1-n", "c6-n", "c1-up", "c1-nee", "-n", "c1--n"])
def test_eskimo_refuses_unparseable_notation(alice: Player, bob: Player, move: str) -> None:
    match = start_match(alice, bob, "eskimo")
    refused(alice, match, move, status=400, code="bad_notation")


@pytest.mark.parametrize(
    "move, reason",
    [
        ("a1-w", "cannot slide west: it is at the edge of the board"),
        ("a1-s", "cannot slide south: it is at the edge of the board"),
        ("a1-e", "cannot slide east: it is blocked (your piece is on b1)"),
        ("b1-e", "cannot slide east: it is blocked (your piece is on c1)"),
    ],
)
def test_eskimo_refuses_a_slide_of_zero_squares(alice: Player, bob: Player, move: str, reason: str) -> None:
    match = start_match(alice, bob, "eskimo")
    refused(alice, match, move, status=400, code="illegal_move", reason=reason)


def test_eskimo_refuses_moving_the_other_players_piece_or_an_empty_square(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "eskimo")
    refused(alice, match, "a5-s", status=400, code="illegal_move", reason="a5 is not your piece")
    refused(alice, match, "b2-n", status=400, code="illegal_move", reason="there is nothing on b2")


def test_eskimo_refuses_a_bear_move_while_the_bear_rests(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "eskimo")
    match = play_moves([alice, bob], match, ["c3-n"])
    assert match["state"]["bear"] == "c4" and match["state"]["cooldown"] == 4
    assert not any(m.startswith("c4-") for m in match["legal_moves"])
    refused(bob, match, "c4-s", status=400, code="illegal_move",
            reason="the bear cannot move for 4 more turns, this one included")
    # Four turns later (bob, alice, bob, alice) it is bob's turn and the bear may move.
    match = play_moves([alice, bob], match, ["a5-s", "e1-n"])
    assert match["state"]["cooldown"] == 2
    refused(bob, match, "c4-e", status=400, code="illegal_move", reason="2 more turns")
    match = play_moves([alice, bob], match, ["b5-sw"])
    refused(alice, match, "c4-e", status=400, code="illegal_move", reason="1 more turn,")
    match = play_moves([alice, bob], match, ["b1-n"])
    assert match["state"]["cooldown"] == 0
    assert "c4-e" in match["legal_moves"]
    after = moved(bob, match, "c4-e")
    assert after["state"]["bear"] == "d4" and after["state"]["cooldown"] == 4


def test_eskimo_refuses_the_bear_onto_a_piece_or_off_the_board(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "eskimo")
    match = play_moves([alice, bob], match, ["c1-n", "a5-s"])  # c1 slides up to c2, under the bear
    refused(alice, match, "c3-s", status=400, code="illegal_move",
            reason="the bear cannot move south: your piece is on c2")


def test_eskimo_refuses_a_move_by_the_wrong_player(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob, "eskimo")
    refused(bob, match, "a5-s", status=409, code="not_your_turn")
    match = play_moves([alice, bob], match, ["c1-ne"])
    refused(alice, match, "a1-n", status=409, code="not_your_turn")
