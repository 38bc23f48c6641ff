"""``Authorization: Token <key>`` against the player's API tokens (accounts.models.ApiToken)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from core.prepared import Prepared

from .models import ApiToken

# When a token was last used, to the minute: one write a minute per token at
# most, not one per request.
LAST_USED_EVERY = timedelta(minutes=1)


def mark_used(token: ApiToken) -> None:
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now


# Every API request reads its token with the user: compiled once (core.prepared).
TOKEN_WITH_USER = Prepared(lambda key: ApiToken.objects.select_related("user").filter(key=key), "\x00token-key")


class TokenAuthentication(authentication.TokenAuthentication):  # type: ignore[misc]
    model = ApiToken

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        # As DRF's, with its messages, but through the prepared read.
        token = TOKEN_WITH_USER.first(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        mark_used(token)
        return token.user, token
