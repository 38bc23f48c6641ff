"""AI seats and turn timers: platform features every game can use."""

from __future__ import annotations

import random
from concurrent.futures import Executor, Future
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Match, Move
from games.scheduler import Scheduler
from tests.conftest import Player, play

pytestmark = pytest.mark.django_db


def start_against_bots(host: Player, game: str = "connect-four", **options: Any) -> dict[str, Any]:
    room = host.post("/api/rooms/", {"game": game, "options": options}).json()
    response = host.post(f"/api/rooms/{room['id']}/start/")
    assert response.status_code == 201, response.json()
    return dict(response.json())


def test_the_host_starts_with_free_seats_as_ai_seats(alice: Player) -> None:
    match = start_against_bots(alice, ai="random")
    assert match["players"] == [
        {"seat": 0, "username": "alice", "name": "alice", "bot": None, "resigned": False, "abandoned": False,
         "rating": 1500},
        {"seat": 1, "username": None, "name": None, "bot": "random", "resigned": False, "abandoned": False,
         "rating": None},
    ]
    room = alice.get(f"/api/rooms/{match['room']}/").json()
    assert room["status"] == "playing"
    assert room["seats"][1] == {
        "seat": 1, "username": None, "name": None, "bot": "random", "rating": None, "provisional": None
    }


def test_a_bot_answers_each_move_when_the_scheduler_runs(alice: Player) -> None:
    match = start_against_bots(alice, ai="random")
    assert Scheduler().tick() == 0  # alice moves first: nothing for a bot to do
    assert play(alice, match, "4").status_code == 201
    assert Match.objects.get().bot_turn
    assert Scheduler().tick() == 1
    detail = alice.get(f"/api/matches/{match['id']}/").json()
    assert detail["version"] == 2 and detail["to_move"] == [0]
    moves = alice.get(f"/api/matches/{match['id']}/moves/").json()
    assert [m["made_by"] for m in moves] == ["player", "bot"]
    assert moves[1]["username"] is None
    assert moves[1]["text"].startswith("dropped a disc in column")


def test_the_perfect_bot_beats_a_player_who_fills_columns_left_to_right(alice: Player) -> None:
    match = start_against_bots(alice, ai="perfect")
    detail = match
    for _ in range(21):
        if detail["status"] != "active":
            break
        column = next(m for m in ["1", "2", "3", "5", "6", "7", "4"] if m in detail["legal_moves"])
        detail = play(alice, detail, column).json()
        Scheduler().tick()
        detail = alice.get(f"/api/matches/{match['id']}/").json()
    assert detail["status"] == "finished"
    assert detail["result"]["results"] == ["loss", "win"]


def test_a_rematch_against_a_bot_lets_the_bot_open(alice: Player) -> None:
    match = start_against_bots(alice)
    alice.post(f"/api/matches/{match['id']}/resign/")
    second = alice.post(f"/api/rooms/{match['room']}/rematch/").json()
    assert second["players"][0]["bot"] == "random"
    assert Scheduler().tick() == 1
    assert alice.get(f"/api/matches/{second['id']}/").json()["to_move"] == [1]


def test_only_the_host_may_start(alice: Player, bob: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    response = bob.post(f"/api/rooms/{room['id']}/start/")
    assert response.status_code == 403
    assert response.json()["code"] == "not_host"
    assert not Match.objects.exists()


def test_a_started_room_cannot_start_again(alice: Player) -> None:
    match = start_against_bots(alice)
    response = alice.post(f"/api/rooms/{match['room']}/start/")
    assert response.status_code == 409 and response.json()["code"] == "already_started"


def test_a_room_everyone_left_cannot_start(alice: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "connect-four"}).json()
    alice.post(f"/api/rooms/{room['id']}/leave/")
    response = alice.post(f"/api/rooms/{room['id']}/start/")
    assert response.status_code == 409 and response.json()["code"] == "room_closed"


@pytest.mark.parametrize("options", [{"ai": "grandmaster"}, {"turn_seconds": -1}, {"turn_seconds": "60"}])
def test_bad_platform_options_are_refused(alice: Player, options: dict[str, Any]) -> None:
    response = alice.post("/api/rooms/", {"game": "connect-four", "options": options})
    assert response.status_code == 400 and response.json()["code"] == "bad_options"


def test_the_catalogue_offers_the_platform_options(anonymous: Any) -> None:
    games = {g["slug"]: g for g in anonymous.get("/api/games/").json()}
    options = {o["name"]: o for o in games["connect-four"]["options"]}
    assert options["turn_seconds"]["default"] == 0
    assert "perfect" in options["ai"]["choices"]


def expire(match_id: int) -> None:
    Match.objects.filter(pk=match_id).update(turn_deadline=timezone.now() - timedelta(seconds=1))


def test_a_turn_sets_a_deadline_from_the_room_option(alice: Player, bob: Player) -> None:
    from tests.conftest import start_match

    match = start_match(alice, bob, options={"turn_seconds": 30})
    assert match["turn_deadline"] is not None
    left = Match.objects.get().turn_deadline - timezone.now()
    assert timedelta(seconds=28) < left <= timedelta(seconds=30)
    detail = play(alice, match, "4").json()
    assert detail["turn_deadline"] != match["turn_deadline"]


def test_an_expired_turn_gets_a_random_legal_move(alice: Player, bob: Player) -> None:
    from tests.conftest import start_match

    match = start_match(alice, bob, options={"turn_seconds": 30})
    expire(match["id"])
    assert Scheduler().tick() == 1
    move = Move.objects.get()
    assert move.seat == 0 and move.made_by == "timeout"
    assert move.notation in [str(c) for c in range(1, 8)]
    detail = bob.get(f"/api/matches/{match['id']}/").json()
    assert detail["to_move"] == [1] and detail["version"] == 1


def test_a_move_after_the_deadline_is_refused(alice: Player, bob: Player) -> None:
    from tests.conftest import start_match

    match = start_match(alice, bob, options={"turn_seconds": 30})
    expire(match["id"])
    response = play(alice, match, "4")
    assert response.status_code == 409
    assert response.json()["code"] == "turn_expired"
    assert not Move.objects.exists()


def test_no_deadline_without_a_time_limit(c4_match: dict[str, Any]) -> None:
    assert c4_match["turn_deadline"] is None
    assert Scheduler().tick() == 0


def test_a_late_bot_answer_is_dropped(alice: Player) -> None:
    from games import services

    match = start_against_bots(alice)
    play(alice, match, "4")
    # The bot thought about version 1, but the turn timed out and moved on meanwhile.
    expire(match["id"])
    assert services.turn_timeout(match_id=match["id"])
    assert not services.bot_play(match_id=match["id"], version=1, seat=1, move="4")
    assert Move.objects.count() == 2


def test_manhattan_rooms_are_timed_by_default_and_by_the_players_setting(alice: Player) -> None:
    room = alice.post("/api/rooms/", {"game": "manhattan"}).json()
    assert room["options"]["turn_seconds"] == 60
    alice.client.patch("/api/auth/me/", {"preferences": {"default_turn_seconds": 90}}, format="json")
    assert alice.post("/api/rooms/", {"game": "manhattan"}).json()["options"]["turn_seconds"] == 90
    chosen = alice.post("/api/rooms/", {"game": "manhattan", "options": {"turn_seconds": 0}}).json()
    assert chosen["options"]["turn_seconds"] == 0
    # Untimed games stay untimed whatever the player's default.
    assert alice.post("/api/rooms/", {"game": "connect-four"}).json()["options"]["turn_seconds"] == 0


def test_one_player_against_three_ai_seats_plays_a_whole_manhattan_game(alice: Player) -> None:
    match = start_against_bots(alice, game="manhattan", ai="strong", turn_seconds=0)
    assert sum(1 for p in match["players"] if p["bot"] == "strong") == 3
    import random

    rng = random.Random(5)
    for _ in range(400):
        while Scheduler().tick():
            pass
        detail = alice.get(f"/api/matches/{match['id']}/").json()
        if detail["status"] != "active":
            break
        assert detail["legal_moves"], "after the bots have moved it is alice's turn"
        assert play(alice, detail, rng.choice(detail["legal_moves"])).status_code == 201
    assert detail["status"] == "finished"
    assert len(detail["result"]["scores"]) == 4
    made_by = {m["made_by"] for m in alice.get(f"/api/matches/{match['id']}/moves/").json()}
    assert made_by == {"player", "bot"}


@pytest.mark.parametrize("failure", ["crash", "illegal"])
def test_a_broken_bot_falls_back_to_a_random_legal_move(alice: Player, monkeypatch: Any, failure: str) -> None:
    from games.engines.base import BotLevel
    from games.engines.registry import get_engine

    def broken(engine: Any, state: Any, seat: int, rng: Any) -> str:
        if failure == "crash":
            raise RuntimeError("the bot fell over")
        return "9"  # no such column

    engine = get_engine("connect-four")
    monkeypatch.setattr(engine, "bot_levels", lambda: (BotLevel("random", "broken on purpose", broken),))
    match = start_against_bots(alice)
    play(alice, match, "4")
    assert Scheduler().tick() == 1
    bot_move = Move.objects.get(ply=2)
    assert bot_move.made_by == "bot" and bot_move.notation in [str(c) for c in range(1, 8)]


def test_resigning_from_four_player_quoridor_hands_the_seat_to_an_ai(
    alice: Player, bob: Player, carol: Player, dave: Player
) -> None:
    room = alice.post("/api/rooms/", {"game": "quoridor", "options": {"players": 4, "ai": "random"}}).json()
    for person in (bob, carol, dave):
        person.post(f"/api/rooms/{room['id']}/join/")
    match_id = alice.get(f"/api/rooms/{room['id']}/").json()["match"]
    resigned = bob.post(f"/api/matches/{match_id}/resign/")
    assert resigned.status_code == 200
    detail = resigned.json()
    assert detail["status"] == "active", "the other three play on"
    bob_seat = next(p for p in detail["players"] if p["username"] == "bob")
    assert bob_seat["resigned"] and bob_seat["bot"] == "random"
    again = bob.post(f"/api/matches/{match_id}/resign/")
    assert again.status_code == 409 and again.json()["code"] == "resigned"
    # Play on: the scheduler moves at random for bob's seat; the people walk
    # their shortest paths (the easy AI's choice), so the match ends within a
    # few dozen plies whatever its seed. People moving at random made the
    # length a random walk's: about one match in twenty ran past 600 plies.
    from games.engines.registry import get_engine
    from games.selectors import match_state

    quoridor = get_engine("quoridor")
    rng = random.Random(3)
    people = {p.username: p for p in (alice, carol, dave)}
    for _ in range(600):
        Scheduler().tick()
        detail = alice.get(f"/api/matches/{match_id}/").json()
        if detail["status"] != "active":
            break
        (seat,) = detail["to_move"]
        mover = next(p for p in detail["players"] if p["seat"] == seat)
        if mover["username"] == "bob":
            continue
        person = people[mover["username"]]
        mine = person.get(f"/api/matches/{match_id}/").json()
        state = match_state(Match.objects.select_related("room").get(pk=match_id))
        walk = quoridor.bot("easy").play(quoridor, state, seat, rng)
        assert walk in mine["legal_moves"]
        response = play(person, mine, walk)
        assert response.status_code == 201, response.json()
    assert detail["status"] == "finished"
    assert detail["result"]["results"][bob_seat["seat"]] == "loss"
    places = detail["result"]["places"]
    assert places[bob_seat["seat"]] == 4, "a seat that resigned places behind everyone who played on"
    assert sorted(places)[0] == 1
    assert Move.objects.filter(match_id=match_id, seat=bob_seat["seat"], made_by="bot").exists()
    bob_move = bob.post(f"/api/matches/{match_id}/moves/", {"move": "e2", "version": detail["version"]})
    assert bob_move.status_code == 409


def test_the_last_person_resigning_ends_the_game(alice: Player) -> None:
    match = start_against_bots(alice, game="manhattan", turn_seconds=0)
    detail = alice.post(f"/api/matches/{match['id']}/resign/").json()
    assert detail["status"] == "finished"
    assert detail["result"]["reason"] == "alice resigned"


class HeldWorkers(Executor):
    """Workers that take turns only when told: futures stay queued, then run, then answer."""

    def __init__(self) -> None:
        self.futures: list[Future[str]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[str]:
        future: Future[str] = Future()
        self.futures.append(future)
        return future


def test_a_turn_waiting_in_the_queue_is_not_a_stuck_bot_and_its_think_limit_starts_when_taken(
    alice: Player,
) -> None:
    from games import scheduler

    match = start_against_bots(alice, ai="random")
    play(alice, match, "4")
    workers = HeldWorkers()
    ticker = Scheduler(workers)
    ticker.tick()
    (job,) = ticker.thinking.values()
    # Queued longer than a bot may think: still waiting for a worker, no fallback.
    job.queued -= scheduler.THINK_LIMIT_SECONDS + 5
    assert ticker.tick() == 0 and Move.objects.count() == 1
    # A worker takes it: the think limit counts from now.
    workers.futures[0].set_running_or_notify_cancel()
    assert ticker.tick() == 0 and job.taken is not None
    assert Move.objects.count() == 1
    # Past the think limit from when it was taken: the fallback plays.
    job.taken -= scheduler.THINK_LIMIT_SECONDS + 1
    assert ticker.tick() == 1
    assert [m.made_by for m in Move.objects.order_by("ply")] == ["player", "bot"]


def test_a_turn_left_in_the_queue_too_long_is_played_by_the_fallback(alice: Player) -> None:
    from games import scheduler

    match = start_against_bots(alice, ai="random")
    play(alice, match, "4")
    ticker = Scheduler(HeldWorkers())
    ticker.tick()
    (job,) = ticker.thinking.values()
    job.queued -= scheduler.QUEUE_LIMIT_SECONDS + 1
    assert ticker.tick() == 1 and Move.objects.count() == 2


def test_the_ai_workers_are_sized_to_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    from games import scheduler

    monkeypatch.delenv("AI_WORKERS", raising=False)
    monkeypatch.setattr(scheduler.os, "sched_getaffinity", lambda _: set(range(8)))
    assert scheduler.worker_count() == 4
    monkeypatch.setattr(scheduler.os, "sched_getaffinity", lambda _: {0, 1})
    assert scheduler.worker_count() == 1
    monkeypatch.setenv("AI_WORKERS", "3")
    assert scheduler.worker_count() == 3


@pytest.mark.parametrize("game, level", [("quoridor", "strong"), ("eskimo", "strong"), ("quoridor", "medium"), ("eskimo", "medium")])
def test_quoridor_and_eskimo_seats_of_every_level_are_played_by_the_scheduler(
    alice: Player, game: str, level: str
) -> None:
    match = start_against_bots(alice, game=game, ai=level)
    assert [p["bot"] for p in match["players"]] == [None, level]
    rng = random.Random(7)
    for _ in range(6 if level == "strong" else 60):
        detail = alice.get(f"/api/matches/{match['id']}/").json()
        if detail["status"] != "active":
            break
        if detail["legal_moves"]:
            assert play(alice, detail, rng.choice(detail["legal_moves"])).status_code == 201
        else:
            assert Scheduler().tick() == 1
    made = list(Move.objects.filter(match_id=match["id"]).values_list("made_by", flat=True))
    assert "bot" in made and "timeout" not in made
