"""What the pages know about the games besides GET /api/games/: each rating
pool's name for people, each board's picture, each game's how-to-play page.

All of it comes from the engine registry and from files named after a game's
slug, so a sixth game gets its pool names, a picture (``static/boards/<slug>.svg``,
or a plain one) and a rules page (``templates/frontend/rules/<slug>.html``, or
its engine's docstring) without a line here.
"""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any

from django.contrib.staticfiles import finders
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.templatetags.static import static
from django.utils.translation import gettext, ngettext

from games.engines.base import Engine
from games.engines.registry import ENGINES
from games.pools import all_pools


def pools() -> list[dict[str, Any]]:
    """Every rating pool: ``{pool, game, players, label}``, in the catalogue's order.

    The label is the game's name, with the seat count where the game has
    more than one pool ("Quoridor, 4 players"), in the request's language.
    """
    found = all_pools()
    per_game: dict[str, int] = {}
    for game, _ in found.values():
        per_game[game] = per_game.get(game, 0) + 1
    return [
        {
            "pool": pool,
            "game": game,
            "players": players,
            "label": _label(ENGINES[game].name, players, several=per_game[game] > 1),
        }
        for pool, (game, players) in found.items()
    ]


def _label(name: str, players: int, *, several: bool) -> str:
    # The game's name is a msgid of the games' catalogue (games/locale).
    game = gettext(name)
    if not several:
        return game
    return ngettext("%(game)s, %(count)s player", "%(game)s, %(count)s players", players) % {"game": game, "count": players}


@cache
def board_picture(slug: str) -> str:
    """The URL of the game's small board picture; "" when it has none (the lobby draws a plain one)."""
    return static(f"boards/{slug}.svg") if finders.find(f"boards/{slug}.svg") else ""


def board_pictures() -> dict[str, str]:
    return {slug: board_picture(slug) for slug in ENGINES}


def rules_template(slug: str) -> str | None:
    """The game's own how-to-play template, if one was written."""
    name = f"frontend/rules/{slug}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return None
    return name


def engine_rules(engine: Engine[Any, Any]) -> str:
    """The statement of the rules every engine module opens with (STYLE.md)."""
    module = inspect.getmodule(type(engine))
    return inspect.cleandoc(module.__doc__ or "") if module is not None else ""
