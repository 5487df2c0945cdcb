from django.apps import AppConfig


class MoneyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "money"
    verbose_name = "Event money"

    def ready(self) -> None:
        """Register everything ``money`` plugs into the core: ``money/wiring.py``."""
        from money import wiring

        wiring.register()
