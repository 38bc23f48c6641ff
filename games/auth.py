"""WebSocket authentication: the session cookie, or ``?token=`` for programs."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from rest_framework.authtoken.models import Token


@database_sync_to_async
def _user_for_token(key: str) -> Any:
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return AnonymousUser()
    return token.user


class TokenAuthMiddleware(BaseMiddleware):  # type: ignore[misc]
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        query = parse_qs(scope.get("query_string", b"").decode())
        keys = query.get("token")
        if keys:
            scope = dict(scope, user=await _user_for_token(keys[0]))
        return await super().__call__(scope, receive, send)


def SocketAuthStack(inner: Any) -> Any:  # noqa: N802 - named like Channels' stacks
    # The cookie stack runs first; a token, if given, overrides its user.
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))


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
