"""Every write: lock, check, apply, append, bump the version, push after commit.

Each public function is one transaction. Pushes are queued with
``transaction.on_commit`` so a client never hears of a move that was rolled
back, and never before the row it would refetch is visible.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any, ParamSpec, TypeVar

from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from accounts.models import User
from accounts.services import is_away
from core.errors import Conflict, Forbidden, Invalid, NotFound
from core.prepared import Prepared, PreparedWrite
from ratings.selectors import current_ratings
from ratings.services import rate_result

from . import broadcast, wakeup
from .engines.base import JSON, LOSS, BadOptions, EngineError, Outcome, places_by
from .engines.words import Words, words
from .engines.registry import ENGINES
from .extensions import extension_for
from .models import ChatMessage, Match, Move, Player, Room, Seat
from .options import engine_options, normalize_room_options
from .pools import pool_of
from .selectors import (
    claim_after,
    current_match,
    engine_for,
    match_state,
    players_of,
    rematch_offer,
    remember_state,
    seat_of,
)

CHAT_MAX = 500
MOVE_MAX = 64  # the longest notation a Move row holds

P = ParamSpec("P")
R = TypeVar("R")


def write(func: Callable[P, R]) -> Callable[P, R]:
    """Run ``func`` in one transaction; a lost race is a 409, never a 500.

    IntegrityError: another writer appended the same ply or took the same
    seat first. OperationalError: SQLite's lock wait ran out under load.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            with transaction.atomic():
                return func(*args, **kwargs)
        except IntegrityError as error:
            raise Conflict("conflict", words("someone else changed this at the same moment; reload and retry")) from error
        except OperationalError as error:
            if "locked" in str(error).lower():
                raise Conflict("busy", words("the server is busy; retry in a moment")) from error
            raise

    return wrapper


# --- rooms -------------------------------------------------------------------


@write
def room_create(*, user: User, game: str, options: Any = None, rated: Any = None) -> Room:
    if not isinstance(game, str) or game not in ENGINES:
        known = ", ".join(sorted(ENGINES))
        raise Invalid("unknown_game", words("there is no game %(game)r; the games are: %(games)s", game=str(game), games=known))
    engine = ENGINES[game]
    options = {} if options is None else options
    if rated is not None:
        if not isinstance(options, dict) or "rated" in options:
            raise Invalid("bad_options", words("say rated once: beside options or inside them"))
        options = {**options, "rated": rated}
    preferred = user.preferences.get("default_turn_seconds")
    # A player's default turn time applies to the games that are timed by
    # default (Manhattan); untimed games stay untimed unless the room says so.
    if isinstance(options, dict) and "turn_seconds" not in options and preferred is not None and engine.default_turn_seconds:
        options = {**options, "turn_seconds": preferred}
    try:
        normalized = normalize_room_options(engine, options)
    except BadOptions as error:
        raise Invalid("bad_options", error.message) from error
    room = Room.objects.create(game=game, options=normalized, host=user, pool=pool_of(game, normalized["players"]))
    Seat.objects.bulk_create(
        [Seat(room=room, index=i, user=user if i == 0 else None) for i in range(room.players)]
    )
    # The room push goes first so a client learns of a match before its state.
    transaction.on_commit(lambda: broadcast.room_changed(room.pk), robust=True)
    if room.players == 1:
        _start_match(room)
    return room


def table_start(*, game: str, options: dict[str, Any], users: list[User | None]) -> Match:
    """A room whose seats are already decided (quick pairing), started at once.

    ``options`` are normalised room options; a ``None`` among ``users`` is an
    AI seat of the options' ``ai`` level. Runs in the caller's transaction.
    """
    host = next(user for user in users if user is not None)
    room = Room.objects.create(game=game, options=options, host=host, pool=pool_of(game, len(users)))
    level = str(options.get("ai") or "random")
    Seat.objects.bulk_create(
        [Seat(room=room, index=i, user=user, bot="" if user else level) for i, user in enumerate(users)]
    )
    transaction.on_commit(lambda: broadcast.room_changed(room.pk), robust=True)
    return _start_match(room)


def _lock_room(room_id: int) -> Room:
    # Locking the room row serialises joins, leaves and rematches, so two
    # people cannot both take the last seat or both start match 2.
    try:
        return Room.objects.select_for_update().get(pk=room_id)
    except Room.DoesNotExist as error:
        raise NotFound("not_found", words("there is no room %(room)s", room=room_id)) from error


@write
def room_join(*, user: User, room_id: int) -> Room:
    room = _lock_room(room_id)
    seats = list(room.seats.select_for_update().order_by("index"))
    if any(seat.user_id == user.pk for seat in seats):
        raise Conflict("already_seated", words("you already have a seat in this room"))
    if room.status == Room.Status.CLOSED:
        raise Conflict("room_closed", words("this room is closed"))
    free = [seat for seat in seats if seat.user_id is None and not seat.bot]
    if room.status != Room.Status.OPEN or not free:
        raise Conflict("room_full", words("every seat in this room is taken"))
    seat = free[0]
    seat.user = user
    seat.save(update_fields=["user"])
    transaction.on_commit(lambda: broadcast.room_changed(room.pk), robust=True)
    if len(free) == 1:
        _start_match(room)
    return room


@write
def room_leave(*, user: User, room_id: int) -> Room:
    """Give the seat back: before the start, or between matches (a rematch on offer lapses).

    Between matches the freed seat opens the table again: someone may join
    it, and the next match starts when every seat is taken.
    """
    room = _lock_room(room_id)
    seat = room.seats.select_for_update().filter(user=user).first()
    if seat is None:
        raise Conflict("not_seated", words("you have no seat in this room"))
    current = current_match(room)
    if room.status == Room.Status.PLAYING and current is not None and current.status == Match.Status.ACTIVE:
        raise Conflict("match_started", words("the match has started; resign instead of leaving"))
    seat.user = None
    seat.save(update_fields=["user"])
    remaining = room.seats.filter(user__isnull=False).order_by("index").first()
    if remaining is None:
        room.status = Room.Status.CLOSED
    else:
        room.status = Room.Status.OPEN
        if room.host_id == user.pk:
            room.host_id = remaining.user_id
    room.rematch = None
    room.save(update_fields=["status", "host", "rematch", "updated_at"])
    transaction.on_commit(lambda: broadcast.room_changed(room.pk), robust=True)
    return room


# A rematch offer stands this long after it was made, then lapses.
REMATCH_OFFER_SECONDS = 60


@write
def room_rematch(*, user: User, room_id: int) -> Match | Room:
    """Offer a rematch, or accept the one on offer.

    The next match starts when every person seated has accepted (AI seats
    always do): at once for a player alone with AI seats. Returns the new
    match once it starts, else the room with the offer as it stands.
    """
    room = _lock_room(room_id)
    seats = list(room.seats.all())
    if not any(seat.user_id == user.pk for seat in seats):
        raise Forbidden("not_seated", words("only a seated player can offer or accept a rematch"))
    last = room.matches.order_by("-number").first()
    if last is None or last.status == Match.Status.ACTIVE:
        raise Conflict("match_not_over", words("the current match is not over yet"))
    if room.status != Room.Status.PLAYING:
        raise Conflict("seat_free", words("a seat is free: the next match starts when someone takes it"))
    offer = rematch_offer(room) or {
        "by": user.pk,
        "accepted": [],
        "expires_at": (timezone.now() + timedelta(seconds=REMATCH_OFFER_SECONDS)).isoformat(),
    }
    if user.pk not in offer["accepted"]:
        offer["accepted"].append(user.pk)
    people = {seat.user_id for seat in seats if seat.user_id is not None}
    transaction.on_commit(lambda: broadcast.room_changed(room.pk), robust=True)
    if people <= set(offer["accepted"]):
        room.rematch = None
        room.save(update_fields=["rematch", "updated_at"])
        return _start_match(room)
    room.rematch = offer
    room.save(update_fields=["rematch", "updated_at"])
    return room


@write
def room_rematch_decline(*, user: User, room_id: int) -> Room:
    room = _lock_room(room_id)
    if not room.seats.filter(user=user).exists():
        raise Forbidden("not_seated", words("only a seated player can decline a rematch"))
    if rematch_offer(room) is None:
        raise Conflict("no_offer", words("no rematch is on offer"))
    room.rematch = {"declined_by": user.pk}
    room.save(update_fields=["rematch", "updated_at"])
    transaction.on_commit(lambda: broadcast.room_changed(room.pk), robust=True)
    return room


@write
def room_start(*, user: User, room_id: int) -> Match:
    """The host starts the room now; every free seat becomes an AI seat."""
    room = _lock_room(room_id)
    if room.host_id != user.pk:
        raise Forbidden("not_host", words("only the host can start this room"))
    if room.status == Room.Status.CLOSED:
        raise Conflict("room_closed", words("this room is closed"))
    if room.status != Room.Status.OPEN:
        raise Conflict("already_started", words("this room has already started"))
    seats = list(room.seats.select_for_update())
    if not any(seat.user_id for seat in seats):
        raise Conflict("nobody_seated", words("nobody is seated: take a seat first"))
    level = room.options.get("ai", "random")
    for seat in seats:
        if seat.user_id is None and not seat.bot:
            seat.bot = level
            seat.save(update_fields=["bot"])
    transaction.on_commit(lambda: broadcast.room_changed(room.pk), robust=True)
    return _start_match(room)


def _start_match(room: Room) -> Match:
    """Deal a new match at ``room``. The caller holds the room's lock."""
    number = (room.matches.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    match = Match.objects.create(room=room, number=number)
    seats = list(room.seats.order_by("index"))
    n = len(seats)
    # Each new match hands the first move to the next chair (the original
    # site's "regame"): room seat k plays engine seat (k - number + 1) mod n.
    ratings = current_ratings(room.pool, [seat.user_id for seat in seats if seat.user_id]) if room.pool else {}
    Player.objects.bulk_create(
        [
            Player(
                match=match,
                seat=(seat.index - (number - 1)) % n,
                user=seat.user,
                bot=seat.bot,
                rating=ratings.get(seat.user_id) if seat.user_id else None,
            )
            for seat in seats
        ]
    )
    # Rated only if asked for, and only between people: a seat an AI holds
    # from the start makes the match casual, whatever the room said.
    match.rated = bool(room.options.get("rated")) and bool(room.pool) and all(seat.user_id for seat in seats)
    engine = engine_for(room.game)
    state = engine.initial_state(n, engine_options(engine, room.options), match.seed)
    match.snapshot = engine.serialize(state)
    match.snapshot_version = match.version
    remember_state(match, state)
    _schedule_turn(match, state)
    match.save(update_fields=["snapshot", "snapshot_version", "bot_turn", "turn_deadline", "rated"])
    room.status = Room.Status.PLAYING
    room.rematch = None
    room.save(update_fields=["status", "rematch", "updated_at"])
    _push_match(match)
    return match


def _push_match(match: Match) -> None:
    """After commit, push ``match`` as this transaction left it.

    The instance is handed over, not its id: what it holds (players, the
    position) is what was just committed, so the push reads nothing again.
    """
    transaction.on_commit(lambda: broadcast.match_changed(match), robust=True)


# --- moves -------------------------------------------------------------------


# Every write to a match starts here: compiled once (core.prepared).
LOCKED_MATCH = Prepared(lambda pk: Match.objects.select_for_update().select_related("room").filter(pk=pk), -7_770_001)


def _lock_match(match_id: int) -> Match:
    # The lock makes check-then-append atomic: without it two moves could
    # both pass the version check and race for the same ply.
    try:
        match = LOCKED_MATCH.first(int(match_id))
    except (TypeError, ValueError):
        match = None
    if match is None:
        raise NotFound("not_found", words("there is no match %(match)s", match=match_id))
    return match


def _player_seat(match: Match, user: User) -> int:
    seat = seat_of(match, user)
    if seat is None:
        raise Forbidden("not_seated", words("you are not playing in this match"))
    if players_of(match)[seat].resigned:
        raise Conflict("resigned", words("you resigned from this match; an AI plays your seat now"))
    return seat


@write
def move_make(*, user: User, match_id: int, move: Any, version: Any, made_by: str = Move.MadeBy.PLAYER) -> Match:
    """``user`` moves; ``made_by`` says whose move it really is when a service plays it on
    their behalf (Sokoban's solver: ``Move.MadeBy.SOLVER``)."""
    match = _lock_match(match_id)
    seat = _player_seat(match, user)
    if not isinstance(move, str) or not move.strip():
        raise Invalid("bad_notation", words("move must be a non-empty string in the game's notation"))
    if len(move) > MOVE_MAX:
        raise Invalid("bad_notation", words("a move is at most %(count)s characters of notation", count=MOVE_MAX))
    if isinstance(version, bool) or not isinstance(version, int):
        raise Invalid("invalid", words("version must be the match version you last saw (a whole number)"))
    if match.status != Match.Status.ACTIVE:
        raise Conflict("match_over", words("the match is over"))
    if version != match.version:
        raise Conflict(
            "stale_version",
            words("the match is at version %(version)s, not %(yours)s; reload it", version=match.version, yours=version),
        )
    engine = engine_for(match.room.game)
    state = match_state(match)
    if seat != engine.seat_to_move(state):
        raise Conflict("not_your_turn", words("it is not your turn"))
    if match.turn_deadline is not None and timezone.now() >= match.turn_deadline:
        raise Conflict("turn_expired", words("your time for this turn ran out; a random move is being made for you"))
    _apply(match, state, seat, move.strip(), made_by)
    player = players_of(match)[seat]
    if player.timeouts_in_a_row:  # they are back: the count of missed turns starts again
        player.timeouts_in_a_row = 0
        player.save(update_fields=["timeouts_in_a_row"])
    return match


def _schedule_turn(match: Match, state: Any) -> None:
    """Set who the scheduler must act for: a bot to move, a turn deadline."""
    engine = engine_for(match.room.game)
    to_move = engine.seat_to_move(state) if match.status == Match.Status.ACTIVE else None
    bots = {p.seat for p in players_of(match) if p.bot}
    match.bot_turn = to_move in bots
    if match.bot_turn:
        transaction.on_commit(wakeup.wake)
    seconds = int(match.room.options.get("turn_seconds") or 0)
    match.turn_deadline = timezone.now() + timedelta(seconds=seconds) if to_move is not None and seconds else None


# What a move changes on its match (the seed, room and number never change).
MOVE_FIELDS = [
    "plies", "version", "snapshot", "snapshot_version", "status", "result", "finished_at",
    "bot_turn", "turn_deadline", "updated_at",
]


# Every move writes these two rows: their SQL written once (core.prepared).
NEW_MOVE = PreparedWrite(Move)
MOVE_UPDATE = PreparedWrite(Match, MOVE_FIELDS)


def _apply(match: Match, state: Any, seat: int, text: str, made_by: str = Move.MadeBy.PLAYER) -> Any:
    """Ask the engine, append the move, bump the version, cache the snapshot."""
    engine = engine_for(match.room.game)
    try:
        action = engine.parse(state, text)
        after = engine.apply(state, seat, action)
    except EngineError as error:
        # Only the engine's own notation and rule errors are the player's
        # fault (bad_notation, illegal_move, ...); anything else it raises is
        # a bug in the engine and must surface as one, not as a 400.
        raise Invalid(error.code, error.message) from error
    # The move in words: English text for the log, and its template and args
    # (where the engine wrote words) for a page to say it in its own language.
    description = engine.describe(state, seat, action)
    NEW_MOVE.save(
        Move(
            match=match,
            ply=match.plies + 1,
            seat=seat,
            notation=engine.format(state, action),
            text=description[:200],
            words=description.to_json() if isinstance(description, Words) else {},
            made_by=made_by,
        )
    )
    match.plies += 1
    match.version += 1
    match.snapshot = engine.serialize(after)
    match.snapshot_version = match.version
    remember_state(match, after)
    outcome = engine.outcome(after)
    if outcome is not None:
        _finish(match, _with_resignations(outcome, match))
        extension_for(match.room.game).on_finished(match, after, outcome)
    _schedule_turn(match, after)
    MOVE_UPDATE.save(match)
    _push_match(match)
    return after


def _bot_turn(match_id: int, version: int, seat: int) -> tuple[Match, Any] | None:
    """The locked match and its state if ``seat`` is a bot still to move at ``version``.

    Bots think outside the transaction (up to seconds), so by the time one
    answers another server's scheduler may have moved, or the turn timed
    out: the version check makes the late answer a no-op, not a double move.
    """
    match = _lock_match(match_id)
    if match.status != Match.Status.ACTIVE or match.version != version:
        return None
    if not players_of(match)[seat].bot:
        return None
    state = match_state(match)
    if seat != engine_for(match.room.game).seat_to_move(state):
        return None
    return match, state


@write
def bot_play(*, match_id: int, version: int, seat: int, move: str) -> bool:
    """Store a bot's move if the match is still where the bot saw it."""
    turn = _bot_turn(match_id, version, seat)
    if turn is None:
        return False
    _apply(*turn, seat, move, made_by=Move.MadeBy.BOT)
    return True


@write
def bot_play_random(*, match_id: int, version: int, seat: int) -> bool:
    """A random legal move for a bot seat whose bot failed."""
    turn = _bot_turn(match_id, version, seat)
    if turn is None:
        return False
    match, state = turn
    engine = engine_for(match.room.game)
    action = engine.random_action(state, seat, random.Random(f"{match.seed}:{match.version}:fallback"))
    _apply(match, state, seat, engine.format(state, action), made_by=Move.MadeBy.BOT)
    return True


@write
def turn_timeout(*, match_id: int) -> bool:
    """Play a random legal move for the seat whose time ran out (the original's rule)."""
    match = _lock_match(match_id)
    if match.status != Match.Status.ACTIVE or match.turn_deadline is None:
        return False
    if match.turn_deadline > timezone.now():
        return False
    engine = engine_for(match.room.game)
    state = match_state(match)
    seat = engine.seat_to_move(state)
    if seat is None:
        return False
    # Seeded by the match and version, so the choice is reproducible.
    rng = random.Random(f"{match.seed}:{match.version}")
    action = engine.random_action(state, seat, rng)
    _apply(match, state, seat, engine.format(state, action), made_by=Move.MadeBy.TIMEOUT)
    _note_timeout(match, seat)
    return True


@write
def match_resign(*, user: User, match_id: int) -> Match:
    """Resign. With two seats, or nobody else left to play, the match ends;
    in a game of three or more with other people still playing, an AI of the
    room's level takes the seat over so their game goes on."""
    match = _lock_match(match_id)
    seat = _player_seat(match, user)
    if match.status != Match.Status.ACTIVE:
        raise Conflict("match_over", words("the match is over"))
    match.version += 1
    match.snapshot_version = match.version
    _leave_seat(match, players_of(match)[seat], words("%(player)s resigned", player=user.username), resigned=seat)
    match.save()
    _push_match(match)
    return match


def _leave_seat(match: Match, player: Player, reason: Words, **extra: Any) -> None:
    """A person leaves their seat of an active match (resigning, or gone away).

    With two seats, or nobody else left to play, the match ends: their
    loss; in a game of three or more with other people still playing, an AI
    of the room's level takes the seat over so their game goes on (the seat
    still loses). The caller bumps the version and saves the match.
    """
    state = match_state(match)
    remember_state(match, state)  # who plays changes, not the position
    players = players_of(match)
    others = [p for p in players if p.seat != player.seat and p.user_id is not None and not p.resigned]
    if len(players) > 2 and others:
        player.bot = str(match.room.options.get("ai") or "random")
        player.resigned = True
        player.save(update_fields=["bot", "resigned", "abandoned", "timeouts_in_a_row"])
        _schedule_turn(match, state)
        return
    engine = engine_for(match.room.game)
    outcome = _with_resignations(engine.resign(state, player.seat, match.room.players), match)
    _finish(match, outcome, reason=reason, **extra)
    match.bot_turn = False
    match.turn_deadline = None


@write
def match_claim(*, user: User, match_id: int) -> Match:
    """Claim against a player who has gone away on their turn of an untimed game.

    In a two-seat game the claimer wins (or the match is aborted if fewer
    than two moves were made); in a larger one an AI takes the absent seat.
    """
    match = _lock_match(match_id)
    seat = _player_seat(match, user)
    if match.status != Match.Status.ACTIVE:
        raise Conflict("match_over", words("the match is over"))
    if match.room.options.get("turn_seconds"):
        raise Conflict(
            "timed_game", words("this game has a turn timer: an absent player's turns run out by themselves")
        )
    to_move = engine_for(match.room.game).seat_to_move(match_state(match))
    if to_move is None or to_move == seat:
        raise Conflict("not_claimable", words("it is your turn: there is nobody to claim against"))
    absent = players_of(match)[to_move]
    claimable = claim_after(match, to_move)
    if absent.user is None or absent.bot or not is_away(absent.user) or claimable is None or timezone.now() < claimable:
        raise Conflict("opponent_present", words("your opponent is still here, or has not been away long enough"))
    match.version += 1
    match.snapshot_version = match.version
    _abandon(match, absent)
    match.save()
    _push_match(match)
    return match


def _abandon(match: Match, player: Player) -> None:
    """``player`` has gone: their seat is left as after a resignation, or the match is aborted
    if fewer than two moves of the players' own were made (nothing was really played)."""
    player.abandoned = True
    player.save(update_fields=["abandoned"])
    name = player.user.username if player.user else words("seat %(seat)s", seat=player.seat)
    if len(players_of(match)) == 2 and match.moves.filter(made_by=Move.MadeBy.PLAYER).count() < 2:
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        reason = words("%(player)s left before the game had begun: aborted", player=name)
        match.result = {"results": [], "places": [], "aborted": True, "abandoned": player.seat,
                        "reason": reason, "reason_words": reason.to_json()}
        match.bot_turn = False
        match.turn_deadline = None
        return
    _leave_seat(match, player, words("%(player)s left the game", player=name), abandoned=player.seat)


def _note_timeout(match: Match, seat: int) -> None:
    """Count a person's turns that ran out in a row; two, with none of their sockets open, and they are gone."""
    player = players_of(match)[seat]
    if player.user_id is None or player.bot:
        return
    player.timeouts_in_a_row += 1
    player.save(update_fields=["timeouts_in_a_row"])
    if match.status == Match.Status.ACTIVE and player.timeouts_in_a_row >= 2 and is_away(player.user):
        match.version += 1
        match.snapshot_version = match.version
        _abandon(match, player)
        match.save()


def _finish(match: Match, outcome: Outcome, *, reason: Words | None = None, **extra: Any) -> None:
    """End ``match`` with ``outcome``: each seat's result and place, and the ratings if it is rated.

    In the transaction of the move (or resignation) that ends it, so the
    final state and the new ratings are committed, and pushed, together. A
    rated match that ends before every seat has made a move of its own is
    aborted instead: nothing was played, so nothing is rated.

    The result's ``reason`` is English text; ``reason_words`` is its template
    and args, for a page to say it in its own language.
    """
    result: JSON = {**outcome.to_json(), **extra}
    if reason is not None:
        result["reason"] = reason
        result["reason_words"] = reason.to_json()
    match.finished_at = timezone.now()
    players = players_of(match)
    if match.rated and _someone_never_moved(match):
        match.status = Match.Status.ABORTED
        why = result["reason"]
        aborted = words(
            "%(reason)s before every player had moved: aborted, unrated",
            reason=why if isinstance(why, Words) else str(why),
        )
        match.result = {**result, "results": [], "places": [], "aborted": True,
                        "reason": aborted, "reason_words": aborted.to_json()}
        return
    match.status = Match.Status.FINISHED
    for player in players:
        player.result = outcome.results[player.seat]
        player.place = outcome.places[player.seat]
    if match.rated:
        changes = rate_result(
            pool=match.room.pool,
            user_ids=[player.user_id for player in players],  # type: ignore[misc]
            places=outcome.places,
            results=outcome.results,
        )
        for player, change in zip(players, changes, strict=True):
            player.rating_after = change.after.rating
            player.deviation_after = change.after.deviation
        result["ratings"] = [
            {"seat": player.seat, "username": player.user.username if player.user else None, **change.to_json()}
            for player, change in zip(players, changes, strict=True)
        ]
    Player.objects.bulk_update(players, ["result", "place", "rating_after", "deviation_after"])
    match.result = result


def _someone_never_moved(match: Match) -> bool:
    # Moves made for a seat (an AI's, a timeout's) are not its player's own.
    moved = set(match.moves.filter(made_by=Move.MadeBy.PLAYER).values_list("seat", flat=True).distinct())
    return len(moved) < len(players_of(match))


def _with_resignations(outcome: Outcome, match: Match) -> Outcome:
    """Seats that resigned earlier lose, whatever the AI that took them over achieved,
    and place behind every seat that played on (among themselves, as the game ranked them)."""
    resigned = {p.seat for p in players_of(match) if p.resigned}
    if not resigned:
        return outcome
    results = tuple(LOSS if seat in resigned else result for seat, result in enumerate(outcome.results))
    places = places_by((seat in resigned, place) for seat, place in enumerate(outcome.places))
    return Outcome(results, outcome.reason, outcome.scores, places)


# --- chat --------------------------------------------------------------------


@write
def chat_post(*, user: User, room_id: int, text: Any) -> ChatMessage:
    status = Room.objects.filter(pk=room_id).values_list("status", flat=True).first()
    if status is None:
        raise NotFound("not_found", words("there is no room %(room)s", room=room_id))
    if status == Room.Status.CLOSED:
        raise Conflict("room_closed", words("this room is closed"))
    if not isinstance(text, str):
        raise Invalid("invalid", words("text must be a string"))
    text = text.strip()
    if not text:
        raise Invalid("invalid", words("a chat message cannot be empty"))
    if len(text) > CHAT_MAX:
        raise Invalid(
            "invalid", words("a chat message is at most %(maximum)s characters, not %(count)s", maximum=CHAT_MAX, count=len(text))
        )
    message = ChatMessage.objects.create(room_id=room_id, user=user, text=text)
    transaction.on_commit(lambda: broadcast.chat_posted(message.pk), robust=True)
    return message
