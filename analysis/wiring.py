"""Everything ``analysis`` plugs into ``core``, in one place (``AnalysisConfig.ready``
calls :func:`register`).

A finished match with a transcript (``match.finished``, ``match.transcript_attached``)
starts an analysis when its club analyses automatically; the analysis is a long job;
its figures show on the match and player pages through panels. ``tests/core/wiring.txt``
lists every registration.
"""

from __future__ import annotations

from core.events import register_event_handler
from core.job_kinds import register_job_kinds
from games import events

from . import club_zones, job_catalog, jobs, panels


def register() -> None:
    register_event_handler(events.MATCH_TRANSCRIPT_ATTACHED, jobs.analyse_imported_match)
    register_event_handler(
        events.MATCH_FINISHED, jobs.analyse_imported_match, wants=jobs.with_transcript
    )
    register_job_kinds(job_catalog.JOB_KINDS)  # its handler, queue and shapes
    panels.register()  # the match's analysis and the player's PR history
    club_zones.register()
