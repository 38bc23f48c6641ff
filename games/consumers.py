"""The room socket: authenticate, join the room's group, send a snapshot, relay pushes.

No rules and no writes here: moves go through the REST API. Anyone logged in
may watch; what a client receives is the view of its own seat only.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.consumer import get_handler_name

from .broadcast import remember_server_loop, room_group, room_user_group, user_group
from .models import Room
from .selectors import current_match, match_detail, room_detail, viewer_seat

# Close codes (4000-4999 are the application's own).
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404


class RoomConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    room_id: int
    groups_joined: list[str]

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, less its connection clean-up before every message.

        That clean-up is a hop to a database thread per message per socket,
        and the pushes this consumer relays touch no database; the one method
        that does (``_snapshot``) runs through ``database_sync_to_async``,
        which cleans up around itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        remember_server_loop(asyncio.get_running_loop())
        # Join before reading the snapshot: a move committed in between is
        # then pushed to us too (the page keeps the newest version), where
        # joining after would lose it and show a stale turn until the next move.
        self.groups_joined = [room_group(self.room_id), room_user_group(self.room_id, user.pk), user_group(user.pk)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        snapshot = await self._snapshot(user)
        if snapshot is None:
            await self.disconnect(CLOSE_NOT_FOUND)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        for message in snapshot:
            await self.send_json(message)

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # Clients may ask for a fresh snapshot (after a version gap); nothing else.
        if isinstance(content, dict) and content.get("type") == "refresh":
            snapshot = await self._snapshot(self.scope["user"])
            for message in snapshot or []:
                await self.send_json(message)
        else:
            await self.send_json(
                {"type": "error", "code": "unsupported", "detail": "moves and chat go through the REST API"}
            )

    @database_sync_to_async
    def _snapshot(self, user: Any) -> list[dict[str, Any]] | None:
        room = Room.objects.select_related("host").filter(pk=self.room_id).first()
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

    async def solve_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "solve", "job": event["job"]})


