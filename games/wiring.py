"""Everything ``games`` plugs into ``core``, in one place (``GamesConfig.ready`` calls
:func:`register`).

``games`` writes a result and emits its outbox events; what happens next is registered
here: the rating follow-ups and the dispute notice (after commit, ``core.events``), the
long jobs behind them and the transcript import (``core.jobs``), the live channels a
match's write touches (``core.live``), the clubs' time zones of its pages, the score
link's ``Idempotency-Key`` scope and the demo. ``docs/development.md`` ("The wiring")
draws a score entry's path through these hooks; ``tests/core/wiring.txt`` lists every
registration of every app, so a new hook is a reviewed change.
"""

from __future__ import annotations

from celery import shared_task

from core.demo import register_demo_seeder
from core.events import register_event_handler
from core.idempotency import register_scope
from core.job_kinds import register_job_kinds
from core.queues import BULK, NOTIFY, RESULTS, route_event, route_task
from games import (
    club_zones,
    dispute_notices,
    events,
    job_catalog,
    live,
    rating_jobs,
    score_links,
)


def register() -> None:
    # After a result commits (the outbox): ratings, and the directors told of a dispute.
    register_event_handler(
        events.MATCH_FINISHED, rating_jobs.apply_finished_match, wants=rating_jobs.rated_match
    )
    register_event_handler(events.MATCH_RESULT_CHANGED, rating_jobs.recompute_after_result_change)
    register_event_handler(events.MATCH_DISPUTED, dispute_notices.tell_directors)
    route_event(events.MATCH_FINISHED, RESULTS)  # ratings (an analysis it starts is bulk)
    route_event(events.MATCH_RESULT_CHANGED, RESULTS)
    route_event(events.MATCH_DISPUTED, NOTIFY)
    route_event(events.MATCH_TRANSCRIPT_ATTACHED, BULK)  # heard by analysis only
    # Long jobs: each kind's handler, queue and shapes (games.job_catalog), and the
    # nightly beat task that starts one.
    register_job_kinds(job_catalog.JOB_KINDS)
    shared_task(acks_late=True, name=rating_jobs.NIGHTLY_TASK)(rating_jobs.nightly_recompute)
    route_task(rating_jobs.NIGHTLY_TASK, BULK)
    # Pages and writes.
    register_scope("games.score_link", score_links.idempotency_scope)
    live.register()  # match:, player:, club: channels; a match's write touches them
    club_zones.register()  # club and match pages in the club's zone
    register_demo_seeder("games", "games.demo.seed")
