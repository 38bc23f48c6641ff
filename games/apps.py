from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Games beyond the registry's own list, named in settings.EXTRA_GAMES
        # ("module.path:EngineClass"): a plug-in game needs no edit here.
        from django.conf import settings

        from core import hooks

        from . import analysis
        from .engines.registry import register_paths

        register_paths(settings.EXTRA_GAMES)
        # Reviews of finished matches run in a thread of every scheduling process.
        hooks.background("analysis", analysis.run_forever, analysis.run_queued)
