from django.apps import AppConfig


class ChouetteConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chouette"

    def ready(self) -> None:
        """Register the page panels (the club page's open sessions) and the demo seeder."""
        from core.demo import register_demo_seeder

        from . import panels

        panels.register()
        register_demo_seeder("chouette", "chouette.demo.seed")

        from . import club_zones

        club_zones.register()
