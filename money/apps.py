from django.apps import AppConfig


class MoneyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "money"
    verbose_name = "Event money"

    def ready(self) -> None:
        """Register the money pages' club time zone, the club page's link and the buy-in
        the federation exports read."""
        from . import club_zones, federation_buy_in, panels

        club_zones.register()
        panels.register()
        federation_buy_in.register()
