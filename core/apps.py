from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app shares: domain errors, the locked-write helper, the result
    listener registry. ``core`` imports no other app of the project, so ``games``,
    ``tournaments`` and ``chouette`` can all build on it without cycles."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Core"
