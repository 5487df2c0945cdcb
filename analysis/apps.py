from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    """Match analysis with GNU Backgammon (PR, error rate, luck, the worst decisions)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
    verbose_name = "Match analysis"

    def ready(self) -> None:
        from . import (
            jobs,  # noqa: F401 - registers the job and the import's hook
            panels,
        )

        panels.register()
        from . import club_zones

        club_zones.register()
