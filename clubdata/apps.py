from django.apps import AppConfig


class ClubdataConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubdata"
    verbose_name = "Club data (archive and spreadsheets)"

    def ready(self) -> None:
        """Register everything ``clubdata`` plugs into the core: ``clubdata/wiring.py``."""
        from clubdata import wiring

        wiring.register()
