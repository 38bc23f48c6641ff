"""The sockets: authenticate, join groups, send a snapshot, relay pushes.

No rules and no writes here: moves go through the REST API. Two sockets:

- ``/ws/rooms/<id>/``: a room. Anyone logged in may watch; what a client
  receives is the view of its own seat only.
- ``/ws/me/``: the user's own, wherever they are on the site: what apps tell
  the user (``broadcast.to_user``: a pairing, their seeks, a solve's
  progress), and a sign that the user is still there (``core.hooks``).

Both also relay the user's personal messages, so a page with only a room
socket open still hears of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.conf import settings
from django.db import transaction

from core import hooks, throttle
from core.i18n import translate

from . import watchers
from .engines.words import words
from .broadcast import remember_server_loop, room_group, room_user_group, user_group
from .selectors import current_match, match_detail, room_detail, room_with_match, viewer_seat

log = logging.getLogger(__name__)

# Retrying a failed channel layer: first after this long, doubling up to the most.
LAYER_RETRY_FIRST = 0.1
LAYER_RETRY_MAX = 2.0

# Close codes (4000-4999 are the application's own).
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
# Sent more messages than settings.THROTTLE_RATES["socket"] allows.
CLOSE_THROTTLED = 4429


class Socket(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """What both sockets share: joining groups, relaying, and telling the site the user is here."""

    groups_joined: list[str]
    presence: asyncio.Task[None] | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Channels' consumer loop, with a channel layer that may fail for a while.

        A slow or unreachable Redis made Channels' receive raise, which closed
        the socket (1011). Here the socket stays open: the receive retries
        with backoff, and once the layer answers again the socket joins its
        groups anew (a restarted Redis forgot them) and sends the client a
        fresh snapshot, standing in for the pushes it missed meanwhile.
        """
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_name = await self.channel_layer.new_channel()
        self.channel_receive = self._receive_from_layer
        self.base_send = send
        with contextlib.suppress(StopConsumer):
            await await_many_dispatch([receive, self.channel_receive], self.dispatch)

    async def _receive_from_layer(self) -> dict[str, Any]:
        delay = LAYER_RETRY_FIRST
        failed = False
        while True:
            try:
                message = await self.channel_layer.receive(self.channel_name)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not failed:
                    log.warning("channel layer receive failed (%s); retrying", error)
                failed = True
                await asyncio.sleep(delay)
                delay = min(delay * 2, LAYER_RETRY_MAX)
                continue
            if failed:
                # Handle the message after catching up: it is newer than the snapshot's version at worst.
                await self.layer_recovered({})
            return dict(message)

    async def layer_recovered(self, event: dict[str, Any]) -> None:
        for group in getattr(self, "groups_joined", []):
            with contextlib.suppress(Exception):
                await self.channel_layer.group_add(group, self.channel_name)
        await self.resync()

    async def resync(self) -> None:
        """Send the client what it may have missed while pushes could not reach it."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, less its connection clean-up before every message.

        That clean-up is a hop to a database thread per message per socket,
        and the pushes relayed here touch no database; what does runs through
        ``database_sync_to_async``, which cleans up around itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def join(self, groups: list[str]) -> None:
        remember_server_loop(asyncio.get_running_loop())
        self.groups_joined = groups
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """Channels' own, less its closing of old database connections afterwards.

        That closing is one more hop to the database thread for every socket
        that closes, and it has nothing to do: every database call a socket
        makes goes through ``database_sync_to_async``, which closes them around
        itself. (Channels' class-level ``groups`` are not used here: join()
        keeps the groups, and disconnect() leaves them.)
        """
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []
        if self.presence is not None:
            self.presence.cancel()
            self.presence = None

    def keep_present(self, user_id: int, *, beat_now: bool = True) -> None:
        """Tell the apps this user is here now and every PRESENCE_SECONDS while the socket is open.

        ``beat_now=False``: the caller already gave the first beat.
        """
        self.presence = asyncio.get_running_loop().create_task(self._present(user_id, beat_now))

    async def _present(self, user_id: int, beat_now: bool) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            if not beat_now:
                await asyncio.sleep(hooks.PRESENCE_SECONDS)
            while True:
                await database_sync_to_async(self.heartbeat)(user_id)
                await asyncio.sleep(hooks.PRESENCE_SECONDS)

    def heartbeat(self, user_id: int) -> None:
        """One sign that the socket is still open (in a database thread).

        One transaction for all it writes: on SQLite, one turn among the
        process's writers (core/db/sqlite) instead of one per row.
        """
        with transaction.atomic():
            self.beat(user_id)

    def beat(self, user_id: int) -> None:
        hooks.present(user_id)

    async def relay(self, event: dict[str, Any]) -> None:
        await self.send_json(event["message"])

    # --- what clients send --------------------------------------------------

    frames = 0
    frames_since = 0.0

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """Every frame a client sends: counted against its limit, then read as JSON.

        A frame that is not a JSON object gets an error message back, not a
        traceback in the log and a dead socket; a socket that sends faster
        than throttle allows ("socket": count per seconds) is told so and
        closed with CLOSE_THROTTLED.
        """
        if self.over_limit():
            count, seconds = settings.THROTTLE_RATES["socket"]
            await self.send_json({
                "type": "error", "code": "throttled",
                "detail": translate(words("too many messages on this socket (at most %(count)s in %(seconds)s s); "
                                          "reconnect later", count=count, seconds=seconds)),
            })
            await self.close(code=CLOSE_THROTTLED)
            return
        try:
            content = await self.decode_json(text_data) if text_data else None
        except ValueError:
            content = None
        if not isinstance(content, dict):
            await self.send_json({
                "type": "error", "code": "bad_frame",
                "detail": translate(words("a message is a JSON object such as {\"type\": \"refresh\"}")),
            })
            return
        await self.receive_json(content, **kwargs)

    def over_limit(self) -> bool:
        if not throttle.enabled():
            return False
        count, seconds = settings.THROTTLE_RATES["socket"]
        now = time.monotonic()
        if now - self.frames_since >= seconds:
            self.frames, self.frames_since = 0, now
        self.frames += 1
        return self.frames > count

    async def refuse(self, code: int, reason: str) -> None:
        """Accept, then close with ``code``: a close before the handshake is sent
        as HTTP 403, and a browser sees only 1006, not why."""
        await self.accept()
        await self.close(code=code, reason=reason)


class RoomConsumer(Socket):
    room_id: int
    # The socket's row among the room's open sockets (games.watchers), once accepted.
    counted = False

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED, "log in first")
            return
        # Join before reading the snapshot: a move committed in between is
        # then pushed to us too (the page keeps the newest version), where
        # joining after would lose it and show a stale turn until the next move.
        await self.join([room_group(self.room_id), room_user_group(self.room_id, user.pk), user_group(user.pk)])
        snapshot = await database_sync_to_async(self.opened)(user)
        if snapshot is None:
            await self.disconnect(CLOSE_NOT_FOUND)
            await self.refuse(CLOSE_NOT_FOUND, "no such room")
            return
        # The row is written: closing from here on removes it, accepted or not.
        self.counted = True
        await self.accept()
        for message in snapshot:
            await self.send_json(message)
        self.keep_present(user.pk, beat_now=False)

    def opened(self, user: Any) -> list[dict[str, Any]] | None:
        """The snapshot, then the socket's row and the first presence beat: one trip to a
        database thread for the whole connect. A change of the watcher count this
        causes is pushed after commit, so it reaches this socket after the snapshot."""
        snapshot = self.snapshot(user)
        if snapshot is not None:
            seated = any(seat["username"] == user.username for seat in snapshot[0]["room"]["seats"])
            with transaction.atomic():
                watchers.socket_opened(room_id=self.room_id, user_id=user.pk, channel=self.channel_name, seated=seated)
                hooks.present(user.pk)
        return snapshot

    def beat(self, user_id: int) -> None:
        super().beat(user_id)
        watchers.socket_seen(room_id=self.room_id, user_id=user_id, channel=self.channel_name)

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        if self.counted:
            self.counted = False
            await database_sync_to_async(watchers.socket_closed)(
                room_id=self.room_id, user_id=self.scope["user"].pk, channel=self.channel_name
            )

    async def resync(self) -> None:
        for message in await database_sync_to_async(self.snapshot)(self.scope["user"]) or []:
            await self.send_json(message)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # Clients may ask for a fresh snapshot (after a version gap); nothing else.
        if isinstance(content, dict) and content.get("type") == "refresh":
            await self.resync()
        else:
            await self.send_json(
                {"type": "error", "code": "unsupported",
                 "detail": translate(words("moves and chat go through the REST API"))}
            )

    def snapshot(self, user: Any) -> list[dict[str, Any]] | None:
        room = room_with_match(self.room_id)
        if room is None:
            return None
        messages: list[dict[str, Any]] = [{"type": "room", "room": room_detail(room)}]
        match = current_match(room)
        if match is not None:
            messages.append({"type": "state", "match": match_detail(match, viewer_seat(match, user))})
        return messages

    # --- group events ------------------------------------------------------

    async def room_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "room", "room": event["room"]})

    async def match_public(self, event: dict[str, Any]) -> None:
        # Players who get their own seat's view (match.seat) skip the public one.
        if self.scope["user"].pk not in event["skip"]:
            await self.send_json({"type": "state", "match": event["view"]})

    async def match_seat(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "state", "match": event["view"]})

    async def chat_posted(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "chat", "message": event["message"]})


class UserConsumer(Socket):
    """``/ws/me/``: the user's own socket. Greets with what apps want said first (open seeks)."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED, "log in first")
            return
        await self.join([user_group(user.pk)])
        await self.accept()
        await self.resync()
        self.keep_present(user.pk)

    async def resync(self) -> None:
        for message in await database_sync_to_async(hooks.greetings)(self.scope["user"].pk):
            await self.send_json(message)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_json(
            {"type": "error", "code": "unsupported", "detail": translate(words("this socket only listens"))}
        )
