from django.apps import AppConfig


class SokobanConfig(AppConfig):
    """Sokoban's platform side: level collections, players' progress, solve jobs."""

    name = "games.sokoban"
    label = "sokoban"
    default_auto_field = "django.db.models.BigAutoField"
