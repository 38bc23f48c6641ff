"""Room options the platform adds to every game: AI seats and turn timers.

They live beside the engine's own options in ``Room.options``; the engine never
reads them. ``turn_seconds`` is the time a seat has for each turn (0: no
limit); ``ai`` is the level of the bots that take the seats nobody took when
the host starts the room; ``rated`` asks for the players' ratings to count
(only for games with a rating pool, and only while every seat is a person).
"""

from __future__ import annotations

from typing import Any

from .engines.base import JSON, BadOptions, Engine, OptionSpec
from .engines.bots import bot_levels
from .engines.words import words
from .extensions import extension_for
from .pools import pool_of

MAX_TURN_SECONDS = 24 * 3600


def platform_specs(engine: Engine[Any, Any]) -> tuple[OptionSpec, ...]:
    return (
        OptionSpec(
            "turn_seconds",
            int,
            engine.default_turn_seconds,
            words("seconds per turn; when they run out a random legal move is made (0: no limit)"),
            minimum=0,
            maximum=MAX_TURN_SECONDS,
        ),
        OptionSpec(
            "ai",
            str,
            "random",
            words("the level of the AI seats filled when the host starts with seats free"),
            choices=tuple(bot_levels(engine.slug)),
        ),
        OptionSpec(
            "rated",
            bool,
            False,
            words("the result changes the players' ratings (never with an AI seat)"),
        ),
    )


def _all_platform_specs(engine: Engine[Any, Any]) -> tuple[OptionSpec, ...]:
    return (*platform_specs(engine), *extension_for(engine.slug).option_specs)


def normalize_room_options(engine: Engine[Any, Any], options: Any) -> JSON:
    """The engine's options, normalised by the engine, plus the platform's."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOptions(words("options must be an object"))
    specs = {spec.name: spec for spec in _all_platform_specs(engine)}
    platform = {name: spec.check(options[name]) if name in options else spec.default for name, spec in specs.items()}
    rules = {k: v for k, v in options.items() if k not in specs}
    rules = extension_for(engine.slug).resolve_options({**rules, **platform})
    rules = engine.normalize_options({k: v for k, v in rules.items() if k not in specs})
    if platform["rated"] and not pool_of(engine.slug, rules["players"]):
        raise BadOptions(
            words("%(game)s for %(players)s has no ratings: it cannot be rated", game=engine.name, players=rules["players"])
        )
    return {**rules, **platform}


def engine_options(engine: Engine[Any, Any], options: JSON) -> JSON:
    """Only the options the engine itself knows (for initial_state and replays)."""
    platform = {spec.name for spec in _all_platform_specs(engine)}
    return {k: v for k, v in options.items() if k not in platform}


def catalogue_options(engine: Engine[Any, Any]) -> list[JSON]:
    return [spec.to_json() for spec in (*engine.catalogue().options, *_all_platform_specs(engine))]
