"""Reads of seeks."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Q, QuerySet
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
        "ended_at": seek.ended_at.isoformat() if seek.ended_at else None,
        "waited": round((ended - seek.created_at).total_seconds(), 1),
    }


def seeks_of(user: User) -> QuerySet[Seek]:
    return Seek.objects.filter(user=user).order_by("-created_at", "-id")


# A socket that opens this soon after its player's seek was paired is told of
# the pairing too: it may have been found while no page was open.
RECENTLY_PAIRED_SECONDS = 120


def greeting(user_id: int) -> list[dict[str, Any]]:
    """What a user's own socket says first: their waiting seeks, and any paired a moment ago."""
    recent = timezone.now() - timedelta(seconds=RECENTLY_PAIRED_SECONDS)
    seeks = Seek.objects.filter(user_id=user_id).filter(
        Q(status=Seek.Status.WAITING) | Q(status=Seek.Status.PAIRED, ended_at__gte=recent)
    )
    return [{"type": "seeks", "seeks": [seek_json(seek) for seek in seeks.order_by("created_at")]}]
