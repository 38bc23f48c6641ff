"""Quick pairing through the REST API: seeking, pairing, cancelling, expiry, bad input."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Match, Room
from matchmaking import services
from matchmaking.models import Seek
from ratings.models import Rating
from tests.conftest import Player, make_player

pytestmark = pytest.mark.django_db


def seek(player: Player, **request: Any) -> Any:
    return player.post("/api/seeks/", {"game": "connect-four", **request})


def test_a_lone_seek_waits(alice: Player) -> None:
    response = seek(alice)
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "waiting" and body["room"] is None and body["match"] is None
    assert (body["game"], body["players"], body["pool"], body["rated"]) == ("connect-four", 2, "connect-four", True)
    assert set(body) >= {"id", "game", "players", "rated", "status", "room", "match", "created_at"}


def test_two_seeks_of_one_pool_are_paired_at_once_into_a_rated_match(alice: Player, bob: Player) -> None:
    first = seek(alice).json()
    second = seek(bob).json()
    assert second["status"] == "paired"
    assert second["room"] and second["match"]
    again = alice.get(f"/api/seeks/{first['id']}/").json()
    assert again["status"] == "paired" and (again["room"], again["match"]) == (second["room"], second["match"])
    match = alice.get(f"/api/matches/{second['match']}/").json()
    assert match["status"] == "active" and match["rated"] is True
    assert sorted(p["username"] for p in match["players"]) == ["alice", "bob"]
    room = Room.objects.get(pk=second["room"])
    assert room.options["rated"] is True and room.pool == "connect-four"


def test_a_second_seek_in_the_same_pool_is_refused(alice: Player) -> None:
    seek(alice)
    response = seek(alice)
    assert response.status_code == 409 and response.json()["code"] == "already_seeking"
    assert Seek.objects.count() == 1


def test_seeks_pair_only_with_the_same_options_and_rated_flag(alice: Player, bob: Player, carol: Player) -> None:
    seek(alice, options={"turn_seconds": 30})
    assert seek(bob, options={"turn_seconds": 60}).json()["status"] == "waiting"
    assert seek(carol, rated=False, options={"turn_seconds": 30}).json()["status"] == "waiting"
    assert not Match.objects.exists()


def test_closest_ratings_are_paired_first(alice: Player, bob: Player, carol: Player, dave: Player) -> None:
    for player, rating in ((alice, 1500), (bob, 1900), (carol, 1520), (dave, 1880)):
        Rating.objects.create(user=player.user, pool="connect-four", rating=rating, deviation=60)
    assert [seek(p).json()["status"] for p in (alice, bob)] == ["waiting", "waiting"]
    carol_seek = seek(carol).json()
    dave_seek = seek(dave).json()
    pairs = {
        frozenset(Match.objects.get(pk=s["match"]).players.values_list("user__username", flat=True))
        for s in (carol_seek, dave_seek)
    }
    assert pairs == {frozenset({"alice", "carol"}), frozenset({"bob", "dave"})}


def test_a_wide_gap_waits_until_the_window_has_grown(alice: Player, bob: Player) -> None:
    Rating.objects.create(user=alice.user, pool="connect-four", rating=1200, deviation=60)
    Rating.objects.create(user=bob.user, pool="connect-four", rating=2000, deviation=60)
    first = seek(alice).json()
    assert seek(bob).json()["status"] == "waiting"
    # Time passes: both seeks have waited long, and their players are still there.
    long_ago = timezone.now() - timedelta(minutes=5)
    Seek.objects.update(created_at=long_ago)
    services.seeks_seen(alice.user.pk)
    services.seeks_seen(bob.user.pk)
    assert services.pairing_pass() == 1
    assert alice.get(f"/api/seeks/{first['id']}/").json()["status"] == "paired"


def test_a_seek_whose_player_went_away_expires_and_is_never_paired(alice: Player, bob: Player) -> None:
    first = seek(alice).json()
    Seek.objects.filter(pk=first["id"]).update(last_seen=timezone.now() - timedelta(seconds=services.SEEN_SECONDS + 1))
    assert services.pairing_pass() == 0
    assert seek(bob).json()["status"] == "waiting"
    gone = Seek.objects.get(pk=first["id"])
    assert (gone.status, gone.reason) == ("cancelled", "expired")


def test_polling_a_seek_keeps_it_alive(alice: Player, bob: Player) -> None:
    first = seek(alice).json()
    Seek.objects.filter(pk=first["id"]).update(last_seen=timezone.now() - timedelta(seconds=services.SEEN_SECONDS - 5))
    alice.get(f"/api/seeks/{first['id']}/")
    assert Seek.objects.get(pk=first["id"]).last_seen > timezone.now() - timedelta(seconds=5)
    assert seek(bob).json()["status"] == "paired"


def test_cancelling_stops_the_wait_and_is_404_for_someone_elses(alice: Player, bob: Player) -> None:
    first = seek(alice).json()
    assert bob.client.delete(f"/api/seeks/{first['id']}/").status_code == 404
    assert alice.client.delete(f"/api/seeks/{first['id']}/").status_code == 204
    cancelled = alice.get(f"/api/seeks/{first['id']}/").json()
    assert (cancelled["status"], cancelled["reason"]) == ("cancelled", "cancelled")
    assert seek(bob).json()["status"] == "waiting"
    assert seek(alice).status_code == 201, "a cancelled seek frees the pool for a new one"


def test_cancelling_a_paired_seek_is_refused_with_its_room(alice: Player, bob: Player) -> None:
    first = seek(alice).json()
    paired = seek(bob).json()
    response = alice.client.delete(f"/api/seeks/{first['id']}/")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "already_paired" and (body["room"], body["match"]) == (paired["room"], paired["match"])


def test_my_seeks_are_listed_newest_first(alice: Player, bob: Player) -> None:
    seek(alice)
    seek(alice, game="eskimo")
    listed = alice.get("/api/seeks/").json()["results"]
    assert [s["game"] for s in listed] == ["eskimo", "connect-four"]
    assert bob.get("/api/seeks/").json()["results"] == []


def test_being_paired_ends_the_players_other_seeks(alice: Player, bob: Player) -> None:
    other = seek(alice, game="eskimo").json()
    seek(alice)
    seek(bob)
    ended = alice.get(f"/api/seeks/{other['id']}/").json()
    assert (ended["status"], ended["reason"]) == ("cancelled", "paired_elsewhere")


def test_four_player_pools_gather_four(alice: Player, bob: Player, carol: Player, dave: Player) -> None:
    results = [seek(p, game="quoridor", players=4).json() for p in (alice, bob, carol)]
    assert all(r["status"] == "waiting" and r["pool"] == "quoridor-4" for r in results)
    last = seek(dave, game="quoridor", players=4).json()
    assert last["status"] == "paired"
    assert Match.objects.get(pk=last["match"]).players.filter(user__isnull=False).count() == 4


def test_a_seek_may_ask_for_ai_seats_after_a_wait_and_that_game_is_unrated(alice: Player) -> None:
    first = seek(alice, fill_with_ai_after=5).json()
    assert first["status"] == "waiting"
    Seek.objects.update(created_at=timezone.now() - timedelta(seconds=6))
    assert services.pairing_pass() == 1
    paired = alice.get(f"/api/seeks/{first['id']}/").json()
    assert paired["status"] == "paired"
    match = alice.get(f"/api/matches/{paired['match']}/").json()
    assert match["rated"] is False
    assert [p["bot"] is not None for p in match["players"]].count(True) == 1


@pytest.mark.parametrize(
    "request_body, code",
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": 7}, "unknown_game"),
        ({"game": "sokoban"}, "no_ratings"),
        ({"game": "quoridor", "players": 3}, "bad_options"),
        ({"game": "connect-four", "players": "two"}, "bad_options"),
        ({"game": "connect-four", "options": {"columns": 99}}, "bad_options"),
        ({"game": "connect-four", "options": {"no_such": 1}}, "bad_options"),
        ({"game": "connect-four", "options": []}, "bad_options"),
        ({"game": "connect-four", "fill_with_ai_after": -1}, "invalid"),
        ({"game": "connect-four", "fill_with_ai_after": True}, "invalid"),
        ({"game": "connect-four", "rated": "yes"}, "invalid"),
    ],
)
def test_bad_seeks_are_refused_and_nothing_is_stored(alice: Player, request_body: dict[str, Any], code: str) -> None:
    response = alice.post("/api/seeks/", request_body)
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code and response.json()["detail"]
    assert not Seek.objects.exists()


def test_seeking_needs_a_login(anonymous: Any) -> None:
    response = anonymous.post("/api/seeks/", {"game": "connect-four"}, format="json")
    assert response.status_code in (401, 403) and response.json()["code"] == "not_authenticated"


def test_a_pairing_never_seats_anyone_twice_across_many_seekers(db: Any) -> None:
    people = [make_player(f"p{i}") for i in range(9)]
    bodies = [seek(person).json() for person in people]
    paired = [b for b in bodies if b["status"] == "paired"]
    matches = Match.objects.all()
    assert matches.count() == 4
    seated = [p.user_id for m in matches for p in m.players.all()]
    assert len(seated) == len(set(seated)) == 8
    assert Seek.objects.filter(status="waiting").count() == 1
    assert len(paired) == 4
