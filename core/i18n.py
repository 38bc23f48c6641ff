"""Languages: which one a person is answered in, and putting a message in it.

English is the source language: every message is written in English and the
catalogues (``<app>/locale/ko/LC_MESSAGES/django.po``) translate it. The
language of a request is Django's LocaleMiddleware's choice (the
``django_language`` cookie that ``/i18n/setlang/`` sets, then
Accept-Language), except that a logged-in player's own choice
(``preferences.language``) wins over both (accounts.middleware).

Messages come in three kinds, and ``translate`` takes each:

- ``Words`` (games/engines/words.py): English text that keeps its template
  and args, as the engines and the services write them;
- lazy strings (``gettext_lazy``);
- plain text, shown as it is.
"""

from __future__ import annotations

import gettext as gettext_module
import os
from types import SimpleNamespace
from typing import Any

from django.apps import apps
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.views.i18n import JavaScriptCatalog


def languages() -> list[str]:
    """The language codes the site speaks ("en", "ko")."""
    return [code for code, _ in settings.LANGUAGES]


def translate(text: Any) -> Any:
    """``text`` in the active language; anything that is not a message comes back as it is."""
    if isinstance(text, Promise):
        return str(text)
    if isinstance(text, str) and callable(getattr(text, "translated", None)):
        return text.translated(translation.gettext)  # type: ignore[attr-defined]
    return text


def translate_in(language: str | None, text: Any) -> Any:
    """``text`` in ``language`` (None: the active language)."""
    if language is None:
        return translate(text)
    with translation.override(language):
        return translate(text)


def preferred_language(user: Any) -> str | None:
    """The language a logged-in player chose in their settings, or None (follow the browser)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    chosen = (getattr(user, "preferences", None) or {}).get("language")
    return chosen if chosen in languages() else None


def language_for(request: Any) -> str:
    """The language to answer ``request`` in: the player's choice, else LocaleMiddleware's.

    ``request`` may be DRF's, whose user is the one its authentication found
    (a token's owner, whom no middleware saw).
    """
    try:
        user = getattr(request, "user", None)
    except Exception:  # noqa: BLE001 - DRF authenticates on first access and may refuse here
        user = None
    return preferred_language(user) or translation.get_language() or settings.LANGUAGE_CODE


class AppCatalogue(JavaScriptCatalog):
    """The ``django`` catalogue of the named apps alone, as a script (gettext, interpolate...).

    The games' words (moves, results' reasons) are in the games app's ``django``
    catalogue, where the server reads them too. Django's own JavaScriptCatalog
    cannot serve just that: for the ``django`` domain it merges every app's
    catalogue and Django's own, whatever the packages say.
    """

    domain = "django"

    def get_paths(self, packages: list[str]) -> list[str]:
        """The named apps' locale folders, and those of apps inside them (a game's own app)."""
        roots = super().get_paths(packages)
        inside = [
            os.path.join(app.path, "locale")
            for app in apps.get_app_configs()
            if any(os.path.join(app.path, "").startswith(os.path.dirname(root) + os.sep) for root in roots)
        ]
        return [*roots, *(path for path in inside if path not in roots)]

    def get(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        locale = translation.to_locale(translation.get_language() or settings.LANGUAGE_CODE)
        catalog: dict[Any, str] = {}
        for path in self.get_paths(self.packages or []):
            if not os.path.isdir(path):
                continue
            try:
                found = gettext_module.translation(self.domain, path, [locale])
            except FileNotFoundError:
                continue
            catalog.update(found._catalog)  # type: ignore[attr-defined]
        # What JavaScriptCatalog reads of a translation: its catalogue and fallback chain.
        self.translation = SimpleNamespace(_catalog=catalog, _fallback=None)
        return self.render_to_response(self.get_context_data(**kwargs))
