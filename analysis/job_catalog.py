"""The analysis app's long job, declared once (``core.job_kinds.JobKind``): its kind
(``analysis.job_kinds``), its queue (bulk: GNU Backgammon takes its time), its handler
(``analysis.jobs``) and the shapes of its ``params`` and ``result``
(``analysis.api_shapes``). ``analysis/wiring.py`` registers it.
"""

from __future__ import annotations

from core.job_kinds import JobKind
from core.queues import BULK

from . import api_shapes, job_kinds, jobs

JOB_KINDS = (
    JobKind(
        job_kinds.ANALYSE_MATCH,
        BULK,
        jobs.analyse_match_job,
        "Analysis",
        api_shapes.AnalysisJobParamsSerializer,
        api_shapes.AnalysisJobResultSerializer,
    ),
)
