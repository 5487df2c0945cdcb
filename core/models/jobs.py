"""Long jobs (imports, rating recomputations, pairings) and their progress."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class JobStatus(models.TextChoices):
    QUEUED = "queued", gettext_lazy("Queued")
    RUNNING = "running", gettext_lazy("Running")
    SUCCEEDED = "succeeded", gettext_lazy("Succeeded")
    FAILED = "failed", gettext_lazy("Failed")


class Job(models.Model):
    """A long-running piece of work that the API answers with 202 and pages poll.

    ``dedupe_key`` makes asking twice for the same thing (pair round 4) give one job.
    ``attempts`` numbers the runs: every write of a run is conditional on (id, attempts),
    so a run that was declared lost (or taken over) cannot write over its successor.
    ``enqueue_token`` numbers the messages sent for the job (task id
    ``job-<id>-<token>``): a queued job is run only by the message of its current
    token, so a message the sweep replaced does nothing. ``lease_until``: until then
    the current message is presumed alive (in the broker, or waiting out a countdown
    or a retry's backoff); the queued-job sweep looks at the job only after it.
    """

    kind = models.CharField(max_length=60)
    params = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    message = models.CharField(max_length=255, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.JSONField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    enqueue_token = models.PositiveIntegerField(default=0)
    lease_until = models.DateTimeField(null=True, blank=True)
    dedupe_key = models.CharField(max_length=120, null=True, blank=True, unique=True)
    club = models.ForeignKey(
        "games.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="jobs"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Liveness of a running job: written by the runner's heartbeat thread; the sweep
    # declares the job lost once it is older than settings.JOB_HEARTBEAT_TIMEOUT.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # Who runs the current attempt ("host:pid"): a delivery that finds the job running
    # under a process of its own host that no longer exists takes it over at once.
    runner = models.CharField(max_length=120, blank=True)
    # A job lost with its worker ends failed and points at the job that retries it.
    retried_as = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="retry_of"
    )

    class Meta:
        db_table = "games_job"  # created by games before the move to core
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"

    @property
    def percent(self) -> float | None:
        if not self.total:
            return 100.0 if self.status == JobStatus.SUCCEEDED else None
        return round(100.0 * min(self.done, self.total) / self.total, 1)
