"""The games app's long jobs, each declared once (``core.job_kinds.JobKind``): its kind
(``games.job_kinds``), its queue, its handler (``games.rating_jobs``,
``games.transcript_jobs``) and the shapes of its ``params`` and ``result``
(``games.api.job_shapes``). ``games/wiring.py`` registers them.
"""

from __future__ import annotations

from core.job_kinds import JobKind
from core.queues import BULK, RESULTS
from games import job_kinds, rating_jobs, transcript_jobs
from games.api import job_shapes as s
from games.api.import_shapes import TranscriptsImportedSerializer

JOB_KINDS = (
    # a correction's replay and a director's recomputation: players see their ratings
    JobKind(
        job_kinds.RECOMPUTE_FROM,
        RESULTS,
        rating_jobs.recompute_from_job,
        "RecomputeFrom",
        s.RecomputeFromParamsSerializer,
        s.RecomputeFromResultSerializer,
    ),
    JobKind(
        job_kinds.RECOMPUTE_LIST,
        RESULTS,
        rating_jobs.recompute_list_job,
        "RecomputeList",
        s.RecomputeListParamsSerializer,
        s.RecomputeReportSerializer,
    ),
    # the nightly recomputation and large uploads: behind everything else
    JobKind(
        job_kinds.RECOMPUTE_ALL,
        BULK,
        rating_jobs.recompute_all_job,
        "RecomputeAll",
        None,
        s.RecomputeAllResultSerializer,
    ),
    JobKind(
        job_kinds.IMPORT_TRANSCRIPTS,
        BULK,
        transcript_jobs.import_transcripts_job,
        "TranscriptImport",
        s.TranscriptImportParamsSerializer,
        TranscriptsImportedSerializer,
    ),
)
