"""A long job's kind, declared once: its name, its queue, its handler, its answer's shape.

Each app declares its kinds in its own ``job_catalog.py`` and hands them to
:func:`register_job_kinds` from its ``wiring.py``; from the one declaration come the
handler ``core.jobs`` runs, the queue ``core.enqueue`` sends it on (``core.queues``:
its priority) and the ``{shape}Job`` component of the schema (``core.api_jobs``). A kind
the wiring forgets a part of cannot be declared; ``tests/core/test_wiring.py`` fails
when a registered job lacks its queue or its shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core import queues
from core.api_jobs import register_job_shape
from core.jobs import Handler, register_job_handler


@dataclass(frozen=True)
class JobKind:
    """One kind of long job. ``kind`` is the name its starters use (``<app>.<what>``, a
    constant of the app's ``job_kinds.py``); ``queue`` one of :data:`core.queues.QUEUES`
    (most urgent first); ``handler`` ``fn(job, progress) -> dict``; ``shape`` names its
    schema component, ``params`` (None: it takes none) and ``result`` are the
    serializers describing the job's ``params`` and ``result``."""

    kind: str
    queue: str
    handler: Handler
    shape: str
    params: Any
    result: Any

    def __post_init__(self) -> None:
        if self.queue not in queues.QUEUES:
            raise ValueError(f"{self.kind}: {self.queue!r} is not a queue")
        if not self.shape or self.result is None:
            raise ValueError(f"{self.kind}: a job kind names its shape and its result")


def register_job_kinds(kinds: Sequence[JobKind]) -> None:
    """Register each kind's handler, queue and shape (an app's ``wiring.py``)."""
    for kind in kinds:
        register_job_handler(kind.kind, kind.handler)
        queues.route_job(kind.kind, kind.queue)
        register_job_shape(kind.kind, name=kind.shape, params=kind.params, result=kind.result)
