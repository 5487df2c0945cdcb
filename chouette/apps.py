from django.apps import AppConfig


class ChouetteConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chouette"

    def ready(self) -> None:
        """Register everything ``chouette`` plugs into the core: ``chouette/wiring.py``."""
        from chouette import wiring

        wiring.register()
