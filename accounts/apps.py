from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # An open socket is a sign the player is here (turn timers use it to
        # tell an absent player from a slow one).
        from core import hooks

        from . import services

        hooks.on_presence(services.user_seen)
