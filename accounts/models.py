from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A registered player. Custom from the first migration so it can grow."""

    display_name = models.CharField(max_length=40, blank=True)
    # Per-user settings (sound volume, default turn time, ...), as JSON so a
    # game can add one without a migration.
    preferences = models.JSONField(default=dict, blank=True)
    # The last sign of the player on the site: one of their sockets was open.
    # Refreshed every core.hooks.PRESENCE_SECONDS while one is.
    last_seen = models.DateTimeField(null=True, blank=True)

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username


class ApiToken(models.Model):
    """A key a program or a device uses for the API and sockets (``Authorization: Token <key>``).

    A player may hold several (a phone, a bot, a script), see them with when
    each was last used, and revoke any; logging out revokes the one used.
    The key is shown once, when the token is made.
    """

    key = models.CharField(max_length=40, unique=True)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    @staticmethod
    def new_key() -> str:
        return secrets.token_hex(20)

    def __str__(self) -> str:
        return f"{self.user} {self.name or self.pk}"
