from django.apps import AppConfig


class ClubdataConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clubdata"
    verbose_name = "Club data (archive and spreadsheets)"

    def ready(self) -> None:
        """Register the archive jobs and the club settings page's panel."""
        from . import panels, services  # noqa: F401  (services register the job handlers)

        panels.register()
