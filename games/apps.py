from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games, matches and ratings"

    def ready(self) -> None:
        """Register everything ``games`` plugs into the core: ``games/wiring.py``."""
        from games import wiring

        wiring.register()
