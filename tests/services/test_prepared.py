"""Reads compiled once (core/prepared.py) give what their querysets give."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone
from django.test.utils import CaptureQueriesContext

from accounts.authentication import TOKEN_WITH_USER
from accounts.models import ApiToken, User
from core.prepared import Prepared
from games import services
from games.models import Match, Move
from games.selectors import PLAYERS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def match() -> Match:
    alice = User.objects.create_user("alice", password="secret-pass")
    bob = User.objects.create_user("bob", password="secret-pass")
    room = services.room_create(user=alice, game="connect-four", options={})
    services.room_join(user=bob, room_id=room.pk)
    return Match.objects.get(room=room)


def fields(obj: object) -> dict[str, object]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}  # type: ignore[attr-defined]


def test_the_players_with_their_users_are_what_the_queryset_gives(match: Match) -> None:
    expected = list(match.players.select_related("user").order_by("seat"))
    got = PLAYERS.all(match.pk)
    assert [fields(p) for p in got] == [fields(p) for p in expected]
    # select_related: the users came with them, datetimes converted as Django does.
    with CaptureQueriesContext(connection) as queries:
        assert [fields(p.user) for p in got] == [fields(p.user) for p in expected]
    assert len(queries) == 0
    assert got[0].user.date_joined.tzinfo is not None
    assert PLAYERS.all(-1) == []


def test_the_match_under_lock_has_its_room_and_its_json_as_django_reads_them(match: Match) -> None:
    services.move_make(user=match.players.get(seat=0).user, match_id=match.pk, move="4", version=0)
    with transaction.atomic():
        locked = services.LOCKED_MATCH.first(match.pk)
        assert locked is not None
        expected = Match.objects.select_related("room").get(pk=match.pk)
        assert fields(locked) == fields(expected)
        assert isinstance(locked.snapshot, dict) and locked.snapshot["moves"] == [4]
        assert fields(locked.room) == fields(expected.room)


def test_a_token_read_finds_its_user_and_nothing_for_a_wrong_key(match: Match) -> None:
    token = ApiToken.objects.create(user=match.players.get(seat=1).user, key="b" * 40, name="bot")
    found = TOKEN_WITH_USER.first("b" * 40)
    assert found is not None and found.pk == token.pk and found.user.username == "bob"
    assert TOKEN_WITH_USER.first("c" * 40) is None


def test_each_thread_compiles_its_own_and_every_read_is_one_statement(match: Match) -> None:
    results: list[int] = []

    def read() -> None:
        try:
            with CaptureQueriesContext(connection) as queries:
                results.append(len(PLAYERS.all(match.pk)))
            results.append(len(queries))
        finally:
            connection.close()

    thread = threading.Thread(target=read)
    thread.start()
    thread.join(10)
    assert results == [2, 1]


def test_a_sample_that_is_not_among_the_parameters_is_refused_at_first_use() -> None:
    # The sample is turned into a number, so it can no longer be found by its value.
    broken = Prepared(lambda pk: Match.objects.filter(pk=pk), "12")
    with pytest.raises(ValueError, match="among the parameters"):
        broken.all(12)


def test_a_move_written_once_compiled_reads_back_as_the_orm_would_have_written_it(match: Match) -> None:
    alice = match.players.get(seat=0).user
    services.move_make(user=alice, match_id=match.pk, move="4", version=0)
    move = match.moves.get()
    assert (move.ply, move.seat, move.notation, move.made_by) == (1, 0, "4", "player")
    assert move.words["args"] == {"column": 4} and move.created_at is not None
    stored = Match.objects.get(pk=match.pk)
    assert (stored.version, stored.plies, stored.snapshot["moves"]) == (1, 1, [4])
    assert stored.updated_at > match.updated_at  # auto_now went through its field


def test_an_update_of_a_row_that_is_gone_fails_instead_of_passing_silently(match: Match) -> None:
    Match.objects.filter(pk=match.pk).delete()
    with pytest.raises(Match.DoesNotExist):
        services.MOVE_UPDATE.save(match)


def test_the_rows_written_once_compiled_have_no_signal_receivers_to_miss() -> None:
    from django.db.models import signals

    for model in (Match, Move):
        for signal in (signals.pre_save, signals.post_save):
            assert not signal.has_listeners(model), f"{signal} has a receiver for {model.__name__}: use save()"


# --- the socket's connect and close (issue 14): reads of rows, changes, an insert that may be left out


def test_a_room_read_with_its_seats_and_ratings_gives_the_detail_the_orm_reads_give(match: Match) -> None:
    from ratings.models import Rating

    from games.models import Room, RoomSocket
    from games.selectors import room_detail, room_with_match

    room = Room.objects.get(pk=match.room_id)
    assert room.pool  # connect four, two players: rated pool
    alice = User.objects.get(username="alice")
    # One player rated in the pool, the other not yet (the defaults), a rating in another pool ignored.
    Rating.objects.create(user=alice, pool=room.pool, rating=1712.5, deviation=80.0)
    Rating.objects.create(user=User.objects.get(username="bob"), pool="some-other-pool", rating=900.0, deviation=60.0)
    carol = User.objects.create_user("carol", password="secret-pass")
    RoomSocket.objects.create(room=room, user=carol, channel="c1", seen_at=timezone.now())
    expected = room_detail(Room.objects.select_related("host").get(pk=room.pk))
    with CaptureQueriesContext(connection) as queries:
        read = room_with_match(room.pk)
        assert read is not None
        got = room_detail(read)
    assert got == expected
    assert [seat["rating"] for seat in got["seats"]] == [1712, 1500] and got["watchers"] == 1
    # The room with its match, its seats with their ratings, the watchers: three statements.
    assert len(queries) == 3, [query["sql"] for query in queries]
    # A room of a game without a rating pool (pool "") shows no ratings, as before.
    poolless = services.room_create(user=carol, game="connect-four", options={})
    Room.objects.filter(pk=poolless.pk).update(pool="")
    read = room_with_match(poolless.pk)
    assert read is not None
    got = room_detail(read)
    assert got == room_detail(Room.objects.select_related("host").get(pk=poolless.pk))
    assert got["seats"][0]["username"] == "carol" and got["seats"][0]["rating"] is None


def test_a_read_of_rows_with_a_time_finds_what_the_queryset_finds(match: Match) -> None:
    from datetime import timedelta

    from games.models import RoomSocket
    from games.watchers import LIVE_USERS

    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    now = timezone.now()
    RoomSocket.objects.create(room_id=match.room_id, user=alice, channel="a", seen_at=now - timedelta(seconds=5))
    RoomSocket.objects.create(room_id=match.room_id, user=bob, channel="b", seen_at=now - timedelta(seconds=500))
    for cutoff in (now - timedelta(seconds=60), now - timedelta(seconds=600), now + timedelta(seconds=1)):
        expected = list(RoomSocket.objects.filter(room_id=match.room_id, seen_at__gte=cutoff).values_list("user_id"))
        assert sorted(LIVE_USERS.rows(match.room_id, cutoff)) == sorted(expected)
    assert LIVE_USERS.rows(match.room_id, now - timedelta(seconds=60)) == [(alice.pk,)]
    with pytest.raises(TypeError, match="rows"):
        LIVE_USERS.all(match.room_id, now)


def test_changes_compiled_once_touch_the_rows_the_queryset_picks_and_say_how_many(match: Match) -> None:
    from datetime import timedelta

    from accounts.services import USER_SEEN
    from games.models import RoomSocket
    from games.watchers import SOCKET_GONE, SOCKET_SEEN, STALE_SOCKETS

    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    moment = timezone.now() - timedelta(hours=3)
    assert USER_SEEN.run(alice.pk, new=(moment,)) == 1
    assert User.objects.get(pk=alice.pk).last_seen == moment and User.objects.get(pk=bob.pk).last_seen is None
    assert USER_SEEN.run(-1, new=(moment,)) == 0
    now = timezone.now()
    for channel, user, age in (("a1", alice, 1), ("a2", alice, 500), ("b1", bob, 700)):
        RoomSocket.objects.create(room_id=match.room_id, user=user, channel=channel, seen_at=now - timedelta(seconds=age))
    assert SOCKET_SEEN.run("a2", new=(now,)) == 1
    assert RoomSocket.objects.get(channel="a2").seen_at == now
    assert STALE_SOCKETS.run(match.room_id, now - timedelta(seconds=60)) == 1  # b1 only
    assert sorted(RoomSocket.objects.values_list("channel", flat=True)) == ["a1", "a2"]
    assert SOCKET_GONE.run("a1") == 1 and SOCKET_GONE.run("a1") == 0
    assert list(RoomSocket.objects.values_list("channel", flat=True)) == ["a2"]


def test_a_waiting_seek_is_kept_alive_and_no_other(match: Match) -> None:
    from datetime import timedelta

    from matchmaking.models import Seek
    from matchmaking.services import seeks_seen

    alice = User.objects.get(username="alice")
    old = timezone.now() - timedelta(minutes=5)
    fields = {"user": alice, "game": "connect-four", "players": 2, "pool": "connect-four", "options": {}, "options_key": "{}"}
    waiting = Seek.objects.create(status=Seek.Status.WAITING, last_seen=old, **fields)
    cancelled = Seek.objects.create(status=Seek.Status.CANCELLED, last_seen=old, **fields)
    seeks_seen(alice.pk)
    assert Seek.objects.get(pk=waiting.pk).last_seen > old
    assert Seek.objects.get(pk=cancelled.pk).last_seen == old


def test_an_insert_that_would_break_a_unique_column_is_left_out(match: Match) -> None:
    from games.models import RoomSocket
    from games.watchers import NEW_SOCKET

    alice = User.objects.get(username="alice")
    first = RoomSocket(room_id=match.room_id, user=alice, channel="same", seen_at=timezone.now())
    assert NEW_SOCKET.save(first) is True
    again = RoomSocket(room_id=match.room_id, user=alice, channel="same", seen_at=timezone.now())
    assert NEW_SOCKET.save(again) is False
    assert RoomSocket.objects.filter(channel="same").count() == 1


def test_a_change_is_kept_to_one_tables_own_columns() -> None:
    from core.prepared import PreparedChange

    joined = PreparedChange(lambda name: Move.objects.filter(match__room__code=name), "\x00code")
    with pytest.raises(ValueError, match="no joins"):
        joined.run("ABC")


def test_the_rows_changed_once_compiled_have_no_signal_receivers_to_miss() -> None:
    from django.db.models import signals

    from games.models import RoomSocket
    from matchmaking.models import Seek

    # update() and a fast delete() send none either; a receiver added later would be skipped by both.
    for model in (RoomSocket, User, Seek):
        for signal in (signals.pre_save, signals.post_save, signals.pre_delete, signals.post_delete):
            assert not signal.has_listeners(model), f"{signal} has a receiver for {model.__name__}"


@pytest.mark.postgres
def test_on_postgresql_a_move_s_statements_are_prepared_once_on_their_connection(match: Match) -> None:
    # config/settings.py: server-side binding and psycopg's prepare_threshold.
    # After a few moves, PostgreSQL holds the move path's reads and writes
    # as prepared statements of this connection, parsed and planned once.
    players = [match.players.get(seat=seat).user for seat in (0, 1)]
    for ply, column in enumerate("121212"):
        services.move_make(user=players[ply % 2], match_id=match.pk, move=column, version=ply)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any(text.startswith('INSERT INTO "games_move"') for text in prepared), prepared
    assert any(text.startswith('UPDATE "games_match"') for text in prepared), prepared
    assert any('FOR UPDATE' in text and '"games_match"' in text for text in prepared), prepared
