from __future__ import annotations

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
