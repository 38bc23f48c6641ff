"""Writing ratings: called inside the transaction that ends a rated match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import glicko2
from .models import Rating


@dataclass(frozen=True)
class RatingChange:
    before: glicko2.Rating
    after: glicko2.Rating

    def to_json(self) -> dict[str, Any]:
        """As players see it: whole points, and the change between the shown numbers."""
        before, after = round(self.before.rating), round(self.after.rating)
        return {
            "before": before,
            "after": after,
            "change": after - before,
            "deviation": round(self.after.deviation),
            "provisional": self.after.provisional,
        }


def rate_result(
    *, pool: str, user_ids: Sequence[int], places: Sequence[int], results: Sequence[str]
) -> list[RatingChange]:
    """Rate one finished game: seat i is played by ``user_ids[i]``, placed ``places[i]``.

    Missing rows are inserted ignoring conflicts (two games of one new player
    ending at once both create it, and neither fails); then the rows are
    locked in user order: a player may finish two games at once, and each
    update must start from the other's result, not overwrite it (a fixed
    order cannot deadlock).
    """
    Rating.objects.bulk_create([Rating(user_id=user, pool=pool) for user in user_ids], ignore_conflicts=True)
    locked = {
        row.user_id: row
        for row in Rating.objects.select_for_update().filter(pool=pool, user_id__in=user_ids).order_by("user_id")
    }
    before = [glicko2.Rating(locked[u].rating, locked[u].deviation, locked[u].volatility) for u in user_ids]
    after = glicko2.rate_by_places(before, places)
    for user, new, result in zip(user_ids, after, results, strict=True):
        row = locked[user]
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        row.wins += result == "win"
        row.draws += result == "draw"
        row.losses += result == "loss"
        row.save()
    return [RatingChange(old, new) for old, new in zip(before, after, strict=True)]
