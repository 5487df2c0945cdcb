"""Event odds: each entrant's chance to win, to reach the final, to finish in each place.

``docs/chances.md`` ("Event odds") explains the model; in short:

* **Brackets** (single elimination with consolation and last chance, double
  elimination): the remaining matches are played out by Monte Carlo in the graph's
  topological order (:class:`~tournaments.formats.bracket_graph.BracketGraph`), with
  the same rules as :mod:`tournaments.formats.bracket_engine`: byes and walkovers let
  the other side through, a loser goes where the drop map sends them, a grand-final
  reset is played only when the losers' bracket champion wins the first final.
  Recorded results are fixed. A match in progress uses its own chance for side A (from
  its score); an unplayed one the chance from a per-match matrix (``matrices``, the
  FIBS pre-match probability for its length in the service). Withdrawn entries lose
  every match they would meet, as the bracket's walkovers have it.
* The same plan is played three ways: vectorised with numpy (:func:`simulate_bracket`,
  all simulations at once, one match at a time), by a plain Python loop
  (:func:`simulate_bracket_loop`, one simulation at a time: the cross-check and the
  benchmark's baseline), and exactly (:func:`exact_bracket`, every combination of the
  remaining results, for small brackets).
* **Swiss** (fixed number of rounds): :func:`simulate_swiss`, an approximation of the
  real pairer stated in the docs: players sorted by wins (ties by seed) are paired
  with their neighbour, the lowest-ranked gets the bye; rematches are not avoided.
  Final ranking: wins, then Buchholz, then seed.

Finishing places follow the event's prize order (:func:`tournaments.formats.places.place_layout`).
A Monte Carlo probability from ``S`` simulations has standard error
``sqrt(p (1 - p) / S)``, at most ``0.5 / sqrt(S)`` (:func:`standard_error`).

The models live by kind: :mod:`.brackets` and :mod:`.swiss`, over :mod:`.common`; every
public name is importable from here, where the callers import it.
"""

from __future__ import annotations

from .brackets import (
    EXACT_LIMIT,
    BracketPlan,
    exact_bracket,
    plan_bracket,
    simulate_bracket,
    simulate_bracket_loop,
)
from .common import CHUNK, EventOdds, Progress, fibs_matrix, standard_error
from .swiss import SwissInput, simulate_swiss, swiss_buckets

__all__ = [
    "CHUNK",
    "EXACT_LIMIT",
    "BracketPlan",
    "EventOdds",
    "Progress",
    "SwissInput",
    "exact_bracket",
    "fibs_matrix",
    "plan_bracket",
    "simulate_bracket",
    "simulate_bracket_loop",
    "simulate_swiss",
    "standard_error",
    "swiss_buckets",
]
