"""Who watches a room: its open sockets, counted across server processes.

Each room socket has a row (models.RoomSocket) from when it opens to when it
closes, touched on every heartbeat (core.hooks.PRESENCE_SECONDS). Watchers
are the people with a socket open on the room and no seat at it. A server
process that dies leaves its rows behind; they stop counting once nobody has
touched them for STALE_SECONDS, and the next heartbeat in the room removes
them.

The count is taken when a socket opens or closes (and when stale rows go),
and pushed in the room's detail only when it changed: the move path never
reads this table.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.hooks import PRESENCE_SECONDS
from core.prepared import Prepared, PreparedChange, PreparedWrite

from .models import Room, RoomSocket, Seat

# Three missed heartbeats: the socket's process is gone.
STALE_SECONDS = 3 * PRESENCE_SECONDS


def _cutoff() -> datetime:
    return timezone.now() - timedelta(seconds=STALE_SECONDS)


# Every socket's connect and close reads and writes here: the statements are
# compiled once (core.prepared), with these samples marking their values.
_ROOM, _USER, _CHANNEL, _TIME = -7_770_011, -7_770_012, "\x00channel", datetime(2000, 1, 2, 3, 4, 5, 6, tzinfo=UTC)
LIVE_USERS = Prepared(
    lambda room_id, cutoff: RoomSocket.objects.filter(room_id=room_id, seen_at__gte=cutoff).values_list("user_id"),
    _ROOM,
    _TIME,
)
OTHER_SOCKET = Prepared(
    lambda room_id, user_id, cutoff, channel: RoomSocket.objects.filter(room_id=room_id, user_id=user_id, seen_at__gte=cutoff)
    .exclude(channel=channel)
    .values_list("id")[:1],
    _ROOM,
    _USER,
    _TIME,
    _CHANNEL,
)
SEATED = Prepared(lambda room_id, user_id: Seat.objects.filter(room_id=room_id, user_id=user_id).values_list("id")[:1], _ROOM, _USER)
NEW_SOCKET = PreparedWrite(RoomSocket, ignore_conflicts=True)


def _socket(channel: str) -> QuerySet[RoomSocket]:
    return RoomSocket.objects.filter(channel=channel)


SOCKET_SEEN = PreparedChange(_socket, _CHANNEL, update=["seen_at"])
SOCKET_GONE = PreparedChange(_socket, _CHANNEL)
STALE_SOCKETS = PreparedChange(lambda room_id, cutoff: RoomSocket.objects.filter(room_id=room_id, seen_at__lt=cutoff), _ROOM, _TIME)


def watcher_count(room_id: int, seated: set[int] | None = None) -> int:
    """The people with a socket open on the room and no seat at it.

    ``seated``: the ids of the seated users, when the caller has read the
    seats already (a room's detail has): then this is one plain query, and
    the difference is taken here rather than in a subquery the ORM builds
    anew on every socket's connect.
    """
    if seated is None:
        seated = set(Seat.objects.filter(room_id=room_id, user__isnull=False).values_list("user_id", flat=True))
    live = {user_id for (user_id,) in LIVE_USERS.rows(room_id, _cutoff())}
    return len(live - seated)


def watcher_counts(rooms: list[Room]) -> dict[int, int]:
    """watcher_count for a page of rooms in one query (their seats come prefetched)."""
    if not rooms:
        return {}
    seated = {(room.pk, seat.user_id) for room in rooms for seat in room.seats.all() if seat.user_id}
    rows = (
        RoomSocket.objects.filter(room_id__in=[room.pk for room in rooms], seen_at__gte=_cutoff())
        .values_list("room_id", "user_id")
        .distinct()
    )
    counts = {room.pk: 0 for room in rooms}
    for room_id, user_id in rows:
        if (room_id, user_id) not in seated:
            counts[room_id] += 1
    return counts


def _is_seated(room_id: int, user_id: int) -> bool:
    return bool(SEATED.rows(room_id, user_id))


def _watches_elsewhere(room_id: int, user_id: int, channel: str) -> bool:
    """Whether the user has another live socket on the room (another tab)."""
    return bool(OTHER_SOCKET.rows(room_id, user_id, _cutoff(), channel))


def _recount(room_id: int) -> None:
    from .broadcast import room_changed

    # Heartbeats run in a transaction (one write for all their rows): the
    # room hears the new count once it is committed.
    transaction.on_commit(lambda: room_changed(room_id))


def socket_opened(*, room_id: int, user_id: int, channel: str, seated: bool | None = None) -> None:
    """A socket opened on the room; everyone there hears if the count of watchers changed.

    It changes only when someone without a seat opens their first socket on
    the room, so a seated player's connect costs one insert and no count
    (``seated`` comes from the snapshot the socket just sent, when known).
    """
    if seated is None:
        seated = _is_seated(room_id, user_id)
    changes = not seated and not _watches_elsewhere(room_id, user_id, channel)
    # A channel name is new with every socket, and a heartbeat comes here only
    # when its row is gone (removed as stale): so an insert, one statement.
    # Should the row be there after all, it stays (its heartbeats keep it).
    NEW_SOCKET.save(RoomSocket(room_id=room_id, user_id=user_id, channel=channel, seen_at=timezone.now()))
    if changes:
        _recount(room_id)


def socket_seen(*, room_id: int, user_id: int, channel: str) -> None:
    """A heartbeat: this socket is still open. Rows a dead process left go now (rarely:
    the room then hears the count again, whatever it was)."""
    if not SOCKET_SEEN.run(channel, new=(timezone.now(),)):
        # This process stalled long enough for another to remove the row as stale.
        socket_opened(room_id=room_id, user_id=user_id, channel=channel)
    if STALE_SOCKETS.run(room_id, _cutoff()):
        _recount(room_id)


def socket_closed(*, room_id: int, user_id: int, channel: str) -> None:
    """The socket closed; as with opening, only a watcher's last socket changes the count."""
    SOCKET_GONE.run(channel)
    if not _is_seated(room_id, user_id) and not _watches_elsewhere(room_id, user_id, channel):
        _recount(room_id)
