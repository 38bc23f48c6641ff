"""Reads compiled once (core/prepared.py) give what their querysets give."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
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
