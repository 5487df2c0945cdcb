"""The tournaments' long jobs, each declared once (``core.job_kinds.JobKind``): its kind
(``tournaments.job_kinds``), its queue, its handler (``tournaments.jobs``) and the shapes
of its ``params`` and ``result`` (``tournaments.api.job_shapes``). ``tournaments/wiring.py``
registers them.
"""

from __future__ import annotations

from core.job_kinds import JobKind
from core.queues import NOTIFY, ODDS, RESULTS
from tournaments import job_kinds, jobs
from tournaments.api import job_shapes as s
from tournaments.api.shapes import DropMapSerializer

JOB_KINDS = (
    # what players wait for: the next round, a director's redraw, the drop map
    JobKind(
        job_kinds.PAIR_ROUND,
        RESULTS,
        jobs.pair_round,
        "PairRound",
        s.PairRoundParamsSerializer,
        s.PairRoundResultSerializer,
    ),
    JobKind(
        job_kinds.REDRAW,
        RESULTS,
        jobs.redraw,
        "Redraw",
        s.RedrawParamsSerializer,
        s.RedrawResultSerializer,
    ),
    JobKind(
        job_kinds.DROP_MAP,
        RESULTS,
        jobs.drop_map,
        "DropMap",
        s.DropMapParamsSerializer,
        DropMapSerializer,
    ),
    # CPU-bound, coalesced per event
    JobKind(
        job_kinds.ODDS,
        ODDS,
        jobs.odds,
        "Odds",
        s.TournamentParamsSerializer,
        s.OddsResultSerializer,
    ),
    JobKind(
        job_kinds.NOTIFY_CALL,
        NOTIFY,
        jobs.notify_call,
        "NotifyCall",
        s.NotifyCallParamsSerializer,
        s.NotifyCallResultSerializer,
    ),
)
