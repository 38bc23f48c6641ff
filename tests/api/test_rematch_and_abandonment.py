"""Rematch offers, leaving a table, abandoned games and claims (issue #11)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Match, Player as MatchPlayer, Room
from games.scheduler import Scheduler
from tests.conftest import Player, play, start_match

pytestmark = pytest.mark.django_db


def finished(host: Player, guest: Player, **options: Any) -> dict[str, Any]:
    match = start_match(host, guest, options=options or None)
    assert host.post(f"/api/matches/{match['id']}/resign/").status_code == 200
    return match


def test_a_rematch_is_offered_shown_and_starts_when_the_other_accepts(alice: Player, bob: Player) -> None:
    match = finished(alice, bob)
    offered = alice.post(f"/api/rooms/{match['room']}/rematch/")
    assert offered.status_code == 202
    offer = offered.json()["rematch"]
    assert (offer["offered_by"], offer["accepted"], offer["waiting_for"]) == ("alice", ["alice"], ["bob"])
    assert Match.objects.count() == 1, "nothing starts until everyone accepted"
    assert bob.get(f"/api/rooms/{match['room']}/").json()["rematch"]["waiting_for"] == ["bob"]
    again = alice.post(f"/api/rooms/{match['room']}/rematch/")
    assert again.status_code == 202, "offering twice is still one offer"
    accepted = bob.post(f"/api/rooms/{match['room']}/rematch/")
    assert accepted.status_code == 201 and accepted.json()["number"] == 2
    assert alice.get(f"/api/rooms/{match['room']}/").json()["rematch"] is None


def test_a_declined_offer_is_gone_and_says_who_declined(alice: Player, bob: Player) -> None:
    match = finished(alice, bob)
    alice.post(f"/api/rooms/{match['room']}/rematch/")
    declined = bob.post(f"/api/rooms/{match['room']}/rematch/decline/")
    assert declined.status_code == 200 and declined.json()["rematch"] == {"declined_by": "bob"}
    again = bob.post(f"/api/rooms/{match['room']}/rematch/decline/")
    assert again.status_code == 409 and again.json()["code"] == "no_offer"
    # A new offer can be made; it starts over.
    renewed = bob.post(f"/api/rooms/{match['room']}/rematch/").json()["rematch"]
    assert (renewed["offered_by"], renewed["waiting_for"]) == ("bob", ["alice"])


def test_an_offer_lapses_after_a_while(alice: Player, bob: Player) -> None:
    match = finished(alice, bob)
    alice.post(f"/api/rooms/{match['room']}/rematch/")
    room = Room.objects.get(pk=match["room"])
    room.rematch = {**room.rematch, "expires_at": (timezone.now() - timedelta(seconds=1)).isoformat()}
    room.save()
    assert bob.get(f"/api/rooms/{match['room']}/").json()["rematch"] is None
    # Bob's request now is a new offer, not an acceptance of the lapsed one.
    response = bob.post(f"/api/rooms/{match['room']}/rematch/")
    assert response.status_code == 202 and response.json()["rematch"]["waiting_for"] == ["alice"]


def test_leaving_after_a_match_ends_the_offer_and_opens_the_seat(alice: Player, bob: Player, carol: Player) -> None:
    match = finished(alice, bob)
    alice.post(f"/api/rooms/{match['room']}/rematch/")
    left = bob.post(f"/api/rooms/{match['room']}/leave/")
    assert left.status_code == 200
    room = left.json()
    assert room["status"] == "open" and room["rematch"] is None
    refused = alice.post(f"/api/rooms/{match['room']}/rematch/")
    assert refused.status_code == 409 and refused.json()["code"] == "seat_free"
    joined = carol.post(f"/api/rooms/{match['room']}/join/").json()
    second = Match.objects.get(pk=joined["match"])
    assert second.number == 2 and {p.user.username for p in second.players.all()} == {"alice", "carol"}


def test_leaving_during_a_match_is_still_refused(c4_match: dict[str, Any], bob: Player) -> None:
    response = bob.post(f"/api/rooms/{c4_match['room']}/leave/")
    assert response.status_code == 409 and response.json()["code"] == "match_started"


# --- abandonment ---------------------------------------------------------------


def away(*players: Player) -> None:
    User.objects.filter(pk__in=[p.user.pk for p in players]).update(last_seen=timezone.now() - timedelta(minutes=5))


def here(*players: Player) -> None:
    User.objects.filter(pk__in=[p.user.pk for p in players]).update(last_seen=timezone.now())


def time_runs_out(match_id: int) -> None:
    Match.objects.filter(pk=match_id).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert Scheduler().tick() >= 1


def seats_of(match: dict[str, Any], *people: Player) -> dict[str, int]:
    names = {p.username for p in people}
    return {p["username"]: p["seat"] for p in match["players"] if p["username"] in names}


def timed_game(host: Player, guest: Player) -> tuple[dict[str, Any], Player, Player]:
    """A timed Connect Four game; returns it with (the player to move first, the other)."""
    match = start_match(host, guest, options={"turn_seconds": 30})
    first = host if match["players"][0]["username"] == host.username else guest
    return match, first, (guest if first is host else host)


def test_two_turns_run_out_with_the_player_away_and_the_other_wins(alice: Player, bob: Player) -> None:
    match, first, second = timed_game(alice, bob)
    away(second)
    here(first)
    detail = play(first, match, "4").json()
    time_runs_out(match["id"])  # the second player's first turn runs out
    detail = first.get(f"/api/matches/{match['id']}/").json()
    assert detail["status"] == "active"
    assert play(first, detail, "4").status_code == 201
    time_runs_out(match["id"])  # and their second: they are gone
    final = first.get(f"/api/matches/{match['id']}/").json()
    assert final["status"] == "finished"
    seat = seats_of(final, second)[second.username]
    assert final["result"]["results"][seat] == "loss" and final["result"]["abandoned"] == seat
    assert "left" in final["result"]["reason"]
    assert next(p for p in final["players"] if p["seat"] == seat)["abandoned"] is True
    assert final["turn_deadline"] is None


def test_a_player_who_left_before_the_game_had_begun_aborts_it(alice: Player, bob: Player) -> None:
    match, first, second = timed_game(alice, bob)
    away(first)
    time_runs_out(match["id"])  # the first player never moves
    detail = second.get(f"/api/matches/{match['id']}/").json()
    assert play(second, detail, "3").status_code == 201
    time_runs_out(match["id"])
    final = second.get(f"/api/matches/{match['id']}/").json()
    assert final["status"] == "aborted" and "aborted" in final["result"]["reason"]


def test_a_player_whose_socket_is_open_is_slow_not_gone(alice: Player, bob: Player) -> None:
    match, first, second = timed_game(alice, bob)
    here(first, second)
    play(first, match, "4")
    time_runs_out(match["id"])
    detail = first.get(f"/api/matches/{match['id']}/").json()
    play(first, detail, "4")
    time_runs_out(match["id"])
    detail = first.get(f"/api/matches/{match['id']}/").json()
    assert detail["status"] == "active"
    assert MatchPlayer.objects.get(match_id=match["id"], user=second.user).timeouts_in_a_row == 2


def test_a_move_of_ones_own_starts_the_count_again(alice: Player, bob: Player) -> None:
    match, first, second = timed_game(alice, bob)
    away(second)
    play(first, match, "4")
    time_runs_out(match["id"])
    detail = first.get(f"/api/matches/{match['id']}/").json()
    play(first, detail, "4")
    detail = second.get(f"/api/matches/{match['id']}/").json()
    assert play(second, detail, "3").status_code == 201  # back just in time
    assert MatchPlayer.objects.get(match_id=match["id"], user=second.user).timeouts_in_a_row == 0


def test_in_a_four_player_game_an_ai_takes_the_abandoned_seat(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    room = alice.post("/api/rooms/", {"game": "quoridor", "options": {"players": 4, "turn_seconds": 30}}).json()
    for person in (bob, carol, dave):
        person.post(f"/api/rooms/{room['id']}/join/")
    match_id = alice.get(f"/api/rooms/{room['id']}/").json()["match"]
    detail = alice.get(f"/api/matches/{match_id}/").json()
    people = {p.username: p for p in (alice, bob, carol, dave)}
    gone = people[next(p["username"] for p in detail["players"] if p["seat"] == 0)]
    away(gone)
    here(*[p for p in people.values() if p is not gone])
    for _ in range(2):
        time_runs_out(match_id)  # the gone player's turn runs out
        for _ in range(3):  # the three others move
            detail = alice.get(f"/api/matches/{match_id}/").json()
            (seat,) = detail["to_move"]
            mover = people[next(p["username"] for p in detail["players"] if p["seat"] == seat)]
            if mover is gone:
                break
            mine = mover.get(f"/api/matches/{match_id}/").json()
            assert play(mover, mine, mine["legal_moves"][0]).status_code == 201
    detail = alice.get(f"/api/matches/{match_id}/").json()
    seat = next(p for p in detail["players"] if p["username"] == gone.username)
    assert detail["status"] == "active"
    assert seat["abandoned"] and seat["resigned"] and seat["bot"] == "random"


# --- claims ----------------------------------------------------------------------


def test_in_an_untimed_game_the_other_may_claim_once_the_player_to_move_is_away(alice: Player, bob: Player) -> None:
    match = start_match(alice, bob)
    first = alice if match["players"][0]["username"] == "alice" else bob
    second = bob if first is alice else alice
    play(first, match, "4")
    play(second, second.get(f"/api/matches/{match['id']}/").json(), "4")
    detail = play(first, first.get(f"/api/matches/{match['id']}/").json(), "3").json()
    # Second is to move; still here: no claim.
    here(second)
    refused = first.post(f"/api/matches/{match['id']}/claim/")
    assert refused.status_code == 409 and refused.json()["code"] == "opponent_present"
    assert detail["claim_after"] is not None
    mine = second.post(f"/api/matches/{match['id']}/claim/")
    assert mine.status_code == 409 and mine.json()["code"] == "not_claimable"
    # Away, and the turn has lasted over a minute.
    away(second)
    Match.objects.filter(pk=match["id"]).update(updated_at=timezone.now() - timedelta(minutes=2))
    claimed = first.post(f"/api/matches/{match['id']}/claim/")
    assert claimed.status_code == 200
    final = claimed.json()
    assert final["status"] == "finished"
    assert final["result"]["results"][seats_of(final, first)[first.username]] == "win"


def test_timed_games_take_no_claims(alice: Player, bob: Player) -> None:
    match, first, second = timed_game(alice, bob)
    play(first, match, "4")
    away(second)
    response = first.post(f"/api/matches/{match['id']}/claim/")
    assert response.status_code == 409 and response.json()["code"] == "timed_game"
    assert match["claim_after"] is None
