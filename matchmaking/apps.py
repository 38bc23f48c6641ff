from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "matchmaking"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The scheduler runs a pairing pass every second (seeks widen their
        # window as they wait); an open socket keeps its user's seeks alive.
        from core import hooks

        from . import selectors, services

        hooks.every(1.0, services.pairing_pass)
        hooks.on_presence(services.seeks_seen)
        hooks.on_greeting(selectors.greeting)
