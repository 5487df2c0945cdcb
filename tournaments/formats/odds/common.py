"""What every odds model shares: the answer (:class:`EventOdds`), the chance matrices, the
standard error of a Monte Carlo figure, and the progress callback.

The models themselves are :mod:`tournaments.formats.odds.brackets` and
:mod:`tournaments.formats.odds.swiss` (see :mod:`tournaments.formats.odds`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..places import PlaceBucket

Progress = Callable[[int, int], None]

CHUNK = 25_000
"""Simulations run together: bounds memory (a 64-player bracket: about 15 MB a chunk)."""


def standard_error(simulations: int, p: float = 0.5) -> float:
    """The standard error of a probability ``p`` estimated from ``simulations`` runs.

    At ``p = 0.5`` (the default) this is the largest it can be, the figure the API and
    the pages state: 0.0016 for 100,000 simulations, 0.0022 for 50,000.
    """
    if simulations <= 0:
        return 0.0
    return math.sqrt(p * (1.0 - p) / simulations)


def fibs_matrix(ratings: Sequence[float] | NDArray[np.float64], length: int) -> NDArray[np.float64]:
    """``P[a, b]``: the chance that ``a`` beats ``b`` over ``length`` points, FIBS formula.

    The formula of ``games.rules.fibs.win_probabilities`` (``1 / (10^(-D sqrt(N) / 2000) + 1)``
    with ``D = r_a - r_b``) over every pair at once; the service passes these matrices.
    """
    r = np.asarray(ratings, dtype=float)
    diff = r[:, None] - r[None, :]
    matrix: NDArray[np.float64] = 1.0 / (10.0 ** (-diff * math.sqrt(max(length, 1)) / 2000.0) + 1.0)
    return matrix


@dataclass(frozen=True)
class EventOdds:
    """The odds of every entry (index = seed order, 0-based).

    ``win[i]``: chance to win the event; ``final[i]``: to play the final (``None`` for
    formats without one); ``places[i, j]``: to finish in ``buckets[j]`` (a place shared
    by ``buckets[j].size`` players, so column ``j`` sums to that size).
    ``simulations`` is 0 for an exact computation.
    """

    win: np.ndarray
    final: np.ndarray | None
    places: np.ndarray
    buckets: tuple[PlaceBucket, ...]
    simulations: int

    @property
    def standard_error(self) -> float:
        return standard_error(self.simulations)
