from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games, matches and ratings"

    def ready(self) -> None:
        from . import rating_jobs  # noqa: F401  (registers the rating event handlers and jobs)
