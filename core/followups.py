"""The follow-ups that gave up, for the people who can act on them.

A job or an outbox event that failed every attempt (``core.jobs``, ``core.outbox``)
is no longer retried; its club's directors see it on the club page (a panel, below)
with its error, and a site admin starts it again with ``manage.py retry_failed`` or
the admin's action. Jobs refused with a domain error (a rule, not a failure) and jobs
lost with their worker (already retried as another job) are not listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest

from core import access
from core.jobs import GAVE_UP_CODES, retry_failed_job
from core.models import DomainEvent, Job, JobStatus
from core.outbox import retry_failed_event
from core.panels import register_panel

SHOWN = 10


def failed_jobs(club_id: int | None = None) -> QuerySet[Job]:
    jobs = Job.objects.filter(
        status=JobStatus.FAILED, retried_as__isnull=True, error__code__in=GAVE_UP_CODES
    )
    return jobs if club_id is None else jobs.filter(club_id=club_id)


def failed_events(club_id: int | None = None) -> QuerySet[DomainEvent]:
    events = DomainEvent.objects.filter(handled_at__isnull=True, failed_at__isnull=False)
    return events if club_id is None else events.filter(payload__club_id=club_id)


@dataclass(frozen=True)
class GaveUp:
    """One line of the panel."""

    what: str
    kind: str
    attempts: int
    at: datetime | None
    error: str
    job_id: int | None = None


def gave_up_for_club(club_id: int) -> tuple[list[GaveUp], int]:
    """The latest follow-ups of the club that gave up, and how many there are in all."""
    jobs = failed_jobs(club_id)
    events = failed_events(club_id)
    lines = [
        GaveUp("job", j.kind, j.attempts, j.finished_at, (j.error or {}).get("detail", ""), j.pk)
        for j in jobs.order_by("-finished_at", "-id")[:SHOWN]
    ] + [
        GaveUp("event", e.kind, e.attempts, e.failed_at, e.last_error)
        for e in events.order_by("-failed_at", "-id")[:SHOWN]
    ]
    lines.sort(key=lambda line: line.at.timestamp() if line.at else 0.0, reverse=True)
    return lines[:SHOWN], jobs.count() + events.count()


def retry_all(*, jobs: bool = True, events: bool = True, ids: list[int] | None = None) -> int:
    """Start again the failed follow-ups (``ids`` of either kind, else all of them)."""
    started = 0
    if jobs:
        job_ids = ids or list(failed_jobs().values_list("pk", flat=True))
        started += sum(retry_failed_job(pk) is not None for pk in job_ids)
    if events:
        event_ids = ids or list(failed_events().values_list("pk", flat=True))
        started += sum(retry_failed_event(pk) for pk in event_ids)
    return started


def club_gave_up_panel(request: HttpRequest | None, club: Any) -> dict[str, Any] | None:
    """Directors only; nothing when every follow-up went through."""
    if request is None or not access.is_director(request.user, club):
        return None
    lines, total = gave_up_for_club(club.pk)
    if not lines:
        return None
    return {"lines": lines, "total": total}


def register() -> None:
    register_panel(
        "club.above_players",
        "core.gave_up",
        template="core/_gave_up.html",
        provider=club_gave_up_panel,
        order=1,
    )
