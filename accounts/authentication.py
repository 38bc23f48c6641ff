"""``Authorization: Token <key>`` against the player's API tokens (accounts.models.ApiToken)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from rest_framework import authentication

from .models import ApiToken

# When a token was last used, to the minute: one write a minute per token at
# most, not one per request.
LAST_USED_EVERY = timedelta(minutes=1)


def mark_used(token: ApiToken) -> None:
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now


class TokenAuthentication(authentication.TokenAuthentication):  # type: ignore[misc]
    model = ApiToken

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        user, token = super().authenticate_credentials(key)
        mark_used(token)
        return user, token
