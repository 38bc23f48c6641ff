"""A player's rating in each pool; the history is in the match players' rows."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .glicko2 import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY, PROVISIONAL_DEVIATION


class Rating(models.Model):
    """One player's Glicko-2 rating in one pool, and their rated record there."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    pool = models.CharField(max_length=40)
    rating = models.FloatField(default=DEFAULT_RATING)
    deviation = models.FloatField(default=DEFAULT_DEVIATION)
    volatility = models.FloatField(default=DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "pool"], name="rating_unique_pool")]
        # The leaderboard: a pool's established ratings, best first.
        indexes = [models.Index(fields=["pool", "deviation", "-rating"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.pool}: {self.rating:.0f} ±{self.deviation:.0f}"

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION
