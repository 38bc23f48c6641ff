"""Reads that need logic: a viewer's picture of a room or a match, and lists.

Every payload a client receives, over REST or the WebSocket, is built here, so
the two always agree, and hidden information leaves only through
``engine.view(state, seat)`` for the viewer's own seat.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from accounts.models import User
from accounts.services import AWAY_SECONDS
from core.prepared import Prepared
from ratings.glicko2 import DEFAULT_DEVIATION, DEFAULT_RATING, PROVISIONAL_DEVIATION
from ratings.models import Rating
from ratings.selectors import standings

from .engines.base import JSON, Engine
from .engines.bots import bot_levels
from .engines.registry import ENGINES, get_engine
from .models import ChatMessage, Match, Move, Player, Room, Seat
from .options import catalogue_options, engine_options
from .pools import pool_of
from .watchers import watcher_count, watcher_counts


def engine_for(game: str) -> Engine[Any, Any]:
    return get_engine(game)


def catalogue() -> list[JSON]:
    games = []
    for engine in ENGINES.values():
        entry = engine.catalogue().to_json()
        entry["options"] = catalogue_options(engine)
        entry["player_counts"] = list(
            engine.player_counts or range(engine.min_players, engine.max_players + 1)
        )
        entry["bots"] = bot_levels(engine.slug)
        entry["ai_levels"] = [level.to_json() for level in engine.bot_levels()]
        # The rating pool of each seat count that has one ({"2": "<slug>", "4": "<slug>-4"}).
        entry["pools"] = {str(count): pool for count in entry["player_counts"] if (pool := pool_of(engine.slug, count))}
        games.append(entry)
    return games


def current_match(room: Room) -> Match | None:
    """The room's latest match, read once per Room instance (a page or socket snapshot asks twice)."""
    if "_current_match" not in room.__dict__:
        room.__dict__["_current_match"] = room.matches.order_by("-number").first()
    found: Match | None = room.__dict__["_current_match"]
    return found


# Read at every socket's connect: compiled once (core.prepared).
CURRENT_MATCH = Prepared(
    lambda room_id: Match.objects.select_related("room__host").filter(room_id=room_id).order_by("-number")[:1], -7_770_003
)


ROOM = Prepared(lambda room_id: Room.objects.select_related("host").filter(pk=room_id), -7_770_005)


def _pool_rating(pool: str, field: str) -> Subquery:
    """A seat's player's rating (or deviation) in ``pool``, as a column of the seats' read."""
    return Subquery(Rating.objects.filter(pool=pool, user_id=OuterRef("user_id")).values(field)[:1])


# The room's seats with their users and each seated player's rating in the
# room's pool: one read at every socket's connect, compiled once.
SEATS = Prepared(
    lambda room_id, pool: Seat.objects.select_related("user")
    .filter(room_id=room_id)
    .annotate(pool_rating=_pool_rating(pool, "rating"), pool_deviation=_pool_rating(pool, "deviation"))
    .order_by("index"),
    -7_770_004,
    "\x00pool",
)


def room_with_match(room_id: int) -> Room | None:
    """The room with what its detail shows, in two reads (a socket's snapshot, a room's push):
    the room with its current match, then its seats with their players' ratings."""
    match = CURRENT_MATCH.first(room_id)
    room = match.room if match is not None else ROOM.first(room_id)
    if room is None:
        return None
    room.__dict__["_current_match"] = match
    seats = SEATS.all(room.pk, room.pool or "")
    room.__dict__["_seats"] = seats
    if room.pool:
        # As ratings.selectors.standings gives them: the defaults for a player not yet rated there.
        room.__dict__["_seat_ratings"] = {
            seat.user_id: (
                seat.pool_rating if seat.pool_rating is not None else DEFAULT_RATING,  # type: ignore[attr-defined]
                seat.pool_deviation if seat.pool_deviation is not None else DEFAULT_DEVIATION,  # type: ignore[attr-defined]
            )
            for seat in seats
            if seat.user_id
        }
    return room


def _prefetched(instance: Any, name: str) -> bool:
    return name in getattr(instance, "_prefetched_objects_cache", {})


def room_detail(room: Room) -> JSON:
    # In the lobby the seats and matches come prefetched for the whole page.
    if _prefetched(room, "matches"):
        match = max(room.matches.all(), key=lambda m: m.number, default=None)
    else:
        match = current_match(room)
    if "_seats" in room.__dict__:  # read with the room (room_with_match)
        seats = room.__dict__["_seats"]
    elif _prefetched(room, "seats"):
        seats = sorted(room.seats.all(), key=lambda seat: seat.index)
    else:
        seats = list(room.seats.select_related("user").order_by("index"))
    ratings: dict[int, tuple[float, float]] = room.__dict__.get("_seat_ratings") or _ratings_in(
        room.pool, [seat.user_id for seat in seats if seat.user_id]
    )
    return {
        "id": room.pk,
        "game": room.game,
        "options": room.options,
        "status": room.status,
        "code": room.code,
        "host": room.host.username,
        "seats": [
            {
                "seat": seat.index,
                "username": seat.user.username if seat.user else None,
                "name": seat.user.shown_name if seat.user else None,
                "bot": seat.bot or None,
                "rating": round(ratings[seat.user_id][0]) if seat.user_id in ratings else None,
                "provisional": ratings[seat.user_id][1] >= PROVISIONAL_DEVIATION if seat.user_id in ratings else None,
            }
            for seat in seats
        ],
        "match": match.pk if match else None,
        "rematch": _rematch_json(room, seats),
        # People with the room open and no seat (games.watchers); counted
        # when a socket comes or goes, never on a move.
        "watchers": room.__dict__["_watchers"] if "_watchers" in room.__dict__ else watcher_count(
            room.pk, {seat.user_id for seat in seats if seat.user_id}
        ),
        "created_at": room.created_at.isoformat(),
    }


def rematch_offer(room: Room) -> dict[str, Any] | None:
    """The offer standing at ``room`` now, or None (none made, declined, or lapsed)."""
    offer = room.rematch
    if not offer or "expires_at" not in offer:
        return None
    if timezone.now() >= datetime.fromisoformat(offer["expires_at"]):
        return None
    return dict(offer)


def _rematch_json(room: Room, seats: list[Any]) -> JSON | None:
    """The rematch on offer (who accepted, whom it waits for), or who declined the last one."""
    names = {seat.user_id: seat.user.username for seat in seats if seat.user_id}
    offer = rematch_offer(room)
    if offer is not None:
        return {
            "offered_by": names.get(offer["by"]),
            "accepted": [names[user] for user in offer["accepted"] if user in names],
            "waiting_for": [name for user, name in names.items() if user not in offer["accepted"]],
            "expires_at": offer["expires_at"],
        }
    if room.rematch and "declined_by" in room.rematch:
        return {"declined_by": names.get(room.rematch["declined_by"])}
    return None


def _ratings_in(pool: str, user_ids: list[int]) -> dict[int, tuple[float, float]]:
    return standings(pool, user_ids) if pool and user_ids else {}


def attach_seat_ratings(rooms: list[Room]) -> None:
    """Each room's seated players' ratings in its pool, read in one query for a whole page
    (the rooms' seats come prefetched)."""
    wanted = {(room.pool, seat.user_id) for room in rooms if room.pool for seat in room.seats.all() if seat.user_id}
    found: dict[tuple[str, int], tuple[float, float]] = {}
    if wanted:
        rows = Rating.objects.filter(
            pool__in={pool for pool, _ in wanted}, user_id__in={user for _, user in wanted}
        ).values_list("pool", "user_id", "rating", "deviation")
        found = {(pool, user): (rating, deviation) for pool, user, rating, deviation in rows}
    for room in rooms:
        room.__dict__["_seat_ratings"] = {
            user: found.get((pool, user), (DEFAULT_RATING, DEFAULT_DEVIATION)) for pool, user in wanted if pool == room.pool
        }


def prepare_lobby(rooms: list[Room]) -> None:
    """What a page of the lobby needs beyond its rows, read once for the page: seat ratings, watchers."""
    attach_seat_ratings(rooms)
    counts = watcher_counts(rooms)
    for room in rooms:
        room.__dict__["_watchers"] = counts[room.pk]


def rooms_for_lobby(
    *, game: str | None = None, status: str | None = None, code: str | None = None
) -> QuerySet[Room]:
    rooms = Room.objects.select_related("host").prefetch_related("seats__user", "matches")
    if code:
        rooms = rooms.filter(code=code.strip().upper())
    if game:
        rooms = rooms.filter(game=game)
    if status:
        rooms = rooms.filter(status=status)
    return rooms.order_by("-created_at")


def matches_for(
    *, user: User | None = None, status: str | None = None, game: str | None = None
) -> QuerySet[Match]:
    matches = Match.objects.select_related("room").prefetch_related("players__user")
    if user is not None:
        matches = matches.filter(players__user=user)
    if status:
        matches = matches.filter(status=status)
    if game:
        matches = matches.filter(room__game=game)
    return matches.order_by("-updated_at", "-id").distinct()


def match_state(match: Match) -> Any:
    """The engine state of ``match`` now: the cached snapshot if it is current, else a replay.

    Kept on the instance for its version, so a move's write, its pushes and
    its response deserialise the position once between them.
    """
    known: tuple[int, Any] | None = getattr(match, "_state_at", None)
    if known is not None and known[0] == match.version:
        return known[1]
    engine = engine_for(match.room.game)
    if match.snapshot is not None and match.snapshot_version == match.version:
        state = engine.deserialize(match.snapshot)
    else:
        state = state_after(match, None)
    remember_state(match, state)
    return state


def remember_state(match: Match, state: Any) -> None:
    """``state`` is ``match``'s position at its current version (services call this after a move)."""
    match._state_at = (match.version, state)  # type: ignore[attr-defined]


def state_after(match: Match, ply: int | None) -> Any:
    """The state after the first ``ply`` moves (all of them for None), replayed from the log."""
    engine = engine_for(match.room.game)
    moves = match.moves.order_by("ply")
    if ply is not None:
        moves = moves.filter(ply__lte=ply)
    return engine.replay(
        match.room.players,
        engine_options(engine, match.room.options),
        match.seed,
        moves.values_list("seat", "notation"),
    )


def seat_of(match: Match, user: Any) -> int | None:
    """The engine seat ``user`` plays in ``match``, or None for a spectator."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for player in players_of(match):
        if player.user_id == user.pk:
            return player.seat
    return None


def viewer_seat(match: Match, user: Any) -> int | None:
    """The seat whose view ``user`` gets: their own, or None to watch as a spectator."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return seat_views(match).get(user.pk)


def seat_views(match: Match) -> dict[int, int]:
    """User id -> the seat whose view that user gets, for every player who gets one.

    A player who resigned from a game of three or more watches the rest as a
    spectator: the AI now holding the seat is dealt cards they must not see.
    """
    return {p.user_id: p.seat for p in players_of(match) if p.user_id is not None and not p.resigned}


def players_of(match: Match) -> list[Player]:
    """The match's players by seat, read once per Match instance (prefetched where listed)."""
    cached: list[Player] | None = getattr(match, "_players_cache", None)
    if cached is None and _prefetched(match, "players"):
        cached = sorted(match.players.all(), key=lambda p: p.seat)
    if cached is None:
        cached = PLAYERS.all(match.pk)
        match._players_cache = cached  # type: ignore[attr-defined]
    return cached


# Read at every move: compiled once (core.prepared).
PLAYERS = Prepared(lambda match_id: Player.objects.select_related("user").filter(match_id=match_id).order_by("seat"), -7_770_002)


def players_json(match: Match) -> list[JSON]:
    return [
        {
            "seat": p.seat,
            "username": p.user.username if p.user else None,
            "name": p.user.shown_name if p.user else None,
            "bot": p.bot or None,
            "resigned": p.resigned,
            # Gone away (turns ran out with no socket open, or claimed against).
            "abandoned": p.abandoned,
            # The rating the player came to this match with (rated or not).
            "rating": round(p.rating) if p.rating is not None else None,
        }
        for p in players_of(match)
    ]


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


# A player away this long on their turn of an untimed game may be claimed
# against (lichess's rule; timed games have the turn timer instead).
CLAIM_AFTER_SECONDS = 60


def claim_after(match: Match, seat: int | None) -> datetime | None:
    """When the others may claim against ``seat`` (to move in an untimed game) if its player stays away.

    Both must hold: the turn has lasted CLAIM_AFTER_SECONDS, and the player
    has had no socket open for AWAY_SECONDS. None where no claim can be made.
    """
    if match.status != Match.Status.ACTIVE or seat is None or match.room.options.get("turn_seconds"):
        return None
    player = players_of(match)[seat]
    if player.user is None or player.bot:
        return None
    turn_over = match.updated_at + timedelta(seconds=CLAIM_AFTER_SECONDS)
    seen = player.user.last_seen
    away = seen + timedelta(seconds=AWAY_SECONDS + 1) if seen is not None else turn_over
    return max(turn_over, away)


def match_detail(match: Match, seat: int | None, state: Any = None) -> JSON:
    """The match as ``seat`` sees it (None: a spectator).

    Built once per seat and version on this instance: a move's pushes and
    its response share them. Callers must not change what they get.
    """
    built: dict[tuple[int, int | None], JSON] = match.__dict__.setdefault("_details", {})
    key = (match.version, seat)
    if key not in built:
        built[key] = _match_detail(match, seat, state)
    return built[key]


def _match_detail(match: Match, seat: int | None, state: Any) -> JSON:
    engine = engine_for(match.room.game)
    if state is None:
        state = match_state(match)
    active = match.status == Match.Status.ACTIVE
    to_move = list(engine.to_move(state)) if active else []
    legal = engine.legal_moves(state, seat) if active and seat is not None and seat in to_move else []
    return {
        "id": match.pk,
        "room": match.room_id,
        "game": match.room.game,
        "number": match.number,
        "status": match.status,
        "rated": match.rated,
        "players": players_json(match),
        "seat": seat,
        "version": match.version,
        "state": engine.view(state, seat),
        "to_move": to_move,
        "legal_moves": legal,
        "result": match.result,
        "turn_deadline": match.turn_deadline.isoformat() if match.turn_deadline else None,
        # Untimed games: from when the others may claim against the player to
        # move, should that player stay away (the server checks again then).
        "claim_after": _iso(claim_after(match, to_move[0] if to_move else None)),
        "created_at": match.created_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
    }


def match_summary(match: Match) -> JSON:
    """A line of a match list: who plays and whose turn it is, but no view."""
    to_move: list[int] = []
    if match.status == Match.Status.ACTIVE:
        to_move = list(engine_for(match.room.game).to_move(match_state(match)))
    return {
        "to_move": to_move,
        "id": match.pk,
        "room": match.room_id,
        "game": match.room.game,
        "number": match.number,
        "status": match.status,
        "rated": match.rated,
        "players": players_json(match),
        "version": match.version,
        "result": match.result,
        "created_at": match.created_at.isoformat(),
        "updated_at": match.updated_at.isoformat(),
        "finished_at": _iso(match.finished_at),
    }


def move_list(match: Match) -> list[JSON]:
    names = {p.seat: (p.user.username if p.user else None) for p in players_of(match)}
    return [
        {
            "ply": move.ply,
            "seat": move.seat,
            "username": names.get(move.seat),
            "move": move.notation,
            "text": move.text,
            # The same in any language: {"text": template, "args"} (plain text: no args).
            "words": move.words or {"text": move.text, "args": {}},
            "made_by": move.made_by,
            "created_at": move.created_at.isoformat(),
        }
        for move in Move.objects.filter(match=match).order_by("ply")
    ]


def chat_json(message: ChatMessage) -> JSON:
    return {
        "id": message.pk,
        "username": message.user.username,
        "text": message.text,
        "created_at": message.created_at.isoformat(),
    }


def chat_for(room: Room, limit: int = 200) -> list[JSON]:
    recent = ChatMessage.objects.filter(room=room).select_related("user").order_by("-created_at", "-id")
    return [chat_json(m) for m in reversed(list(recent[:limit]))]


