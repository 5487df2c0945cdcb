"""Everything ``clubdata`` plugs into ``core``, in one place (``ClubdataConfig.ready``
calls :func:`register`): the archive's two jobs and the club settings page's way to the
club's data. ``tests/core/wiring.txt`` lists every registration.
"""

from __future__ import annotations

from core.api_jobs import register_job_shapes
from core.jobs import register_job_handler

from . import api_shapes, panels, services


def register() -> None:
    register_job_handler(services.EXPORT, services.export_job)
    register_job_handler(services.IMPORT, services.import_job)
    register_job_shapes(api_shapes.SHAPES)  # their params and results, for the schema
    panels.register()  # the club settings page's link to the club's data
