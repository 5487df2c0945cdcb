"""Retire the old task names: send every pending follow-up again under ``core.tasks.*``.

Until this release a worker also ran ``games.tasks.*``, the names the outbox and job
tasks had before they moved to ``core`` (``core.legacy_tasks``). That module is gone, so
a message still holding an old name would be refused by the worker as an unknown task.
The rows, not the messages, are the truth: this bumps the enqueue token of every
pending outbox event and every queued job and ends its lease, so any message already
sent for it (under either name) is stale and does nothing, and the next sweep (within a
minute, ``sweep_events`` and ``sweep_queued_jobs``) sends one message under the current
name. Rows already handled, failed, running or finished are left alone. Reversing it
changes nothing (a second message of a pending row is harmless: the token decides).
"""

from django.db import migrations
from django.db.models import F
from django.utils import timezone


def resend_pending(apps, schema_editor):
    now = timezone.now()
    DomainEvent = apps.get_model("core", "DomainEvent")
    Job = apps.get_model("core", "Job")
    DomainEvent.objects.filter(handled_at__isnull=True, failed_at__isnull=True).update(
        enqueue_token=F("enqueue_token") + 1, lease_until=now
    )
    Job.objects.filter(status="queued").update(
        enqueue_token=F("enqueue_token") + 1, lease_until=now
    )


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0002_followup_leases_and_giving_up"),
    ]

    operations = [
        migrations.RunPython(resend_pending, migrations.RunPython.noop, elidable=True),
    ]
