"""The chance of each side in a match being played, from its score.

``docs/chances.md`` ("Event odds"): the match equity table's chance shifted by
the players' ratings (:func:`games.rules.match_chances.match_winning_chance`, the
club's table of :mod:`games.met_tables`, Kazaross-XG2 unless it chose another),
Crawford and post-Crawford games included.
Where the table has no answer (a match longer than it covers) the documented fallback
is a race of single points, each won by side A with the chance ``g`` that makes a race
to the full length give the FIBS pre-match probability (``games.rules.fibs``): from
the score, side A needs ``length - score_a`` points before side B needs
``length - score_b``. The fallback ignores the cube, gammons and the Crawford rule.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from games.met_tables import club_table
from games.models import Match
from games.rules.errors import RuleViolation
from games.rules.fibs import win_probabilities
from games.rules.match_chances import match_winning_chance
from games.rules.scoring import MatchRules, next_game_facts


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


def race_chance(
    *, length: int, score_a: int, score_b: int, rating_a: float, rating_b: float
) -> float:
    """The fallback: a race of single points calibrated on the FIBS pre-match chance."""
    length = max(1, length)
    p_match = win_probabilities(rating_a, rating_b, length)[0]
    g = point_chance(round(p_match, 9), length)
    return race(g, length - score_a, length - score_b)


def in_progress_chance(
    match: Match, *, score_a: int, score_b: int, rating_a: float, rating_b: float
) -> float:
    """Side A's chance to win ``match`` from ``score_a``–``score_b``, before the next game."""
    crawford_played = match.crawford and match.games.filter(crawford=True).exists()
    try:
        crawford_game, post_crawford = next_game_facts(
            MatchRules(length=match.length, crawford=match.crawford),
            (score_a, score_b),
            crawford_played,
        )
        return match_winning_chance(
            club_table(match.club.match_equity_table),
            length=match.length,
            score_a=score_a,
            score_b=score_b,
            crawford_game=crawford_game,
            post_crawford=post_crawford,
            rating_a=rating_a,
            rating_b=rating_b,
        )
    except RuleViolation:  # beyond the table (or a score it cannot place): the race
        return race_chance(
            length=match.length,
            score_a=score_a,
            score_b=score_b,
            rating_a=rating_a,
            rating_b=rating_b,
        )
