"""Pushes to the WebSocket groups, called only after a write commits.

One group per room (``room-<id>``). A match change carries every seat's view
and the spectators' view; each consumer forwards only the one meant for its
own user, so another seat's hidden cards reach this server's consumers but
never a client that may not see them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from .models import ChatMessage, Match, Room
from .selectors import chat_json, match_detail, match_state, players_of, room_detail

log = logging.getLogger(__name__)


def room_group(room_id: int) -> str:
    return f"room-{room_id}"


def user_group(user_id: int) -> str:
    """Every socket of one user: for what concerns the user, not a room (solve jobs)."""
    return f"user-{user_id}"


_server_loop: asyncio.AbstractEventLoop | None = None


def remember_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    """The event loop the sockets live on (consumers call this on connect)."""
    global _server_loop
    _server_loop = loop


def _send_group(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        loop = _server_loop
        if isinstance(layer, InMemoryChannelLayer) and loop is not None and not loop.is_closed() and _in_background():
            # The in-memory layer's queues belong to the sockets' loop; from a
            # thread of our own (scheduler, solves) async_to_sync would run the
            # send on another loop, and the consumer would only wake at the
            # server's next housekeeping tick, up to a second later.
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(timeout=5)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # a push that fails must not undo a committed move
        log.exception("push to %s failed", group)


def _in_background() -> bool:
    """True in our own background threads, which asgiref does not know of.

    Request threads (sync views under daphne) are asgiref's: async_to_sync
    already hands their sends to the server loop.
    """
    return bool(getattr(_background, "on", False))


_background = threading.local()


def mark_background_thread() -> None:
    """Called by the scheduler's and the solve runner's threads when they start."""
    _background.on = True


def _send(room_id: int, message: dict[str, Any]) -> None:
    _send_group(room_group(room_id), message)


def room_changed(room_id: int) -> None:
    room = Room.objects.select_related("host").get(pk=room_id)
    _send(room_id, {"type": "room.changed", "room": room_detail(room)})


def match_views(match: Match) -> dict[str, Any]:
    """Every seat's view of ``match`` plus a spectator's, keyed by seat (``"-"`` for spectators)."""
    state = match_state(match)
    views: dict[str, Any] = {"-": match_detail(match, None, state)}
    for player in players_of(match):
        views[str(player.seat)] = match_detail(match, player.seat, state)
    return views


def match_changed(match_id: int) -> None:
    match = Match.objects.select_related("room").get(pk=match_id)
    seats = {str(p.user_id): p.seat for p in players_of(match) if p.user_id is not None}
    _send(
        match.room_id,
        {"type": "match.changed", "match": match.pk, "seats": seats, "views": match_views(match)},
    )


def chat_posted(message_id: int) -> None:
    message = ChatMessage.objects.select_related("user").get(pk=message_id)
    _send(message.room_id, {"type": "chat.posted", "message": chat_json(message)})


def solve_changed(job_id: Any) -> None:
    from .sokoban.models import SolveJob
    from .sokoban.selectors import job_json

    job = SolveJob.objects.get(pk=job_id)
    _send_group(user_group(job.user_id), {"type": "solve.changed", "job": job_json(job)})
