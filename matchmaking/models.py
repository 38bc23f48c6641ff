"""A seek: one player asking for a game in one pool, until paired or given up."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Seek(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"
        PAIRED = "paired"
        CANCELLED = "cancelled"

    class Reason(models.TextChoices):
        """Why a seek stopped waiting without being paired."""

        NONE = ""
        CANCELLED = "cancelled"  # its player cancelled it
        EXPIRED = "expired"  # its player went away (no socket, no poll)
        PAIRED_ELSEWHERE = "paired_elsewhere"  # its player was paired from another seek

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks")
    game = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField()
    pool = models.CharField(max_length=40, db_index=True)
    # The room options the game will be played with, normalised: seeks pair
    # only with seeks of equal options (the same time per turn).
    options = models.JSONField(default=dict)
    options_key = models.CharField(max_length=500)
    rated = models.BooleanField(default=True)
    # Seconds after which AI seats fill the table (the match is then unrated).
    fill_with_ai_after = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True)
    reason = models.CharField(max_length=20, choices=Reason.choices, blank=True, default="")
    room = models.ForeignKey("games.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # The last sign of the player: an open socket or a poll of the seek.
    last_seen = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One open seek per player per pool, also under racing requests.
            models.UniqueConstraint(
                fields=["user", "pool"], condition=Q(status="waiting"), name="seek_one_waiting_per_pool"
            ),
        ]

    def __str__(self) -> str:
        return f"seek {self.pk} {self.user_id} {self.pool} ({self.status})"
