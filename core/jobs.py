"""Running long jobs: a registry of handlers, progress reports, one Celery task.

A handler is ``fn(job, progress) -> dict``: it does its own transactions (so that
progress written between them is visible to pollers) and must be idempotent, because
a job whose worker died is run again from the start: delivered again (``acks_late``)
when its pool child dies, or retried by ``sweep_stalled_jobs`` when its heartbeat stops
(the whole worker vanished). Domain errors end the job as ``failed`` with their code
and message; anything else is retried with backoff (``JOB_RETRY_BACKOFF``) up to
``JOB_MAX_ATTEMPTS`` runs, then the job gives up: ``failed`` with the error kept
(``job_failed``), shown to its club's directors, retried on request (``retry_failed``).

Each message names the job and its ``enqueue_token`` (task id ``job-<id>-<token>``):
the queued-job sweep sends a new message only once the lease of the current one is
over *and* the broker no longer holds it, and a message whose token is not the job's
current one does nothing. The queue of each kind is in :mod:`core.queues`.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from core import broker, enqueue, leases
from core.errors import BoxcarsError
from core.models import Job, JobStatus

logger = logging.getLogger(__name__)

Progress = Callable[[int, int, str], None]
Handler = Callable[[Job, Progress], dict[str, Any]]

_handlers: dict[str, Handler] = {}


def register_job_handler(kind: str, fn: Handler) -> None:
    """Register (or replace) the handler of a job kind; the apps call it from their
    ``wiring.py``."""
    _handlers[kind] = fn


def job_handler(kind: str) -> Callable[[Handler], Handler]:
    """:func:`register_job_handler` as a decorator (the tests' own jobs)."""

    def register(fn: Handler) -> Handler:
        register_job_handler(kind, fn)
        return fn

    return register


def start_job(
    *,
    kind: str,
    params: dict[str, Any] | None = None,
    club: Any = None,
    created_by: Any = None,
    dedupe_key: str | None = None,
    countdown: float | None = None,
) -> tuple[Job, bool]:
    """Create a job and enqueue it on commit; (job, created). A dedupe key already used
    returns the existing job instead of starting a second one.

    ``countdown`` delays the run (seconds): with a dedupe key that the handler releases
    when it starts, a burst of requests within the countdown becomes one job (the event
    odds after a round's results, see ``tournaments.services.odds``).
    """

    if kind not in _handlers:
        raise ValueError(f"no handler registered for job kind {kind!r}")
    # A dedupe key can be taken by another transaction between our look and our
    # insert, and released again (its handler started) between the refused insert and
    # our second look: so look, insert, and on a refusal look again, a few times.
    for _attempt in range(10):
        if dedupe_key:
            existing = Job.objects.filter(dedupe_key=dedupe_key).first()
            if existing is not None:
                return existing, False
        try:
            with transaction.atomic():
                job = Job.objects.create(
                    kind=kind,
                    params=params or {},
                    club=club,
                    created_by=created_by
                    if getattr(created_by, "is_authenticated", False)
                    else None,
                    dedupe_key=dedupe_key or None,
                    lease_until=leases.lease_until(countdown or 0.0),
                )
        except IntegrityError:
            if not dedupe_key:
                raise
            continue
        break
    else:
        raise RuntimeError(f"job key {dedupe_key!r} kept changing hands; giving up")
    transaction.on_commit(lambda: _enqueue(job.pk, countdown or None, token=0, kind=kind))
    return job, True


def send_now(job_id: int) -> bool:
    """Run a queued job as soon as a worker is free, ahead of its countdown; True if
    its message was replaced.

    The job's token is bumped (conditionally: a delivery claiming it meanwhile wins, and
    then nothing is sent) and a message without delay is sent on commit; the delayed
    one, when it comes, is stale and does nothing. For work whose debounce was right
    while requests kept coming and is wrong once the last one is known (the event odds
    at a round's end, ``tournaments.services.odds``).
    """
    row = (
        Job.objects.filter(pk=job_id, status=JobStatus.QUEUED)
        .values_list("enqueue_token", "kind")
        .first()
    )
    if row is None:
        return False
    token, kind = row
    replaced = Job.objects.filter(pk=job_id, status=JobStatus.QUEUED, enqueue_token=token).update(
        enqueue_token=token + 1, lease_until=leases.lease_until()
    )
    if replaced:
        transaction.on_commit(lambda: _enqueue(job_id, token=token + 1, kind=kind))
    return bool(replaced)


def _enqueue(job_id: int, countdown: float | None = None, *, token: int, kind: str) -> None:
    """Hand a job to the broker, on its kind's queue; if the broker is down the job
    stays queued, its lease ended, and the sweep (``sweep_queued_jobs``) sends it."""
    enqueue.send_job(job_id, countdown, token=token, kind=kind)


def sweep_queued_jobs(*, older_than_seconds: float = 60) -> int:
    """Send again the queued jobs whose message is lost; returns how many were sent.

    A job is looked at only once its lease is over (``core.leases``), and sent again
    only if the broker holds no message of its current token (``core.broker``): a job
    waiting in its queue behind a long one is left alone however long it waits (its
    lease is renewed). Sending again bumps the token first, conditionally, so two
    sweeps at once send one message, and the old message, should it turn up, does
    nothing. ``older_than_seconds`` spares jobs just created (not yet committed).
    """
    now = timezone.now()
    overdue = list(
        Job.objects.filter(
            Q(lease_until__isnull=True) | Q(lease_until__lte=now),
            status=JobStatus.QUEUED,
            created_at__lte=now - timedelta(seconds=older_than_seconds),
        )
        .order_by("id")
        .values_list("pk", "enqueue_token", "kind")[:500]
    )
    if not overdue:
        return 0
    waiting = broker.waiting_task_ids()
    sent = 0
    for job_id, token, kind in overdue:
        current = Job.objects.filter(pk=job_id, status=JobStatus.QUEUED, enqueue_token=token)
        if waiting is not None and enqueue.job_task_id(job_id, token) in waiting:
            current.update(lease_until=leases.lease_until())  # still queued: wait on
            continue
        if current.update(enqueue_token=token + 1, lease_until=leases.lease_until()):
            _enqueue(job_id, token=token + 1, kind=kind)
            sent += 1
    return sent


class JobSuperseded(Exception):
    """This run is no longer its job's current attempt: the sweep declared it lost, or a
    later delivery took it over. Raised at the run's next progress report, inside the
    handler's transaction, so what it was writing is rolled back."""


def _runner_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


# Jobs whose run is live in this process (a runner naming this process but absent from
# here ended abnormally, e.g. an exception Celery retries in the same pool child).
_running_here: set[int] = set()


def _process_is_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:  # a killed process not yet reaped by its parent still answers kill(pid, 0)
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return False


def _previous_run_is_dead(job: Job) -> bool:
    """True if the job's current run can be taken over: its heartbeat is stale, or its
    runner is a process of this host that no longer exists. A runner on another host
    with a fresh heartbeat is presumed alive (the sweep steps in if it stops beating)."""
    beat = job.heartbeat_at or job.started_at
    if beat is None or beat < timezone.now() - timedelta(seconds=settings.JOB_HEARTBEAT_TIMEOUT):
        return True
    host, _, pid = job.runner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return job.pk not in _running_here
    return _process_is_gone(int(pid))


class _Heartbeat:
    """A run's progress reporter and heartbeat.

    In a worker, a small daemon thread writes ``heartbeat_at`` (and the latest progress)
    every ``interval`` seconds, and soon after each progress report, on a connection of
    its own: a handler busy inside one long transaction (a recomputation is one) keeps
    beating, and its progress becomes visible to pollers. Inline (eager, tests) there is
    no thread and progress is written directly, as before. Every write is conditional on
    (id, attempt, running): when it matches nothing this run was superseded, and the next
    progress report raises ``JobSuperseded``.
    """

    MIN_GAP = 0.5  # seconds between two writes prompted by progress reports

    def __init__(self, job_id: int, attempt: int, interval: float | None) -> None:
        self.job_id = job_id
        self.attempt = attempt
        self.interval = interval
        self.lost = False
        self.progress: tuple[int, int, str] | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _current(self) -> QuerySet[Job]:
        return Job.objects.filter(pk=self.job_id, attempts=self.attempt, status=JobStatus.RUNNING)

    def start(self) -> None:
        if self.interval:
            self._thread = threading.Thread(
                target=self._loop, name=f"job-{self.job_id}-heartbeat", daemon=True
            )
            self._thread.start()

    def report(self, done: int, total: int, message: str = "") -> None:
        if self.lost:
            raise JobSuperseded(f"job {self.job_id} attempt {self.attempt} was superseded")
        with self._lock:
            self.progress = (done, total, message[:255])
        if self._thread is None:
            if not self._current().update(done=done, total=total, message=message[:255]):
                self.lost = True
                raise JobSuperseded(f"job {self.job_id} attempt {self.attempt} was superseded")
        else:
            self._wake.set()

    def progress_fields(self) -> dict[str, Any]:
        with self._lock:
            if self.progress is None:
                return {}
            done, total, message = self.progress
        return {"done": done, "total": total, "message": message}

    def _loop(self) -> None:
        last = 0.0
        try:
            while not self._stop.is_set():
                self._wake.wait(self.interval)
                gap = self.MIN_GAP - (time.monotonic() - last)
                if gap > 0 and self._stop.wait(gap):
                    break
                if self._stop.is_set():
                    break
                self._wake.clear()
                self.beat()
                last = time.monotonic()
        finally:
            connection.close()  # this thread's own connection

    def beat(self) -> None:
        try:
            updated = self._current().update(heartbeat_at=timezone.now(), **self.progress_fields())
        except DatabaseError as exc:  # the database is away: try again next time
            logger.warning("heartbeat of job %s failed: %r", self.job_id, exc)
            connection.close()
            return
        if not updated:
            logger.warning("job %s attempt %s was superseded", self.job_id, self.attempt)
            self.lost = True
            self._stop.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10)


def run(job_id: int, *, token: int | None = None, heartbeat_interval: float | None = None) -> str:
    """Run a job once; a finished job is left as it is (a redelivered task is a no-op),
    and so is a message whose ``token`` is no longer the job's (the sweep replaced it).

    A job found running is taken over only if its run is dead (see
    ``_previous_run_is_dead``); otherwise this delivery leaves it to its live runner.
    Claiming increments ``attempts`` conditionally, so of two deliveries at once one
    runs, and every later write of this run names its attempt.

    ``heartbeat_interval``: a worker passes ``JOB_HEARTBEAT_INTERVAL`` and the run beats
    from a thread; None (inline runs, which die with their caller) writes progress directly.
    """
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        return "missing"
    if job.status in (JobStatus.SUCCEEDED, JobStatus.FAILED):
        return job.status
    if token is not None and token != job.enqueue_token:
        return "stale message"
    if job.status == JobStatus.RUNNING and not _previous_run_is_dead(job):
        return "running elsewhere"
    if job.attempts >= settings.JOB_MAX_ATTEMPTS:
        Job.objects.filter(pk=job.pk, attempts=job.attempts, status=job.status).update(
            status=JobStatus.FAILED,
            error=_attempts_exhausted(job.attempts),
            finished_at=timezone.now(),
            runner="",
        )
        return JobStatus.FAILED
    attempt = job.attempts + 1
    now = timezone.now()
    claimed = Job.objects.filter(
        pk=job.pk, status=job.status, attempts=job.attempts, enqueue_token=job.enqueue_token
    ).update(
        status=JobStatus.RUNNING,
        started_at=now,
        heartbeat_at=now,
        attempts=attempt,
        runner=_runner_id(),
    )
    if not claimed:
        return "claimed elsewhere"
    job.refresh_from_db()
    heartbeat = _Heartbeat(job.pk, attempt, heartbeat_interval or None)
    _running_here.add(job.pk)
    heartbeat.start()
    try:
        result = _handlers[job.kind](job, heartbeat.report)
    except JobSuperseded:
        return "superseded"
    except BoxcarsError as exc:
        heartbeat.stop()
        written = _finish(job.pk, attempt, JobStatus.FAILED, heartbeat, error=exc.as_dict())
        return JobStatus.FAILED if written else "superseded"
    except Exception as exc:
        heartbeat.stop()
        outcome = _after_error(job, attempt, exc)
        if outcome is None:
            raise  # the database is away too: Celery's retry of the task, then the sweep
        return outcome
    finally:
        heartbeat.stop()
        _running_here.discard(job.pk)
    written = _finish(job.pk, attempt, JobStatus.SUCCEEDED, heartbeat, result=result, error=None)
    return JobStatus.SUCCEEDED if written else "superseded"


def _after_error(job: Job, attempt: int, exc: Exception) -> str | None:
    """An unexpected error ended the run: retry after a backoff (a new message, the
    job queued meanwhile) or, at ``JOB_MAX_ATTEMPTS``, give up with the error kept.
    None if the database cannot be written either."""
    error = {"code": "job_failed", "detail": f"{type(exc).__name__}: {exc}"[:2000], "field": None}
    logger.warning("job %s attempt %s failed: %s", job.pk, attempt, error["detail"])
    this_run = Job.objects.filter(pk=job.pk, attempts=attempt, status=JobStatus.RUNNING)
    try:
        if attempt >= settings.JOB_MAX_ATTEMPTS:
            written = this_run.update(
                status=JobStatus.FAILED,
                error=error,
                message=f"gave up after {attempt} attempts"[:255],
                finished_at=timezone.now(),
                runner="",
            )
            return JobStatus.FAILED if written else "superseded"
        delay = leases.backoff(settings.JOB_RETRY_BACKOFF, attempt)
        token = job.enqueue_token + 1
        written = this_run.update(
            status=JobStatus.QUEUED,
            error=error,
            message=f"attempt {attempt} failed; retrying in {delay:g} s"[:255],
            enqueue_token=token,
            lease_until=leases.lease_until(delay),
            runner="",
        )
    except DatabaseError:
        return None
    if not written:
        return "superseded"
    if not leases.is_eager():  # eager: the in-process sweep runs it once it is due
        _enqueue(job.pk, delay, token=token, kind=job.kind)
    return "retrying"


def _finish(job_id: int, attempt: int, status: str, heartbeat: _Heartbeat, **fields: Any) -> bool:
    """The run's last write, refused if the run is no longer the job's current attempt."""
    return bool(
        Job.objects.filter(pk=job_id, attempts=attempt, status=JobStatus.RUNNING).update(
            status=status,
            finished_at=timezone.now(),
            runner="",
            **heartbeat.progress_fields(),
            **fields,
        )
    )


def _attempts_exhausted(attempts: int) -> dict[str, Any]:
    return {
        "code": "job_attempts_exhausted",
        "detail": f"The job was started {attempts} times and never finished; it is not retried.",
        "field": None,
    }


def sweep_stalled_jobs(*, timeout_seconds: float | None = None) -> int:
    """Declare lost the running jobs whose heartbeat is older than the bound
    (``JOB_HEARTBEAT_TIMEOUT``): each is marked failed (``worker_lost``) and a retry
    job takes over its work and its dedupe key, so asking again for the same work
    finds the retry, not the dead job. Returns how many were declared lost.

    Nothing waits for the broker's visibility timeout: if the original task is
    delivered again later it finds its job failed and does nothing.
    """
    timeout = settings.JOB_HEARTBEAT_TIMEOUT if timeout_seconds is None else timeout_seconds
    cutoff = timezone.now() - timedelta(seconds=timeout)
    stale = (
        Q(heartbeat_at__lt=cutoff)
        | Q(heartbeat_at__isnull=True, started_at__lt=cutoff)
        | Q(heartbeat_at__isnull=True, started_at__isnull=True)
    )
    candidates = list(
        Job.objects.filter(stale, status=JobStatus.RUNNING)
        .order_by("id")
        .values_list("pk", "attempts")[:500]
    )
    return sum(_declare_lost(pk, attempts, cutoff, timeout) for pk, attempts in candidates)


def _declare_lost(job_id: int, attempts: int, cutoff: datetime, timeout: float) -> bool:
    with transaction.atomic():
        job = (
            Job.objects.select_for_update(skip_locked=True)  # locked: being written, alive
            .filter(pk=job_id, status=JobStatus.RUNNING, attempts=attempts)
            .first()
        )
        if job is None:
            return False  # finished or taken over meanwhile
        beat = job.heartbeat_at or job.started_at
        if beat is not None and beat >= cutoff:
            return False  # beating again meanwhile
        now = timezone.now()
        if attempts >= settings.JOB_MAX_ATTEMPTS:
            Job.objects.filter(pk=job.pk).update(
                status=JobStatus.FAILED,
                error=_attempts_exhausted(attempts),
                finished_at=now,
                runner="",
            )
            return True
        retry = _retry_as(job, attempts=attempts)
        Job.objects.filter(pk=job.pk).update(
            status=JobStatus.FAILED,
            error={
                "code": "worker_lost",
                "detail": (
                    f"The worker running attempt {attempts} stopped answering (no heartbeat "
                    f"for {timeout:g} s); job {retry.pk} retries it."
                ),
                "field": None,
            },
            finished_at=now,
            runner="",
            retried_as=retry,
        )
    logger.warning("job %s lost with its worker; retried as job %s", job_id, retry.pk)
    return True


def _retry_as(job: Job, *, attempts: int) -> Job:
    """A new job doing ``job``'s work, taking over its dedupe key (asking again for the
    same work finds the retry), enqueued on commit; inside the caller's transaction."""
    Job.objects.filter(pk=job.pk).update(dedupe_key=None)
    retry = Job.objects.create(
        kind=job.kind,
        params=job.params,
        club_id=job.club_id,
        created_by_id=job.created_by_id,
        dedupe_key=job.dedupe_key,
        attempts=attempts,
        lease_until=leases.lease_until(),
    )
    transaction.on_commit(lambda: _enqueue(retry.pk, token=0, kind=retry.kind))
    return retry


GAVE_UP_CODES = ("job_failed", "job_attempts_exhausted")
"""The errors of a job that gave up (as opposed to a refusal with a domain error)."""


def retry_failed_job(job_id: int) -> Job | None:
    """Start a failed job again, as a new job with a fresh count of attempts; the failed
    one points at it (``retried_as``). None if the job is not failed or was retried."""
    with transaction.atomic():
        job = (
            Job.objects.select_for_update()
            .filter(pk=job_id, status=JobStatus.FAILED, retried_as__isnull=True)
            .first()
        )
        if job is None:
            return None
        retry = _retry_as(job, attempts=0)
        Job.objects.filter(pk=job.pk).update(retried_as=retry)
    logger.info("failed job %s retried as job %s", job_id, retry.pk)
    return retry
