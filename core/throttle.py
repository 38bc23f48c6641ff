"""Limits on how often one user, or one address, may do a thing.

Each kind of action (a *scope*: login, register, chat, move, ...) allows
``count`` hits per ``seconds`` to each user or address, counted in the cache
that all server processes share (Redis when REDIS_URL is set, else this
process's memory, which is all there is on the embedded default). Over the
limit: TooMany, a 429 with ``Retry-After`` at the API edge, an error then a
close on a socket.

Windows are fixed (``seconds`` long, aligned on the clock): one cache
increment a hit, whatever the load. The limits sit far above what a person
playing does (a move a second in a blitz against the computer is 60 a
minute; the limit is 240) and are set in settings.THROTTLE_RATES, each
overridable from the environment (``THROTTLE_MOVE=240/60``); ``THROTTLE=off``
turns them all off (the test suite, a load benchmark that plays faster than
people).
"""

from __future__ import annotations

import math
import time
import weakref
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.utils.translation import gettext_lazy

from .errors import TooMany


TOO_MANY = gettext_lazy("too many requests of this kind; try again after retry_after seconds")


def enabled() -> bool:
    return bool(getattr(settings, "THROTTLE_ENABLED", True))


def hit(scope: str, who: str) -> None:
    """Count one ``scope`` action by ``who`` (``user:<id>`` or ``ip:<address>``); raise TooMany past the limit."""
    rate = settings.THROTTLE_RATES.get(scope)
    if not enabled() or rate is None:
        return
    count, seconds = rate
    now = time.time()
    window = int(now // seconds)
    hits = _counted(f"throttle:{scope}:{who}:{window}", seconds + 1)
    if hits > count:
        retry_after = max(1, math.ceil((window + 1) * seconds - now))
        raise TooMany("throttled", TOO_MANY, retry_after=retry_after, scope=scope, limit=f"{count}/{seconds}s")


def _counted(key: str, timeout: int) -> int:
    """One more hit on ``key`` (a new key lives ``timeout`` seconds); the hits so far."""
    shared = caches["default"]
    if isinstance(shared, RedisCache):
        # One round trip: the key is made with its expiry if it is not there,
        # then counted. Django's add() and incr() took three (SET NX; EXISTS,
        # INCR) on every move a player made.
        name = shared.make_and_validate_key(key)
        with _redis_of(shared).pipeline(transaction=False) as both:
            both.set(name, 0, ex=timeout, nx=True)
            both.incr(name)
            return int(both.execute()[1])
    # Elsewhere (this process's memory, the hub of `serve --workers`): most
    # hits find their window's key, so count first (one question to the hub),
    # and make the key only for the window's first hit.
    try:
        return int(shared.incr(key))
    except ValueError:
        if shared.add(key, 1, timeout=timeout):
            return 1
        return int(shared.incr(key))  # another process made it meanwhile


# Django's cache makes a new Redis client (over its pool) at every call; the
# counting keeps one per cache.
_redis_clients: weakref.WeakKeyDictionary[RedisCache, Any] = weakref.WeakKeyDictionary()


def _redis_of(shared: RedisCache) -> Any:
    client = _redis_clients.get(shared)
    if client is None:
        client = _redis_clients[shared] = shared._cache.get_client(write=True)
    return client


def hit_user(scope: str, user_id: int) -> None:
    hit(scope, f"user:{user_id}")


def hit_address(scope: str, address: str | None) -> None:
    hit(scope, f"ip:{address or 'unknown'}")


def hit_login(address: str | None, username: str) -> None:
    """A login try counts against the address and against the account tried,
    so that neither many addresses on one account nor one address on many gets far."""
    hit_address("login", address)
    hit("login", f"name:{username.strip().lower()}")
