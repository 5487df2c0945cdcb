"""The club archive's two long jobs, each declared once (``core.job_kinds.JobKind``):
its kind, its queue (bulk), its handler (``clubdata.services``) and the shapes of its
``params`` and ``result`` (``clubdata.api_shapes``). ``clubdata/wiring.py`` registers
them.
"""

from __future__ import annotations

from core.job_kinds import JobKind
from core.queues import BULK

from . import api_shapes, services

JOB_KINDS = (
    JobKind(
        services.EXPORT,  # its club's archive
        BULK,
        services.export_job,
        "ClubExport",
        None,
        api_shapes.ClubExportResultSerializer,
    ),
    JobKind(
        services.IMPORT,
        BULK,
        services.import_job,
        "ClubImport",
        api_shapes.ClubImportParamsSerializer,
        api_shapes.ClubImportResultSerializer,
    ),
)
