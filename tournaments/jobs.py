"""Long tournament jobs (core.jobs): pair the next round, redraw, drop-map preview.

Each handler takes ids from ``job.params`` and calls one service; pairing is idempotent
(the service returns an existing round), so a redelivered job changes nothing. The
kinds are in :mod:`tournaments.job_kinds`; ``tournaments/wiring.py`` registers the handlers.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib.auth import get_user_model

from core.jobs import Progress
from core.models import Job
from games.services.actors import Actor, actor_for_user


def _actor(job: Job) -> Actor:
    user = get_user_model().objects.filter(pk=job.created_by_id).first()  # type: ignore[misc]  # pk=None: no row; the stubs refuse None
    return actor_for_user(user)


def pair_round(job: Job, progress: Progress) -> dict[str, Any]:
    from tournaments.services.rounds import pair_next_round

    outcome = pair_next_round(
        actor=_actor(job),
        tournament_id=job.params["tournament"],
        round_number=job.params.get("round"),
        progress=progress,
    )
    from tournaments.services.calls import call_due_rounds_of

    call_due_rounds_of(tournament_id=job.params["tournament"])  # auto_call_rounds
    return asdict(outcome)


def redraw(job: Job, progress: Progress) -> dict[str, Any]:
    from tournaments.services.draws import redraw_bracket

    progress(0, 1, "redrawing")
    result = redraw_bracket(
        actor=_actor(job),
        tournament_id=job.params["tournament"],
        random_seed=job.params.get("random_seed"),
    )
    progress(1, 1, "redrawn")
    return result


def drop_map(job: Job, progress: Progress) -> dict[str, Any]:
    from tournaments.services.draws import drop_map_preview_for

    progress(0, 1, "building the drop map")
    result = drop_map_preview_for(**job.params)
    progress(1, 1, "done")
    return result


def odds(job: Job, progress: Progress) -> dict[str, Any]:
    from tournaments.services.odds import compute_odds, release_request, wait_for_quiet

    tournament_id = job.params["tournament"]
    wait_for_quiet(tournament_id=tournament_id, asked_since=job.created_at.timestamp())
    release_request(job_id=job.pk, tournament_id=tournament_id)
    snapshot = compute_odds(tournament_id=tournament_id, progress=progress)
    if snapshot is None:
        return {"snapshot": None}
    progress(1, 1, "done")
    return {"snapshot": snapshot.pk, "version": snapshot.version, "method": snapshot.method}


def notify_call(job: Job, progress: Progress) -> dict[str, Any]:
    """Email (and push) a called round's players (or one match's, called when made
    after its round); each notice once (call_notices)."""
    from tournaments.call_notices import send_call_notices

    progress(0, 1, "telling the players")
    counts = send_call_notices(call_id=job.params["call"], match_id=job.params.get("match"))
    progress(1, 1, "done")
    return counts
