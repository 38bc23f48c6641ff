"""Rated games end to end: what is rated, the numbers, player pages and leaderboards."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Match
from ratings.models import Rating
from tests.conftest import Player, play, start_match

pytestmark = pytest.mark.django_db


def rated_match(host: Player, guest: Player, game: str = "connect-four", **options: Any) -> dict[str, Any]:
    return start_match(host, guest, game, {"rated": True, **options})


def play_columns(match: dict[str, Any], seats: dict[int, Player], columns: str) -> dict[str, Any]:
    detail = match
    for column in columns:
        (seat,) = detail["to_move"]
        response = play(seats[seat], detail, column)
        assert response.status_code == 201, response.json()
        detail = response.json()
    return detail


def seats_of(match: dict[str, Any], *people: Player) -> dict[int, Player]:
    by_name = {p.username: p for p in people}
    return {p["seat"]: by_name[p["username"]] for p in match["players"]}


def test_a_won_rated_game_moves_two_new_players_to_1662_and_1338(alice: Player, bob: Player) -> None:
    match = rated_match(alice, bob)
    assert match["rated"] is True
    seats = seats_of(match, alice, bob)
    final = play_columns(match, seats, "1212121")
    assert final["status"] == "finished"
    winner = seats[final["result"]["results"].index("win")]
    loser = alice if winner is bob else bob
    changes = {c["username"]: c for c in final["result"]["ratings"]}
    assert (changes[winner.username]["before"], changes[winner.username]["after"]) == (1500, 1662)
    assert (changes[loser.username]["after"], changes[loser.username]["change"]) == (1338, -162)
    assert Rating.objects.get(user=winner.user, pool="connect-four").rating == pytest.approx(1662.3, abs=0.05)
    assert Rating.objects.get(user=loser.user, pool="connect-four").rating == pytest.approx(1337.7, abs=0.05)
    page = alice.get(f"/api/players/{winner.username}/").json()
    assert page["ratings"]["connect-four"] == {"rating": 1662, "deviation": 290, "games": 1, "provisional": True}
    assert page["record"]["connect-four"] == {"win": 1, "draw": 0, "loss": 0}
    history = alice.get(f"/api/players/{loser.username}/ratings/connect-four/").json()
    assert [(h["match"], h["rating"]) for h in history] == [(match["id"], 1338)]


def test_the_players_are_shown_with_the_ratings_they_started_with(alice: Player, bob: Player) -> None:
    Rating.objects.create(user=alice.user, pool="connect-four", rating=1712.4, deviation=80)
    match = rated_match(alice, bob)
    ratings = {p["username"]: p["rating"] for p in match["players"]}
    assert ratings == {"alice": 1712, "bob": 1500}


def test_a_resignation_before_each_side_has_moved_aborts_the_game_unrated(alice: Player, bob: Player) -> None:
    match = rated_match(alice, bob)
    seats = seats_of(match, alice, bob)
    detail = play_columns(match, seats, "4")
    second = seats[detail["to_move"][0]]
    response = second.post(f"/api/matches/{match['id']}/resign/")
    assert response.status_code == 200
    assert response.json()["status"] == "aborted"
    assert "ratings" not in (response.json()["result"] or {})
    assert not Rating.objects.exists()


def test_resigning_a_rated_game_loses_rating(alice: Player, bob: Player) -> None:
    match = rated_match(alice, bob)
    seats = seats_of(match, alice, bob)
    play_columns(match, seats, "44")
    final = alice.post(f"/api/matches/{match['id']}/resign/").json()
    assert final["status"] == "finished"
    changes = {c["username"]: c["change"] for c in final["result"]["ratings"]}
    assert changes["alice"] < 0 < changes["bob"]


def test_a_room_with_an_ai_seat_is_never_rated(alice: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "connect-four", "options": {"rated": True}}).json()
    match = alice.post(f"/api/rooms/{room['id']}/start/").json()
    assert match["rated"] is False


def test_casual_games_change_no_rating(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob)
    assert match["rated"] is False
    final = play_columns(match, seats_of(match, alice, bob), "1212121")
    assert final["status"] == "finished" and "ratings" not in final["result"]
    assert not Rating.objects.exists()


def test_a_game_without_ratings_cannot_be_rated(alice: Player) -> None:
    response = alice.post("/api/rooms/", {"game": "sokoban", "options": {"rated": True}})
    assert response.status_code == 400 and response.json()["code"] == "bad_options"


def test_four_player_games_are_rated_by_places(alice: Player, bob: Player, carol: Player, dave: Player) -> None:
    import random

    room = alice.post("/api/rooms/", {"game": "quoridor", "options": {"players": 4, "rated": True}}).json()
    for person in (bob, carol, dave):
        person.post(f"/api/rooms/{room['id']}/join/")
    people = {p.username: p for p in (alice, bob, carol, dave)}
    match_id = alice.get(f"/api/rooms/{room['id']}/").json()["match"]
    rng = random.Random(5)
    for _ in range(3000):
        detail = alice.get(f"/api/matches/{match_id}/").json()
        if detail["status"] != "active":
            break
        (seat,) = detail["to_move"]
        mover = people[next(p["username"] for p in detail["players"] if p["seat"] == seat)]
        mine = mover.get(f"/api/matches/{match_id}/").json()
        # Pawn moves mostly, so the game ends in reasonable time.
        pawn_moves = [m for m in mine["legal_moves"] if len(m) == 2] or mine["legal_moves"]
        assert play(mover, mine, rng.choice(pawn_moves)).status_code == 201
    assert detail["status"] == "finished"
    places = detail["result"]["places"]
    changes = {c["seat"]: c["change"] for c in detail["result"]["ratings"]}
    winner = places.index(1)
    assert changes[winner] > 0 and all(changes[s] < 0 for s in range(4) if s != winner)
    assert sorted(Rating.objects.filter(pool="quoridor-4").values_list("games", flat=True)) == [1, 1, 1, 1]


def test_the_leaderboard_ranks_established_ratings_only(alice: Player, bob: Player, carol: Player) -> None:
    Rating.objects.create(user=alice.user, pool="eskimo", rating=1800, deviation=80, games=30)
    Rating.objects.create(user=bob.user, pool="eskimo", rating=1900, deviation=200, games=2)
    Rating.objects.create(user=carol.user, pool="eskimo", rating=1650, deviation=70, games=40)
    board = alice.get("/api/leaderboards/eskimo/").json()
    assert [(row["rank"], row["username"], row["rating"]) for row in board] == [(1, "alice", 1800), (2, "carol", 1650)]


def test_unknown_pools_and_players_are_refused(alice: Player) -> None:
    for url in ("/api/leaderboards/chess/", "/api/leaderboards/sokoban/", "/api/players/alice/ratings/nope/"):
        response = alice.get(url)
        assert response.status_code == 400 and response.json()["code"] == "unknown_pool", url
    response = alice.get("/api/players/nobody/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_player_page_lists_every_pool_and_their_finished_games(alice: Player, bob: Player) -> None:
    page = bob.get("/api/players/alice/").json()
    assert set(page["ratings"]) == {"connect-four", "quoridor", "quoridor-4", "eskimo", "manhattan"}
    assert page["ratings"]["eskimo"] == {"rating": 1500, "deviation": 350, "games": 0, "provisional": True}
    assert page["username"] == "alice" and page["joined"]
    match = start_match(alice, bob)
    play_columns(match, seats_of(match, alice, bob), "1212121")
    start_match(alice, bob)  # still on: not listed
    finished = bob.get("/api/players/alice/matches/").json()["results"]
    assert [m["id"] for m in finished] == [match["id"]]
    assert bob.get("/api/players/alice/matches/?game=eskimo").json()["results"] == []
    assert Match.objects.count() == 2
