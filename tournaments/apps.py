from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        """Register the bracket's result listener, the long jobs, the page panels
        and the demo seeder."""
        from core.demo import register_demo_seeder
        from core.listeners import register_result_listener

        from . import (
            jobs,  # noqa: F401 - registers the job handlers
            panels,
        )
        from .services.results import record_match_result

        register_result_listener("tournaments.bracket", record_match_result)
        panels.register()
        register_demo_seeder("tournaments", "tournaments.demo.seed")
