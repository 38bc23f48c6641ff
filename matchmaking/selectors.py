"""Reads of seeks."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User

from .models import Seek


def seek_json(seek: Seek) -> dict[str, Any]:
    ended = seek.ended_at or timezone.now()
    return {
        "id": seek.pk,
        "game": seek.game,
        "players": seek.players,
        "pool": seek.pool,
        "rated": seek.rated,
        "options": seek.options,
        "fill_with_ai_after": seek.fill_with_ai_after,
        "status": seek.status,
        "reason": seek.reason or None,
        "room": seek.room_id,
        "match": seek.match_id,
        "created_at": seek.created_at.isoformat(),
        "waited": round((ended - seek.created_at).total_seconds(), 1),
    }


def seeks_of(user: User) -> QuerySet[Seek]:
    return Seek.objects.filter(user=user).order_by("-created_at", "-id")


def greeting(user_id: int) -> list[dict[str, Any]]:
    """What a user's own socket says first: their waiting seeks."""
    waiting = Seek.objects.filter(user_id=user_id, status=Seek.Status.WAITING).order_by("created_at")
    return [{"type": "seeks", "seeks": [seek_json(seek) for seek in waiting]}]
