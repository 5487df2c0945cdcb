from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app shares: domain errors and their HTTP mapping, the actor and
    access checks, ``Idempotency-Key``, long jobs, the outbox, the locked-write helper
    and the registries other apps fill from their ``wiring.py`` (result listeners,
    idempotency scopes). ``core`` imports no other app of the project, so ``games``,
    ``tournaments`` and ``chouette`` can all build on it without cycles."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        """What core hooks into Django and Celery: ``core/wiring.py``."""
        from core import wiring

        wiring.register(self)
