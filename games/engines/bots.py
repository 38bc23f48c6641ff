"""Bots: who plays a seat that no person sits in (AI seats, timeouts).

A bot is a function ``(engine, state, seat, rng) -> notation``. It is given the
full state because the platform holds nothing else, but a bot for a game with
hidden information must read only ``engine.view(state, seat)`` (Manhattan's
strong bot samples the hands it cannot see).

``random`` works for every engine; games register stronger levels here, one
line each.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .base import Engine
from .connect_four_solver import perfect_bot
from .manhattan_ai import greedy_bot, strong_bot

Bot = Callable[[Engine[Any, Any], Any, int, random.Random], str]


def random_bot(engine: Engine[Any, Any], state: Any, seat: int, rng: random.Random) -> str:
    """A uniformly random legal move: the original Manhattan's timeout rule."""
    return engine.format(state, engine.random_action(state, seat, rng))


# (game slug, level) -> bot. The generic levels are looked up under slug "*".
BOTS: dict[tuple[str, str], Bot] = {
    ("*", "random"): random_bot,
    ("connect-four", "perfect"): perfect_bot,
    ("manhattan", "greedy"): greedy_bot,
    ("manhattan", "strong"): strong_bot,
}


def get_bot(slug: str, level: str) -> Bot:
    """The bot for ``slug`` at ``level``; KeyError if there is none."""
    return BOTS.get((slug, level)) or BOTS[("*", level)]


def bot_levels(slug: str) -> list[str]:
    return sorted({lvl for (s, lvl) in BOTS if s in (slug, "*")})


def choose_move(slug: str, level: str, snapshot: dict[str, Any], seat: int, rng_seed: int) -> str:
    """A bot's move from plain data: what a worker process is sent.

    The state travels as its serialisation so nothing unpicklable (or
    Django-bound) crosses the process boundary.
    """
    from .registry import get_engine

    engine = get_engine(slug)
    state = engine.deserialize(snapshot)
    return get_bot(slug, level)(engine, state, seat, random.Random(rng_seed))
