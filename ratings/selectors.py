"""Reads: a player's page, a pool's leaderboard, a player's rating history."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from core.errors import Invalid, NotFound
from games.engines.words import words
from games.models import Match, Player

from .glicko2 import DEFAULT_DEVIATION, DEFAULT_RATING, PROVISIONAL_DEVIATION
from .models import Rating
from games.pools import all_pools

LEADERBOARD_SIZE = 100


def current_ratings(pool: str, user_ids: list[int]) -> dict[int, float]:
    """The players' ratings in ``pool`` now; a player without one is at the default."""
    return {user: rating for user, (rating, _) in standings(pool, user_ids).items()}


def standings(pool: str, user_ids: list[int]) -> dict[int, tuple[float, float]]:
    """(rating, deviation) of each player in ``pool`` now; the defaults for a player without one."""
    held = {
        user: (rating, deviation)
        for user, rating, deviation in Rating.objects.filter(pool=pool, user_id__in=user_ids).values_list(
            "user_id", "rating", "deviation"
        )
    }
    return {user: held.get(user, (DEFAULT_RATING, DEFAULT_DEVIATION)) for user in user_ids}


def check_pool(pool: Any) -> str:
    pools = all_pools()
    if not isinstance(pool, str) or pool not in pools:
        raise Invalid(
            "unknown_pool",
            words("there is no rating pool %(pool)r; the pools are: %(pools)s", pool=str(pool), pools=", ".join(sorted(pools))),
        )
    return pool


def player_named(username: str) -> User:
    user = User.objects.filter(username__iexact=username).first()
    if user is None:
        raise NotFound("not_found", words("there is no player %(player)r", player=username))
    return user


def rating_json(rating: Rating | None) -> dict[str, Any]:
    if rating is None:
        return {"rating": round(DEFAULT_RATING), "deviation": round(DEFAULT_DEVIATION), "games": 0, "provisional": True}
    return {
        "rating": round(rating.rating),
        "deviation": round(rating.deviation),
        "games": rating.games,
        "provisional": rating.provisional,
    }


def player_profile(user: User) -> dict[str, Any]:
    """Every pool's rating (the defaults where the player has none yet) and rated record."""
    held = {rating.pool: rating for rating in Rating.objects.filter(user=user)}
    pools = sorted(all_pools())
    return {
        "username": user.username,
        "display_name": user.shown_name,
        "joined": user.date_joined.isoformat(),
        "ratings": {pool: rating_json(held.get(pool)) for pool in pools},
        "record": {
            pool: {
                "win": held[pool].wins if pool in held else 0,
                "draw": held[pool].draws if pool in held else 0,
                "loss": held[pool].losses if pool in held else 0,
            }
            for pool in pools
        },
    }


def leaderboard(pool: str) -> list[dict[str, Any]]:
    """The best established ratings of ``pool``: provisional ones are not ranked yet."""
    top = (
        Rating.objects.filter(pool=check_pool(pool), deviation__lt=PROVISIONAL_DEVIATION)
        .select_related("user")
        .order_by("-rating", "user__username")[:LEADERBOARD_SIZE]
    )
    return [
        {"rank": rank, "username": row.user.username, "name": row.user.shown_name, **rating_json(row)}
        for rank, row in enumerate(top, start=1)
    ]


def rating_history(user: User, pool: str) -> list[dict[str, Any]]:
    """The player's rating after each rated match of ``pool``, oldest first."""
    rows = (
        Player.objects.filter(
            user=user, match__room__pool=check_pool(pool), match__rated=True, rating_after__isnull=False
        )
        .filter(match__status=Match.Status.FINISHED)
        .select_related("match")
        .order_by("match__finished_at", "match_id")
    )
    return [
        {
            "match": row.match_id,
            "at": row.match.finished_at.isoformat() if row.match.finished_at else None,
            "before": round(row.rating) if row.rating is not None else None,
            "rating": round(row.rating_after or 0),
            "deviation": round(row.deviation_after or 0),
        }
        for row in rows
    ]
