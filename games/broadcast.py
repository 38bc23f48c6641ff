"""Pushes to the WebSocket groups, called only after a write commits.

Groups: one per room (``room-<id>``: every socket watching it), one per user
in a room (``room-<id>-user-<uid>``: where that user's own seat view goes),
and one per user (``user-<uid>``: what concerns the user wherever they are).
A seat's view, which may hold hidden cards, only ever enters its own player's
group; everyone else gets the public view.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from .models import ChatMessage, Match
from .selectors import chat_json, match_detail, match_state, room_detail, room_with_match, seat_views

log = logging.getLogger(__name__)


def room_group(room_id: int) -> str:
    return f"room-{room_id}"


def room_user_group(room_id: int, user_id: int) -> str:
    """One user's sockets in one room: where their seat's own view goes."""
    return f"room-{room_id}-user-{user_id}"


def user_group(user_id: int) -> str:
    """Every socket of one user: for what concerns the user, not a room (solve jobs)."""
    return f"user-{user_id}"


_server_loop: asyncio.AbstractEventLoop | None = None
# A push that takes longer is given up by the caller (and logged); the
# clients then see a version gap at the next push and refetch.
SEND_TIMEOUT_SECONDS = 5.0
# How long a push is retried while the channel layer fails.
PUSH_RETRY_SECONDS = 15.0


def remember_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    """The event loop the sockets live on (set at start-up, and by consumers on connect)."""
    global _server_loop
    _server_loop = loop


Push = tuple[str, dict[str, Any]]  # (group, message)


def _send_group(group: str, message: dict[str, Any]) -> None:
    _deliver([(group, message)])


def _deliver(pushes: list[Push]) -> None:
    """Hand pushes to the server's loop, in order, and wait until they are sent; never raise.

    Pushes are made after a commit by threads that are not the loop's: the
    HTTP pool's, the scheduler's, the solves'. The sending itself is the
    loop's work: the in-memory layer's queues belong to that loop, and the
    Redis layer keeps its connections per loop. All pushes of one change go
    over in one hand-over, and the caller waits for them, so that when a
    move's POST is answered its pushes have left, in the order they were
    made. Redis's layer is the exception: a thread publishes there itself,
    over blocking connections, and only what fails goes to the loop. Without
    a running server loop (management commands, plain tests) they are sent
    on a loop of its own, as asgiref does it.
    """
    if connection.in_atomic_block:
        # Every push leaves after commit (transaction.on_commit): one sent from
        # inside a transaction could announce what a rollback then undoes.
        groups = _groups(pushes)
        if settings.STRICT_PUSHES:
            raise RuntimeError(f"a push to {groups} was made inside a transaction; push on commit")
        log.error("a push to %s was made inside a transaction", groups)
    layer = get_channel_layer()
    if layer is None or not pushes:
        return
    loop = _server_loop
    try:
        if loop is not None and loop.is_running():
            if _running_loop() is loop:
                loop.create_task(_send_all(layer, pushes))
            elif not _published_from_this_thread(layer, pushes):
                sent = asyncio.run_coroutine_threadsafe(_send_all(layer, pushes), loop)
                try:
                    sent.result(timeout=SEND_TIMEOUT_SECONDS)
                except concurrent.futures.TimeoutError:
                    # The layer is slow: the loop goes on retrying; the caller goes on.
                    log.warning("pushes to %s still retrying", _groups(pushes))
        else:
            async_to_sync(_send_all)(layer, pushes)
    except Exception:  # a push that fails must not undo a committed move
        log.exception("pushes to %s failed", _groups(pushes))


def _published_from_this_thread(layer: Any, pushes: list[Push]) -> bool:
    """Whether the layer sent the pushes from this thread itself (Redis's: core/layers.py).

    If it fails (Redis slow or away), they go to the loop as before, which
    retries; a push that did reach Redis may then arrive twice, with the
    same version, which clients take as it is.
    """
    publish = getattr(layer, "publish_from_thread", None)
    if publish is None:
        return False
    try:
        return bool(publish(pushes))
    except Exception as error:
        log.warning("pushes to %s from a request's thread failed (%s); the server's loop retries them", _groups(pushes), error)
        return False


def _groups(pushes: list[Push]) -> str:
    """The groups of some pushes, for the log."""
    return ", ".join(group for group, _ in pushes)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


async def _send_all(layer: Any, pushes: list[Push]) -> None:
    if hasattr(layer, "group_send_many"):  # our layers: one change's pushes in one go
        await _send_with_retries(_groups(pushes), functools.partial(layer.group_send_many, pushes))
    else:
        for group, message in pushes:
            await _send_with_retries(group, functools.partial(layer.group_send, group, message))


async def _send_with_retries(groups: str, send: Callable[[], Awaitable[None]]) -> None:
    """A send, tried again while the layer fails (Redis slow or briefly away).

    After PUSH_RETRY_SECONDS it is given up: by then the sockets' own
    receive has failed too, and each sends its client a fresh snapshot when
    the layer is back, so nothing stays missed. A send of several pushes is
    tried again whole: a push that had gone before the failure may then
    arrive twice, with the same version, which clients take as it is.
    """
    delay, waited = 0.05, 0.0
    while True:
        try:
            await send()
            return
        except Exception as error:
            if waited >= PUSH_RETRY_SECONDS:
                log.error("push to %s given up after %.0f s: %s", groups, waited, error)
                return
            await asyncio.sleep(delay)
            waited += delay
            delay = min(delay * 2, 1.0)


def _send(room_id: int, message: dict[str, Any]) -> None:
    _send_group(room_group(room_id), message)


def room_changed(room_id: int) -> None:
    room = room_with_match(room_id)
    if room is None:  # deleted meanwhile (its last socket closing, say): nobody is left to tell
        return
    _send(room_id, {"type": "room.changed", "room": room_detail(room)})


def match_changed(match: Match) -> None:
    """Push ``match`` to its room: each seat's view to that seat's player only, the public view to the rest.

    Hidden information (a Manhattan hand) is sent only to the group of the
    one user who may see it; the public view goes to the room with the list of
    users who get their own, so their sockets skip it.
    """
    state = match_state(match)
    own_view = seat_views(match)
    public = {"type": "match.public", "view": match_detail(match, None, state), "skip": list(own_view)}
    pushes: list[Push] = [(room_group(match.room_id), public)]
    for user_id, seat in own_view.items():
        own = {"type": "match.seat", "view": match_detail(match, seat, state)}
        pushes.append((room_user_group(match.room_id, user_id), own))
    _deliver(pushes)


def chat_posted(message_id: int) -> None:
    message = ChatMessage.objects.select_related("user").get(pk=message_id)
    _send(message.room_id, {"type": "chat.posted", "message": chat_json(message)})


def to_room(room_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` as it is to every socket watching the room (a review's progress)."""
    _send_group(room_group(room_id), {"type": "relay", "message": message})


def to_user(user_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` as it is to every socket of one user (their /ws/me/ and room sockets).

    What an app tells a user wherever they are (a pairing, a solve's
    progress) travels this way; the sockets relay it without knowing it.
    """
    _send_group(user_group(user_id), {"type": "relay", "message": message})
