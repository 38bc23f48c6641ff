"""Who plays a seat that no person sits in (AI seats, timeouts), looked up by level.

Each engine lists its own levels (``Engine.bot_levels``); this module only
finds them by game and level, and runs one from plain data in a worker process.
"""

from __future__ import annotations

import random
from typing import Any

from .base import Bot, random_bot
from .registry import get_engine

__all__ = ["Bot", "bot_levels", "choose_move", "get_bot", "random_bot"]


def get_bot(slug: str, level: str) -> Bot:
    """The bot for ``slug`` at ``level``; KeyError if there is none."""
    return get_engine(slug).bot(level).play


def bot_levels(slug: str) -> list[str]:
    return sorted(bot.name for bot in get_engine(slug).bot_levels())


def choose_move(slug: str, level: str, snapshot: dict[str, Any], seat: int, rng_seed: int) -> str:
    """A bot's move from plain data: what a worker process is sent.

    The state travels as its serialisation so nothing unpicklable (or
    Django-bound) crosses the process boundary.
    """
    engine = get_engine(slug)
    state = engine.deserialize(snapshot)
    return get_bot(slug, level)(engine, state, seat, random.Random(rng_seed))
