"""Starting the long rating jobs a director asks for (run by ``games.rating_jobs``)."""

from __future__ import annotations

from typing import Any

from core import access
from core.errors import N_
from games.job_kinds import RECOMPUTE_LIST
from games.models import Club
from games.rules.errors import NotAllowed

from .lists import club_list


def request_recompute(*, user: Any, club: Club) -> tuple[Any, bool]:
    """A director asks for the club's list to be recomputed from scratch: a long job.
    Asking again while one is queued or running returns that job."""
    from core import jobs
    from core.models import Job, JobStatus

    if user is None or not access.is_director(user, club):
        raise NotAllowed("directors_only", N_("Only the club's directors recompute its ratings."))
    rating_list = club_list(club)
    pending = (
        Job.objects.filter(
            kind=RECOMPUTE_LIST,
            params__list=rating_list.pk,
            status__in=[JobStatus.QUEUED, JobStatus.RUNNING],
        )
        .order_by("-pk")
        .first()
    )
    if pending is not None:
        return pending, False
    return jobs.start_job(
        kind=RECOMPUTE_LIST, params={"list": rating_list.pk}, club=club, created_by=user
    )
