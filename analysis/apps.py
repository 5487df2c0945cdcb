from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    """Match analysis with GNU Backgammon (PR, error rate, luck, the worst decisions)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
    verbose_name = "Match analysis"

    def ready(self) -> None:
        """Register everything ``analysis`` plugs into the core: ``analysis/wiring.py``."""
        from analysis import wiring

        wiring.register()
