"""Follow-ups give up cleanly (issue #25): outbox events and jobs whose handler keeps
raising are retried a capped number of times with backoff, then end ``failed`` with
their error, shown to the club's directors and started again by ``retry_failed`` or
the admin's action.

Before, an event whose handler always raised was sent again by every sweep, forever
(a ``match.disputed`` event on a club whose name held CR/LF failed 156 times in 17
minutes), and a job's unexpected error was retried by Celery then swept again each
minute with its error lost.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from core import events, jobs, outbox
from core.models import DomainEvent, Job

pytestmark = pytest.mark.django_db

ALWAYS_RAISES = "test.giving_up.always_raises"
broken = {"on": True}


@events.on_event(ALWAYS_RAISES)
def _send_dispute_notice(payload):
    if broken["on"]:
        raise ValueError("Header values can't contain newlines ('Evil\\r\\nBcc: x')")


@jobs.job_handler(ALWAYS_RAISES)
def _job_that_raises(job, progress):
    if broken["on"]:
        raise RuntimeError("the mail server refused")
    return {"ok": True}


@pytest.fixture(autouse=True)
def _broken_until_fixed():
    broken["on"] = True
    yield
    broken["on"] = True


def _lease_over(model, pk):
    """Time passes: the backoff (and lease) of the pending retry is over."""
    model.objects.filter(pk=pk).update(lease_until=timezone.now() - timedelta(seconds=1))


def _emit(club_id, capture):
    with capture(execute=True):
        events.emit(ALWAYS_RAISES, club_id=club_id)
    return DomainEvent.objects.get(kind=ALWAYS_RAISES)


def test_an_event_whose_handler_always_raises_ends_failed_after_n_attempts(
    settings, club, django_capture_on_commit_callbacks
):
    settings.OUTBOX_MAX_ATTEMPTS = 4
    event = _emit(club.pk, django_capture_on_commit_callbacks)
    assert (event.status, event.attempts) == ("pending", 1)
    assert "newlines" in event.last_error
    # the retry waits out its backoff: a sweep now sends nothing (no loop)
    assert event.lease_until > timezone.now()
    assert outbox.sweep_events(older_than_seconds=0) == 0
    for attempt in (2, 3, 4):
        _lease_over(DomainEvent, event.pk)
        assert outbox.sweep_events(older_than_seconds=0) == 1
        event.refresh_from_db()
        assert event.attempts == attempt
    assert event.status == "failed" and event.failed_at is not None
    assert event.last_error.startswith("ValueError: Header values")
    # given up: no sweep ever sends it again, and a stale message does nothing
    _lease_over(DomainEvent, event.pk)
    assert outbox.sweep_events(older_than_seconds=0) == 0
    assert outbox.handle_event(event_id=event.pk, token=0) == "failed"
    event.refresh_from_db()
    assert event.attempts == 4


def test_the_retry_command_starts_a_failed_event_again(
    settings, club, django_capture_on_commit_callbacks
):
    settings.OUTBOX_MAX_ATTEMPTS = 1
    event = _emit(club.pk, django_capture_on_commit_callbacks)
    assert event.status == "failed"
    broken["on"] = False  # the cause is fixed (the club's name cleaned)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("retry_failed", "--events", str(event.pk))
    event.refresh_from_db()
    assert (event.status, event.attempts, event.last_error) == ("handled", 1, "")


def _failed_job(settings, club, director, capture) -> Job:
    settings.JOB_MAX_ATTEMPTS = 2
    with capture(execute=True):
        job, _ = jobs.start_job(kind=ALWAYS_RAISES, club=club, created_by=director)
    job.refresh_from_db()
    assert (job.status, job.attempts) == ("queued", 1)  # waiting out its backoff
    assert job.error["detail"] == "RuntimeError: the mail server refused"
    assert jobs.sweep_queued_jobs(older_than_seconds=0) == 0
    _lease_over(Job, job.pk)
    assert jobs.sweep_queued_jobs(older_than_seconds=0) == 1
    job.refresh_from_db()
    return job


def test_a_job_whose_handler_always_raises_ends_failed_with_its_error(
    settings, club, director, client_for, django_capture_on_commit_callbacks
):
    job = _failed_job(settings, club, director, django_capture_on_commit_callbacks)
    assert (job.status, job.attempts, job.message) == ("failed", 2, "gave up after 2 attempts")
    _lease_over(Job, job.pk)
    assert jobs.sweep_queued_jobs(older_than_seconds=0) == 0
    body = client_for(director).get(f"/api/v1/jobs/{job.pk}/").json()
    assert (body["status"], body["attempts"]) == ("failed", 2)
    assert body["error"] == {
        "code": "job_failed",
        "detail": "RuntimeError: the mail server refused",
        "field": None,
    }


def test_the_club_page_shows_its_directors_what_gave_up(
    settings, club, director, make_user, client, django_capture_on_commit_callbacks
):
    settings.OUTBOX_MAX_ATTEMPTS = 1
    job = _failed_job(settings, club, director, django_capture_on_commit_callbacks)
    _emit(club.pk, django_capture_on_commit_callbacks)
    url = reverse("club-detail", args=[club.slug])
    client.force_login(director)
    page = client.get(url).content.decode()
    assert "Follow-ups that gave up" in page
    assert "the mail server refused" in page and f"/api/v1/jobs/{job.pk}/" in page
    assert "Header values can&#x27;t contain newlines" in page
    client.force_login(make_user("member"))
    assert "Follow-ups that gave up" not in client.get(url).content.decode()


def test_the_retry_command_starts_a_failed_job_again_as_a_new_job(
    settings, club, director, django_capture_on_commit_callbacks
):
    job = _failed_job(settings, club, director, django_capture_on_commit_callbacks)
    broken["on"] = False
    with django_capture_on_commit_callbacks(execute=True):
        call_command("retry_failed", "--jobs")
    job.refresh_from_db()
    retry = job.retried_as
    assert retry is not None and (retry.status, retry.result) == ("succeeded", {"ok": True})
    assert (job.status, job.error["code"]) == ("failed", "job_failed")  # its history stays
    with django_capture_on_commit_callbacks(execute=True):
        call_command("retry_failed", "--jobs")  # nothing left to retry
    assert Job.objects.filter(kind=ALWAYS_RAISES).count() == 2


def test_the_admin_action_retries_failed_events(
    settings, club, admin_user, client, django_capture_on_commit_callbacks
):
    settings.OUTBOX_MAX_ATTEMPTS = 1
    event = _emit(club.pk, django_capture_on_commit_callbacks)
    broken["on"] = False
    client.force_login(admin_user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:core_domainevent_changelist"),
            {"action": "retry", "_selected_action": [event.pk]},
        )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.status == "handled"


def test_the_embedded_sweep_runs_a_retry_once_it_is_due(
    settings, club, django_capture_on_commit_callbacks
):
    """Eager (``make run``) has no message in flight and no beat: the web process's own
    sweep (``core/embedded.py``) runs a follow-up whose in-request run failed."""
    from core import embedded

    settings.EMBEDDED_SWEEP_FRESH_SECONDS = 0
    event = _emit(club.pk, django_capture_on_commit_callbacks)
    assert event.status == "pending"
    broken["on"] = False  # the database was busy; now it is not
    assert embedded.sweep_once() == (0, 0)  # its backoff is not over
    _lease_over(DomainEvent, event.pk)
    assert embedded.sweep_once() == (1, 0)
    event.refresh_from_db()
    assert (event.status, event.attempts) == ("handled", 2)
