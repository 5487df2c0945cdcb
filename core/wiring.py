"""What ``core`` itself hooks into Django and Celery at start-up (``CoreConfig.ready``
calls :func:`register`): domain errors rendered in the request's language, the
catalogs compiled after ``migrate``, the club page's panel of follow-ups that gave up,
the in-process sweeps of an embedded run, and the Celery tasks the outbox and the jobs
send by name (``core.enqueue``). Each app's own ``wiring.py`` registers what it plugs
into the core; ``tests/core/wiring.txt`` lists every registration.
"""

from __future__ import annotations

from django.core import checks
from django.core.signals import request_started
from django.db.models.signals import post_migrate
from django.utils.translation import gettext

from core import catalogs, embedded, followups
from core import tasks as tasks  # registers the outbox and job tasks in every process
from core.errors import install_translator


def register(config: object) -> None:
    install_translator(gettext)
    # Compiling the catalogs is set-up, not business logic: every start path that
    # migrates (make run, compose's migrate, a bare checkout) serves translated pages.
    post_migrate.connect(catalogs.compile_stale, sender=config, dispatch_uid="catalogs")
    checks.register(catalogs.check_catalogs_compiled)  # pages in English until compiled
    followups.register()  # the club page's panel of follow-ups that gave up
    request_started.connect(embedded.start_if_embedded, dispatch_uid="embedded-sweep")
