"""Everything ``analysis`` plugs into ``core``, in one place (``AnalysisConfig.ready``
calls :func:`register`).

A finished match with a transcript (``match.finished``, ``match.transcript_attached``)
starts an analysis when its club analyses automatically; the analysis is a long job;
its figures show on the match and player pages through panels. ``tests/core/wiring.txt``
lists every registration.
"""

from __future__ import annotations

from core.api_jobs import register_job_shape
from core.events import register_event_handler
from core.jobs import register_job_handler
from games import events

from . import api_shapes, club_zones, job_kinds, jobs, panels


def register() -> None:
    register_event_handler(events.MATCH_TRANSCRIPT_ATTACHED, jobs.analyse_imported_match)
    register_event_handler(
        events.MATCH_FINISHED, jobs.analyse_imported_match, wants=jobs.with_transcript
    )
    register_job_handler(job_kinds.ANALYSE_MATCH, jobs.analyse_match_job)
    register_job_shape(  # its params and result, for the schema
        job_kinds.ANALYSE_MATCH,
        name="Analysis",
        params=api_shapes.AnalysisJobParamsSerializer,
        result=api_shapes.AnalysisJobResultSerializer,
    )
    panels.register()  # the match's analysis and the player's PR history
    club_zones.register()
