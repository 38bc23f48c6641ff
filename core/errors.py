"""Domain errors: what services raise when the rules or the data refuse a request.

They say what went wrong in the service's own terms (refused as invalid, not
allowed, not found, in conflict with the current state, too many at once) and
carry a ``code`` clients switch on and a ``detail`` a person can act on. They
know nothing of HTTP: the API edge (core.api) alone turns each kind into a
status code and the one error shape, and pages show the detail as text.

A detail is written in English and translated where it is shown, in the
language of whoever reads it (core.i18n.translate): ``words(...)``
(games/engines/words.py) where it has values in it, ``gettext_lazy`` or
``words`` where it has none. The ``code`` is never translated.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise


class DomainError(Exception):
    """A refused request: ``code`` for programs, ``detail`` for people, ``extra`` fields that help act."""

    default_code = "error"

    def __init__(self, code: str, detail: str | Promise, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra

    def __str__(self) -> str:
        return str(self.detail)


class Invalid(DomainError):
    """The request itself is wrong: bad input, bad notation, an illegal move."""


class Forbidden(DomainError):
    """The request is well formed but this user may not do it."""


class NotFound(DomainError):
    """The thing the request names does not exist (or is not this user's to see)."""


class Conflict(DomainError):
    """The request clashes with the current state: not your turn, a stale version, a lost race."""


class TooMany(DomainError):
    """Over a limit; ``retry_after`` seconds until it may be tried again."""

    def __init__(self, code: str, detail: str | Promise, *, retry_after: int, **extra: Any) -> None:
        super().__init__(code, detail, retry_after=retry_after, **extra)
        self.retry_after = retry_after
