"""Swiss odds (fixed number of rounds): the rest of the event played out by Monte Carlo.

An approximation of the real pairer stated in ``docs/chances.md``: players sorted by
wins (ties by seed) are paired with their neighbour, the lowest-ranked gets the bye;
rematches are not avoided. Final ranking: wins, then Buchholz, then seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.errors import N_

from ..errors import FormatError
from ..places import PlaceBucket
from .common import CHUNK, EventOdds, Progress


@dataclass(frozen=True)
class SwissInput:
    """A Swiss event part-way (entries are 0-based seed indices).

    ``wins``: match wins so far (byes included when they count); ``opponents``: each
    entry's opponents so far; ``current``: the pairs of the round being played that
    have no result yet, each ``(a, b, chance of a or None)`` (None: from the matrix);
    ``rounds_left``: rounds still to pair after it; ``matrices[r]``: the chance matrix
    for the current round (``r = 0``, unused without ``current``) and each later one;
    ``active``: who is still paired (withdrawn entries keep their record but play no more).
    """

    wins: Sequence[int]
    opponents: Sequence[Sequence[int]]
    current: Sequence[tuple[int, int, float | None]]
    rounds_left: int
    matrices: Sequence[np.ndarray]
    active: Sequence[bool]
    bye_is_win: bool = True
    places: int = 8


def swiss_buckets(entries: int, places: int = 8) -> tuple[PlaceBucket, ...]:
    """Places 1..k of a Swiss event (k = ``places``, at most the entry count)."""
    return tuple(PlaceBucket(str(k), "swiss", k, k, k) for k in range(1, min(places, entries) + 1))


def simulate_swiss(
    event: SwissInput,
    simulations: int,
    *,
    seed: int | None = None,
    progress: Progress | None = None,
) -> EventOdds:
    """Play the rest of a Swiss event ``simulations`` times (the stated approximation).

    Pairing: active players sorted by wins, ties by seed, each paired with the next;
    with an odd number the last gets the bye (a win if byes count). Ranking at the end:
    wins, then Buchholz (the sum of the opponents' wins), then seed.
    """
    if simulations < 1:
        raise FormatError("odds_simulations", N_("At least one simulation."), "simulations")
    n = len(event.wins)
    if len(event.matrices) < event.rounds_left + 1:
        raise FormatError("odds_matrix", N_("A chance matrix is needed for every round left."))
    rng = np.random.default_rng(seed)
    buckets = swiss_buckets(n, event.places)
    win = np.zeros(n, dtype=np.int64)
    places = np.zeros((n, len(buckets)), dtype=np.int64)
    met = np.zeros((n, n), dtype=np.int16)
    for i, opponents in enumerate(event.opponents):
        for j in opponents:
            if j >= 0:
                met[i, j] += 1
    for a, b, _ in event.current:
        met[a, b] += 1
        met[b, a] += 1
    active = np.flatnonzero(np.asarray(event.active, dtype=bool))
    chunk = max(1, CHUNK // max(1, n // 32))
    done = 0
    while done < simulations:
        size = min(chunk, simulations - done)
        order = _swiss_chunk(event, size, rng, met, active)
        top = order[:, : len(buckets)]
        for k in range(top.shape[1]):
            places[:, k] += np.bincount(top[:, k], minlength=n)
        win += np.bincount(order[:, 0], minlength=n)
        done += size
        if progress is not None:
            progress(done, simulations)
    return EventOdds(
        win=win / simulations,
        final=None,
        places=places / simulations,
        buckets=buckets,
        simulations=simulations,
    )


def _swiss_chunk(
    event: SwissInput, size: int, rng: np.random.Generator, met: np.ndarray, active: np.ndarray
) -> np.ndarray:
    n = len(event.wins)
    wins = np.tile(np.asarray(event.wins, dtype=np.int16), (size, 1))
    rows = np.arange(size)[:, None]
    if event.current:
        a = np.array([c[0] for c in event.current])
        b = np.array([c[1] for c in event.current])
        matrix = event.matrices[0]
        p = np.array([matrix[x, y] if c is None else c for x, y, c in event.current])
        a_wins = rng.random((size, len(a))) < p
        wins[:, a] += a_wins
        wins[:, b] += ~a_wins
    later: list[np.ndarray] = []  # opponents in simulated rounds, -1 for the bye
    m = len(active)
    for r in range(event.rounds_left):
        if m < 2:
            break
        matrix = event.matrices[1 + r]
        # a stable sort keeps seed order within a score (and radix-sorts small ints)
        order = active[np.argsort(-wins[:, active], axis=1, kind="stable")]
        even = m - m % 2
        top, bottom = order[:, 0:even:2], order[:, 1:even:2]
        a_wins = rng.random(top.shape) < matrix[top, bottom]
        winner = np.where(a_wins, top, bottom)
        wins[np.broadcast_to(rows, winner.shape), winner] += 1  # distinct within a row
        opp = np.full((size, n), -1, dtype=np.int32)
        opp[np.broadcast_to(rows, top.shape), top] = bottom
        opp[np.broadcast_to(rows, top.shape), bottom] = top
        if m % 2 and event.bye_is_win:
            wins[np.arange(size), order[:, -1]] += 1
        later.append(opp)
    # a float product goes through BLAS (an integer one does not); exact below 2**53
    buchholz = (wins.astype(np.float64) @ met.T.astype(np.float64)).astype(np.int64)
    for opp in later:
        gathered = np.take_along_axis(wins, np.maximum(opp, 0), axis=1)
        buchholz += np.where(opp >= 0, gathered, 0)
    key = -(wins.astype(np.int64) * (n * n + 1) + buchholz)
    return np.argsort(key, axis=1, kind="stable")  # ties: seed order
