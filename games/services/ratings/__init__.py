"""Keeping the rating lists, by use case:

* ``lists``: what is rated, the lists a match counts on, and their locks;
* ``apply``: one finished match applied to its lists, incrementally, exactly once;
* ``recompute``: a list replayed in full or from a changed match on;
* ``history``: the bulk writes (``COPY``, a fresh partition swapped in on PostgreSQL);
* ``imports``: a club's past results imported;
* ``job_starts``: the long recomputation a director asks for.

The FIBS replay itself is pure and lives in ``games.rules.rating_replay``. The names
below are the package's public surface (``from games.services import ratings``).
"""

from games.rules.rating_replay import Standing, replay

from .apply import ApplyReport, apply_match
from .history import write_standings
from .imports import ImportReport, import_results
from .job_starts import request_recompute
from .lists import (
    club_list,
    is_rated,
    lists_of_club,
    matches_of_list,
    rated_matches,
    site_list,
)
from .recompute import (
    BATCH,
    RecomputeReport,
    batches,
    match_batches,
    paused_cyclic_gc,
    recompute_after_change,
    recompute_all_lists,
    recompute_list,
)

__all__ = [
    "BATCH",
    "ApplyReport",
    "ImportReport",
    "RecomputeReport",
    "Standing",
    "apply_match",
    "batches",
    "club_list",
    "import_results",
    "is_rated",
    "lists_of_club",
    "match_batches",
    "matches_of_list",
    "paused_cyclic_gc",
    "rated_matches",
    "recompute_after_change",
    "recompute_all_lists",
    "recompute_list",
    "replay",
    "request_recompute",
    "site_list",
    "write_standings",
]
