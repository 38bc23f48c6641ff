"""Slug -> engine. Adding a game is one line here (and its engine module)."""

from __future__ import annotations

import importlib
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


def register(engine: Engine[Any, Any]) -> None:
    """Add a game that is not in the list above (a plug-in, a test's own game)."""
    if engine.slug in ENGINES and ENGINES[engine.slug] is not engine:
        raise ValueError(f"a game {engine.slug!r} is already registered")
    ENGINES[engine.slug] = engine


def unregister(slug: str) -> None:
    ENGINES.pop(slug, None)


def register_paths(paths: list[str]) -> None:
    """Register the engines named ``module.path:EngineClass`` (settings.EXTRA_GAMES)."""
    for path in paths:
        module, _, name = path.partition(":")
        register(getattr(importlib.import_module(module), name)())
