from django.apps import AppConfig


class MoneyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "money"
    verbose_name = "Event money"

    def ready(self) -> None:
        """Register the money pages' club time zone and the club page's link."""
        from . import club_zones, panels

        club_zones.register()
        panels.register()
