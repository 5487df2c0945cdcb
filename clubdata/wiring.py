"""Everything ``clubdata`` plugs into ``core``, in one place (``ClubdataConfig.ready``
calls :func:`register`): the archive's two jobs and the club settings page's way to the
club's data. ``tests/core/wiring.txt`` lists every registration.
"""

from __future__ import annotations

from core.job_kinds import register_job_kinds

from . import job_catalog, panels


def register() -> None:
    register_job_kinds(job_catalog.JOB_KINDS)  # their handlers, queues and shapes
    panels.register()  # the club settings page's link to the club's data
