"""The chance of each side in a match being played, from its score.

``docs/chances.md`` ("Event odds"): until the match equity table lands
(``games.rules.match_chances``), this is the documented fallback: the match is a race
of single points, each won by side A with the chance ``g`` that makes a race to the
full length give the FIBS pre-match probability (``games.rules.fibs``); from the
current score, side A needs ``length - score_a`` points before side B needs
``length - score_b``. It ignores the cube, gammons and the Crawford rule, which the
match equity table accounts for.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from games.models import Match
from games.rules.fibs import win_probabilities


def race(g: float, away_a: int, away_b: int) -> float:
    """Chance that A wins ``away_a`` points before B wins ``away_b``, a point each time."""
    if away_a <= 0:
        return 1.0
    if away_b <= 0:
        return 0.0
    return sum(comb(away_a - 1 + k, k) * g**away_a * (1.0 - g) ** k for k in range(away_b))


@lru_cache(maxsize=4096)
def point_chance(p_match: float, length: int) -> float:
    """The per-point chance ``g`` with ``race(g, length, length) == p_match`` (bisection)."""
    low, high = 0.0, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        if race(mid, length, length) < p_match:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def in_progress_chance(
    match: Match, *, score_a: int, score_b: int, rating_a: float, rating_b: float
) -> float:
    """Side A's chance to win ``match`` from ``score_a``–``score_b``."""
    length = max(1, match.length)
    p_match = win_probabilities(rating_a, rating_b, length)[0]
    g = point_chance(round(p_match, 9), length)
    return race(g, length - score_a, length - score_b)
