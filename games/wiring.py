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

from core.api_jobs import register_job_shapes
from core.demo import register_demo_seeder
from core.events import register_event_handler
from core.idempotency import register_scope
from core.jobs import register_job_handler
from games import (
    club_zones,
    dispute_notices,
    events,
    job_kinds,
    live,
    rating_jobs,
    score_links,
    transcript_jobs,
)
from games.api import job_shapes


def register() -> None:
    # After a result commits (the outbox): ratings, and the directors told of a dispute.
    register_event_handler(
        events.MATCH_FINISHED, rating_jobs.apply_finished_match, wants=rating_jobs.rated_match
    )
    register_event_handler(events.MATCH_RESULT_CHANGED, rating_jobs.recompute_after_result_change)
    register_event_handler(events.MATCH_DISPUTED, dispute_notices.tell_directors)
    # Long jobs (rating_jobs also defines the nightly beat task, registered by its import).
    register_job_handler(job_kinds.RECOMPUTE_FROM, rating_jobs.recompute_from_job)
    register_job_handler(job_kinds.RECOMPUTE_LIST, rating_jobs.recompute_list_job)
    register_job_handler(job_kinds.RECOMPUTE_ALL, rating_jobs.recompute_all_job)
    register_job_handler(job_kinds.IMPORT_TRANSCRIPTS, transcript_jobs.import_transcripts_job)
    register_job_shapes(job_shapes.SHAPES)  # their params and results, for the schema
    # Pages and writes.
    register_scope("games.score_link", score_links.idempotency_scope)
    live.register()  # match:, player:, club: channels; a match's write touches them
    club_zones.register()  # club and match pages in the club's zone
    register_demo_seeder("games", "games.demo.seed")
