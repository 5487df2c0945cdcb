from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app shares: domain errors and their HTTP mapping, the actor and
    access checks, ``Idempotency-Key``, long jobs, the outbox, the locked-write helper
    and the registries other apps fill from their ``ready()`` (result listeners,
    idempotency scopes). ``core`` imports no other app of the project, so ``games``,
    ``tournaments`` and ``chouette`` can all build on it without cycles."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        """Domain error messages (``core.errors.N_``) render in the request's language."""
        from django.core.signals import request_started
        from django.utils.translation import gettext

        from core import embedded, followups
        from core.errors import install_translator

        install_translator(gettext)

        from django.db.models.signals import post_migrate

        from core import catalogs  # registers the start-up check too

        # Compiling the catalogs is set-up, not business logic: every start path that
        # migrates (make run, compose's migrate, a bare checkout) serves translated pages.
        post_migrate.connect(catalogs.compile_stale, sender=self, dispatch_uid="catalogs")
        followups.register()  # the club page's panel of follow-ups that gave up
        # The outbox and the jobs send their tasks by name (core.enqueue): register them
        # in every process, not only in a worker that autodiscovers them.
        from core import tasks  # noqa: F401

        request_started.connect(embedded.start_if_embedded, dispatch_uid="embedded-sweep")
