from django.apps import AppConfig


class SokobanConfig(AppConfig):
    """Sokoban's platform side: level collections, players' progress, solve jobs."""

    name = "games.sokoban"
    label = "sokoban"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from core import hooks
        from games.extensions import register_extension

        from . import jobs
        from .extension import SokobanExtension

        register_extension("sokoban", SokobanExtension())
        # Solves run in a thread of every scheduling process, one at a time.
        hooks.background("sokoban-solves", jobs.run_forever, jobs.run_queued)
        hooks.api_urls("sokoban/", "games.sokoban.urls")
        hooks.page_urls("sokoban/", "games.sokoban.pages")
        hooks.nav_link("Sokoban", "sokoban")
        hooks.game_page("sokoban", "sokoban")
