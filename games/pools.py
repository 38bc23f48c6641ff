"""Rating pools: which games are rated, and under which name.

A pool is a game at one seat count: players are rated against others who
play the same thing. The name is the game's slug, with the seat count added
for every count but the game's smallest (``<slug>`` for two seats,
``<slug>-4`` for four).
Single-player games (Sokoban) have no pool. Pools come from the engine
registry, so a new game is rated without naming it here.
"""

from __future__ import annotations

from typing import Any

from .engines.base import Engine
from .engines.registry import ENGINES


def seat_counts(engine: Engine[Any, Any]) -> list[int]:
    return list(engine.player_counts or range(engine.min_players, engine.max_players + 1))


def pool_of(game: str, players: int) -> str:
    """The pool of ``game`` at ``players`` seats; "" where there is no rating."""
    engine = ENGINES.get(game)
    if engine is None or players < 2:
        return ""
    counts = [count for count in seat_counts(engine) if count >= 2]
    if players not in counts:
        return ""
    return engine.slug if players == min(counts) else f"{engine.slug}-{players}"


def all_pools() -> dict[str, tuple[str, int]]:
    """Pool name -> (game, seats), for every rated game in the registry."""
    found = {}
    for engine in ENGINES.values():
        for count in seat_counts(engine):
            pool = pool_of(engine.slug, count)
            if pool:
                found[pool] = (engine.slug, count)
    return found
