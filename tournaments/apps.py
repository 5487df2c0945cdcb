from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        """Register everything ``tournaments`` plugs into the core: ``tournaments/wiring.py``."""
        from tournaments import wiring

        wiring.register()
