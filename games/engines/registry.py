"""Slug -> engine. Adding a game is one line here (and its engine module)."""

from __future__ import annotations

from typing import Any

from .base import Engine
from .connect_four import ConnectFour
from .eskimo import Eskimo
from .manhattan import Manhattan
from .quoridor import Quoridor
from .sokoban import Sokoban

ENGINES: dict[str, Engine[Any, Any]] = {
    engine.slug: engine
    for engine in (
        ConnectFour(),
        Manhattan(),
        Eskimo(),
        Sokoban(),
        Quoridor(),
    )
}


def get_engine(slug: str) -> Engine[Any, Any]:
    """The engine for ``slug``; KeyError if there is none."""
    return ENGINES[slug]
