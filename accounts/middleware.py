"""A logged-in player's language (``preferences.language``) wins over the browser's.

After LocaleMiddleware (which chose from the ``django_language`` cookie, then
Accept-Language) and AuthenticationMiddleware (which knows the session's user).
API requests with a token are not seen here: the API edge (core.api) answers
their errors in the token owner's language itself.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from core.i18n import preferred_language


class PreferredLanguage:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = preferred_language(getattr(request, "user", None))
        if language and language != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
