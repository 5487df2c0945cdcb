"""Rating follow-ups of match results: event handlers, long jobs and the nightly check.

* ``match.finished`` (outbox, after commit, in the ``handle_event`` task): apply the
  match to its club's list and the site list. The task is idempotent (see
  ``games.services.ratings.apply_match``), so a retried delivery changes nothing.
* ``match.result_changed``: a correction, void or undo of a result starts a
  ``ratings.recompute_from`` job that replays the match's lists from it, in order,
  with progress.
* ``ratings.recompute`` (a director's request) and ``ratings.recompute_all`` (the
  nightly beat task) recompute lists from scratch; the job result reports drift.

Registered at start-up by ``games.wiring``.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from core import jobs
from core.models import Job
from games.job_kinds import RECOMPUTE_ALL, RECOMPUTE_FROM
from games.models import Club
from games.services import ratings as rating_services


def apply_finished_match(payload: dict[str, Any]) -> None:
    rating_services.apply_match(match_id=payload["match_id"])


def rated_match(payload: dict[str, Any]) -> bool:
    """Which ``match.finished`` events :func:`apply_finished_match` acts on (``rated``
    is fixed when a match is made; an event without it is taken)."""
    return bool(payload.get("rated", True))


def recompute_after_result_change(payload: dict[str, Any]) -> None:
    jobs.start_job(
        kind=RECOMPUTE_FROM,
        params={"match_id": payload["match_id"]},
        club=Club.objects.filter(pk=payload.get("club_id")).first(),  # type: ignore[misc]  # pk=None: no row; the stubs refuse None
    )


def recompute_from_job(job: Job, progress: jobs.Progress) -> dict[str, Any]:
    return {
        "lists": rating_services.recompute_after_change(
            match_id=job.params["match_id"], progress=progress
        )
    }


def recompute_list_job(job: Job, progress: jobs.Progress) -> dict[str, Any]:
    report = rating_services.recompute_list(rating_list_id=job.params["list"], progress=progress)
    return report.as_dict()


def recompute_all_job(job: Job, progress: jobs.Progress) -> dict[str, Any]:
    reports = rating_services.recompute_all_lists(progress=progress)
    return {
        "lists": reports,
        "drifted_lists": sum(1 for r in reports if r["drifted_players"]),
        "max_drift": max((r["max_drift"] for r in reports), default=0.0),
    }


#: The beat's task (``config/settings.py``), registered and routed by ``games/wiring.py``.
NIGHTLY_TASK = "games.rating_jobs.nightly_recompute"


def nightly_recompute() -> int:
    """Beat entry point: one ``ratings.recompute_all`` job per night (deduplicated)."""
    job, _ = jobs.start_job(
        kind=RECOMPUTE_ALL, dedupe_key=f"ratings-nightly-{timezone.now().date().isoformat()}"
    )
    return job.pk
