"""FIBS ratings: the win probability of a match and the rating change it causes.

Implements ``docs/rules.md``, "Ratings: the FIBS formula" (the formula of the First
Internet Backgammon Server, as published on rec.games.backgammon; the "batting average" table in
``data/ratings/fibs_batting_average_table.csv`` is its favourite's column).
The match length enters as sqrt(N) because a longer match lets skill show more: the
same rating gap makes the favourite likelier to win a longer match, and the stake of
the rating change grows with the length for the same reason.

Everything stays in floats: rounding is for display, and rounding each change would
make a club's list drift from zero-sum over many matches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from core.errors import N_

from .errors import RuleViolation


class BoostPolicy(StrEnum):
    """How a rating list treats a newcomer's experience (per club: docs/rules.md, "Ratings")."""

    FIBS = "fibs"  # K = max(1, 5 - E/100), E before this match
    FIBS_INCLUDING_MATCH = "fibs_including_match"  # the same with E + N
    NONE = "none"  # K = 1 for everyone


def _check_length(length: int) -> None:
    """Only real matches are rated: an unlimited session (0) has no length to use."""
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise RuleViolation(
            "rated_match_length_invalid",
            N_(
                "A rated match is at least 1 point long, not %(length)r (unlimited "
                "sessions are not rated).",
                length=length,
            ),
            field="length",
        )


def underdog_win_probability(diff: float, length: int) -> float:
    """P_u = 1 / (10^(D*sqrt(N)/2000) + 1): the lower-rated player's chance to win.

    ``diff`` is the rating difference D; its sign is ignored (D = |r1 - r2|). With equal
    ratings this is 1/2.
    """
    _check_length(length)
    d = abs(float(diff))
    odds: float = 10.0 ** (d * math.sqrt(length) / 2000.0)  # float ** float is Any in typeshed
    return 1.0 / (odds + 1.0)


def favourite_win_probability(diff: float, length: int) -> float:
    """1 - P_u: the "batting average" the favourite needs to keep his rating."""
    return 1.0 - underdog_win_probability(diff, length)


def win_probabilities(rating_a: float, rating_b: float, length: int) -> tuple[float, float]:
    """Each player's chance to win an N-point match, ``(p_a, p_b)``, summing to 1."""
    underdog = underdog_win_probability(rating_a - rating_b, length)
    if rating_a < rating_b:
        return (underdog, 1.0 - underdog)
    if rating_a > rating_b:
        return (1.0 - underdog, underdog)
    return (0.5, 0.5)


def k_factor(experience: int, policy: BoostPolicy, length: int) -> float:
    """The experience boost K: newcomers' ratings move faster until they settle.

    ``fibs``: max(1, 5 - E/100) with E the experience (sum of the lengths of finished
    rated matches) before this match, so K reaches 1 at 400. ``fibs_including_match``
    counts this match too (E + N). ``none``: K = 1.
    """
    _check_length(length)
    if isinstance(experience, bool) or not isinstance(experience, int) or experience < 0:
        raise RuleViolation(
            "experience_invalid",
            N_(
                "Experience is a sum of match lengths, 0 or more, not %(experience)r.",
                experience=experience,
            ),
            field="experience",
        )
    policy = BoostPolicy(policy)
    if policy is BoostPolicy.NONE:
        return 1.0
    counted = experience + length if policy is BoostPolicy.FIBS_INCLUDING_MATCH else experience
    return max(1.0, 5.0 - counted / 100.0)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one rated match does to both players' ratings.

    ``p_loser`` is the probability the loser had of winning: the less likely the
    upset, the less the favourite gains by winning.
    """

    winner_delta: float  # >= 0: added to the winner's rating
    loser_delta: float  # <= 0: added to the loser's rating
    p_loser: float
    winner_k: float
    loser_k: float
    length: int


def rating_change(
    *,
    winner_rating: float,
    loser_rating: float,
    winner_experience: int,
    loser_experience: int,
    length: int,
    policy: BoostPolicy = BoostPolicy.FIBS,
) -> RatingChange:
    """The FIBS change: winner gains 4*K_w*sqrt(N)*P, loser loses 4*K_l*sqrt(N)*P.

    P is the loser's chance of winning: P_u if the favourite won, 1 - P_u if the
    underdog won (1/2 with equal ratings). With equal K the changes sum to zero; a
    newcomer's larger K moves only his own rating faster.
    """
    _check_length(length)
    _, p_loser = win_probabilities(winner_rating, loser_rating, length)
    stake = 4.0 * math.sqrt(length) * p_loser
    winner_k = k_factor(winner_experience, policy, length)
    loser_k = k_factor(loser_experience, policy, length)
    return RatingChange(
        winner_delta=winner_k * stake,
        loser_delta=-loser_k * stake,
        p_loser=p_loser,
        winner_k=winner_k,
        loser_k=loser_k,
        length=length,
    )
