"""Seeking a game, giving up, and pairing the waiting (every write here is one transaction).

A seek is paired by a pairing pass over its pool: at once when it is made,
then every second by the scheduler of any server process, its rating window
widening as it waits (matchmaking.pairing decides who plays whom). A pass
locks every waiting seek of the pool, in id order, so passes of two
processes over one pool run one after the other, a seek is never paired
twice, and a cancel either comes before the pass (the seek is gone) or after
it (the seek is paired and the cancel is refused).
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from core.errors import Conflict, Invalid, NotFound
from core.prepared import PreparedChange
from games.engines.words import words
from games import broadcast
from games.engines.base import BadOptions
from games.engines.registry import ENGINES
from games.options import normalize_room_options
from games.services import table_start, write
from ratings.glicko2 import DEFAULT_RATING
from ratings.models import Rating
from games.pools import pool_of

from .models import Seek
from .pairing import Waiting, pair

# A seek whose player shows no sign for this long (no open socket, no poll
# of the seek) has been given up on: it expires and is never paired.
SEEN_SECONDS = 60
MAX_FILL_SECONDS = 3600


def _check_request(
    game: Any, players: Any, options: Any, rated: Any, fill_with_ai_after: Any
) -> tuple[str, dict[str, Any]]:
    """The pool and the normalised room options of a seek; Invalid for anything wrong."""
    if not isinstance(game, str) or game not in ENGINES:
        raise Invalid(
            "unknown_game",
            words("there is no game %(game)r; the games are: %(games)s", game=str(game), games=", ".join(sorted(ENGINES))),
        )
    engine = ENGINES[game]
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise Invalid("bad_options", words("options must be an object"))
    if not isinstance(rated, bool):
        raise Invalid("invalid", words("rated must be true or false"))
    if fill_with_ai_after is not None and (
        isinstance(fill_with_ai_after, bool)
        or not isinstance(fill_with_ai_after, int)
        or not 0 <= fill_with_ai_after <= MAX_FILL_SECONDS
    ):
        raise Invalid(
            "invalid", words("fill_with_ai_after is a number of seconds from 0 to %(maximum)s", maximum=MAX_FILL_SECONDS)
        )
    if players is None:
        players = options.get("players", engine.min_players)
    if isinstance(players, bool) or not isinstance(players, int):
        raise Invalid("bad_options", words("players must be a whole number"))
    if "players" in options and options["players"] != players:
        raise Invalid("bad_options", words("players is given twice with two values"))
    if "rated" in options:
        raise Invalid("bad_options", words("say rated beside options, not inside them"))
    if engine.max_players < 2:
        raise Invalid("no_ratings", words("%(game)s is played alone: there is nobody to pair you with", game=engine.name))
    try:
        normalized = normalize_room_options(engine, {**options, "players": players, "rated": rated})
    except BadOptions as error:
        raise Invalid("bad_options", error.message) from error
    pool = pool_of(game, players)
    if not pool:
        raise Invalid("bad_options", words("%(game)s is not played by %(players)s", game=engine.name, players=players))
    return pool, normalized


def seek_create(
    *, user: User, game: Any, players: Any = None, options: Any = None, rated: Any = True, fill_with_ai_after: Any = None
) -> Seek:
    pool, normalized = _check_request(game, players, options, rated, fill_with_ai_after)
    seek = _store_seek(user=user, game=game, pool=pool, options=normalized, fill_with_ai_after=fill_with_ai_after)
    # A seek may be paired at once: the pool is searched in a transaction of
    # its own, so the seek is stored (and counted) whatever the pass finds.
    _pair_pool(pool=pool)
    seek.refresh_from_db()
    return seek


@write
def _store_seek(
    *, user: User, game: str, pool: str, options: dict[str, Any], fill_with_ai_after: int | None
) -> Seek:
    if Seek.objects.filter(user=user, pool=pool, status=Seek.Status.WAITING).exists():
        raise Conflict(
            "already_seeking", words("you are already seeking a game of %(pool)s; cancel that seek first", pool=pool)
        )
    now = timezone.now()
    try:
        with transaction.atomic():
            seek = Seek.objects.create(
                user=user,
                game=game,
                players=options["players"],
                pool=pool,
                options=options,
                options_key=json.dumps(options, sort_keys=True),
                rated=bool(options["rated"]),
                fill_with_ai_after=fill_with_ai_after,
                last_seen=now,
            )
    except IntegrityError as error:  # the same player seeking twice at the same moment
        raise Conflict("already_seeking", words("you are already seeking a game of %(pool)s", pool=pool)) from error
    _push_seek(seek)
    return seek


def _mine(user: User, seek_id: int) -> Seek:
    seek = Seek.objects.select_for_update().filter(pk=seek_id, user=user).first()
    if seek is None:
        raise NotFound("not_found", words("there is no seek %(seek)s of yours", seek=seek_id))
    return seek


@write
def seek_cancel(*, user: User, seek_id: int) -> Seek:
    """Stop waiting. A seek already paired stays paired: go to its room instead."""
    seek = _mine(user, seek_id)
    if seek.status == Seek.Status.PAIRED:
        raise Conflict(
            "already_paired",
            words("this seek has been paired: your game is waiting"),
            room=seek.room_id,
            match=seek.match_id,
        )
    if seek.status == Seek.Status.WAITING:
        seek.status = Seek.Status.CANCELLED
        seek.reason = Seek.Reason.CANCELLED
        seek.ended_at = timezone.now()
        seek.save(update_fields=["status", "reason", "ended_at"])
        _push_seek(seek)
    return seek


# At every socket's connect and presence beat: compiled once (core.prepared).
SEEKS_SEEN = PreparedChange(
    lambda user_id: Seek.objects.filter(user_id=user_id, status=Seek.Status.WAITING), -7_770_031, update=["last_seen"]
)


def seeks_seen(user_id: int) -> None:
    """The player is still there (an open socket, a poll): their waiting seeks stay alive."""
    SEEKS_SEEN.run(user_id, new=(timezone.now(),))


# --- pairing ---------------------------------------------------------------


def pairing_pass() -> int:
    """Pair what can be paired in every pool with waiting seeks; returns the matches started."""
    pools = set(Seek.objects.filter(status=Seek.Status.WAITING).values_list("pool", flat=True))
    return sum(_pair_pool(pool=pool) for pool in sorted(pools))


@write
def _pair_pool(*, pool: str) -> int:
    now = timezone.now()
    # Every waiting seek of the pool, locked in id order (see the module's docstring).
    waiting = list(Seek.objects.select_for_update().filter(pool=pool, status=Seek.Status.WAITING).order_by("id"))
    if not waiting:
        return 0
    gone = [seek for seek in waiting if seek.last_seen < now - timedelta(seconds=SEEN_SECONDS)]
    for seek in gone:
        _end(seek, Seek.Status.CANCELLED, Seek.Reason.EXPIRED, now)
    alive = [seek for seek in waiting if seek not in gone]
    ratings = dict(
        Rating.objects.filter(pool=pool, user_id__in=[seek.user_id for seek in alive]).values_list("user_id", "rating")
    )
    tables: dict[tuple[str, bool], list[Seek]] = defaultdict(list)
    for seek in alive:
        tables[(seek.options_key, seek.rated)].append(seek)
    started = 0
    paired_users: set[int] = set()
    for seeks in tables.values():
        by_id = {seek.pk: seek for seek in seeks}
        candidates = [
            Waiting(seek.pk, seek.user_id, ratings.get(seek.user_id, DEFAULT_RATING), (now - seek.created_at).total_seconds())
            for seek in seeks
            # One seek per player and pool is a database constraint; this keeps
            # a pass from seating anyone twice even if that ever changed.
            if seek.user_id not in paired_users
        ]
        for group in pair(candidates, seeks[0].players):
            _start([by_id[seek_id] for seek_id in group], now)
            paired_users.update(by_id[seek_id].user_id for seek_id in group)
            started += 1
        started += _fill_with_ai([seek for seek in seeks if seek.status == Seek.Status.WAITING], now)
    # A player paired here stops seeking elsewhere: one pairing, one game.
    for seek in Seek.objects.select_for_update().filter(user_id__in=paired_users, status=Seek.Status.WAITING):
        _end(seek, Seek.Status.CANCELLED, Seek.Reason.PAIRED_ELSEWHERE, now)
    return started


def _fill_with_ai(seeks: list[Seek], now: Any) -> int:
    """Seeks that asked for AI seats after waiting long enough start together, the rest AI (unrated)."""
    due = [
        seek
        for seek in seeks
        if seek.fill_with_ai_after is not None and (now - seek.created_at).total_seconds() >= seek.fill_with_ai_after
    ]
    if not due:
        return 0
    # At least one AI seat at each table: these players are outside each
    # other's windows, and only a table with an AI may skip the window.
    humans = due[0].players - 1
    tables = [due[i : i + humans] for i in range(0, len(due), humans)]
    for table in tables:
        _start(table, now, ai_seats=due[0].players - len(table))
    return len(tables)


def _start(seeks: list[Seek], now: Any, ai_seats: int = 0) -> None:
    """Seat these seeks' players at a new table, in an order drawn at random, and start it."""
    users: list[User | None] = [seek.user for seek in seeks] + [None] * ai_seats
    random.SystemRandom().shuffle(users)
    options = dict(seeks[0].options)
    if ai_seats:
        options["rated"] = False  # a table with an AI seat is never rated
    match = table_start(game=seeks[0].game, options=options, users=users)
    for seek in seeks:
        seek.room_id = match.room_id
        seek.match_id = match.pk
        _end(seek, Seek.Status.PAIRED, Seek.Reason.NONE, now)
        seek_id, user_id, room_id, match_id = seek.pk, seek.user_id, match.room_id, match.pk
        transaction.on_commit(
            lambda s=seek_id, u=user_id, r=room_id, m=match_id: broadcast.to_user(
                u, {"type": "paired", "seek": s, "room": r, "match": m}
            ),
            robust=True,
        )


def _end(seek: Seek, status: str, reason: str, now: Any) -> None:
    seek.status = status
    seek.reason = reason
    seek.ended_at = now
    seek.save(update_fields=["status", "reason", "ended_at", "room", "match"])
    _push_seek(seek)


def _push_seek(seek: Seek) -> None:
    from .selectors import seek_json

    message = {"type": "seek", "seek": seek_json(seek)}
    user_id = seek.user_id
    transaction.on_commit(lambda: broadcast.to_user(user_id, message), robust=True)
