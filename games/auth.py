"""WebSocket authentication: the session cookie, or ``?token=`` for programs."""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser
from django.http.cookie import parse_cookie

from accounts.authentication import TOKEN_WITH_USER, mark_used


def user_for(*, token: str | None, session_key: str | None) -> Any:
    """The user a socket speaks for: its token's, else its session's, else anonymous.

    The token wins, as it does over the API, so a program holding a browser
    cookie still acts as the account it was given a token for.
    """
    if token:
        found = TOKEN_WITH_USER.first(token)
        if found is None or not found.user.is_active:
            return AnonymousUser()
        mark_used(found)
        return found.user
    if session_key:
        session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
        # Django's own check: the session must still match the user's password hash.
        return get_user(SimpleNamespace(session=session))  # type: ignore[arg-type]
    return AnonymousUser()


class SocketAuth:
    """Sets ``scope["user"]`` from ``?token=`` or the session cookie, in one database call.

    Channels' stack (cookies, sessions, auth) would make a database call per
    layer on every connect; a socket needs only to know who it is.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        tokens = parse_qs(scope.get("query_string", b"").decode("latin1")).get("token")
        cookie = b"; ".join(value for name, value in scope.get("headers", []) if name == b"cookie")
        # Django's lenient parser: a malformed cookie header is ignored, never an error.
        session_key = parse_cookie(cookie.decode("latin1")).get(settings.SESSION_COOKIE_NAME)
        user = await database_sync_to_async(user_for)(token=tokens[0] if tokens else None, session_key=session_key)
        return await self.inner(dict(scope, user=user), receive, send)


def SocketAuthStack(inner: Any) -> Any:  # noqa: N802 - named like Channels' stacks
    return SocketAuth(inner)


class _NoOriginAllowed(OriginValidator):  # type: ignore[misc]
    def valid_origin(self, parsed_origin: Any) -> bool:
        # Browsers always send Origin, and that is where cross-site socket
        # hijacking with a cookie comes from; programs (bots with ?token=)
        # usually send none, and have no cookie to hijack.
        if parsed_origin is None:
            return True
        return bool(super().valid_origin(parsed_origin))


def SameHostOrNoOrigin(inner: Any) -> Any:  # noqa: N802
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG:
        hosts += [".localhost", "127.0.0.1", "[::1]"]
    return _NoOriginAllowed(inner, hosts)
