"""The Django-side hooks a game may need beyond its engine: one class a game,
registered from the game's own app (``register_extension`` in its
AppConfig.ready()). Most games need none, and the platform names none.

- ``option_specs``: room options the platform resolves before the engine sees
  them (Sokoban's ``level_id`` becomes the level's text);
- ``on_finished``: bookkeeping in the same transaction as a match's last move
  (Sokoban records the player's best solve).
"""

from __future__ import annotations

from typing import Any

from .engines.base import JSON, Outcome, OptionSpec


class GameExtension:
    option_specs: tuple[OptionSpec, ...] = ()

    def resolve_options(self, options: JSON) -> JSON:
        """Engine options filled in from the extension's own; raise BadOptions."""
        return options

    def on_finished(self, match: Any, state: Any, outcome: Outcome) -> None:
        """Called inside the transaction that stores a match's final move."""


NO_EXTENSION = GameExtension()
_EXTENSIONS: dict[str, GameExtension] = {}


def register_extension(slug: str, extension: GameExtension) -> None:
    _EXTENSIONS[slug] = extension


def extension_for(slug: str) -> GameExtension:
    return _EXTENSIONS.get(slug, NO_EXTENSION)
