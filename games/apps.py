from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games, matches and ratings"

    def ready(self) -> None:
        # registers the rating event handlers and jobs, and the "matches.import" job
        from . import rating_jobs, transcript_jobs  # noqa: F401
