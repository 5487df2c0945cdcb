from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        """Hook results into brackets (in-transaction) and register the long jobs."""
        from games.events import match_result_changed
        from games.models import Match

        from . import jobs  # noqa: F401 - registers the job handlers
        from .services.results import record_match_result

        match_result_changed.connect(
            record_match_result, sender=Match, dispatch_uid="tournaments.record_match_result"
        )
