"""Replaying rated matches in order: the ratings, experience and history they produce.

Implements ``docs/rules.md``, "Ratings: the FIBS formula", over a whole list: every
match moves its two players' ratings by :func:`games.rules.fibs.rating_change`, and the
experience that sets the newcomer boost grows by the match length. The order of the
matches matters (a rating change depends on both ratings at that moment), so the
caller gives them in the list's order (finish time, then match id).

Pure: no database. The services read the matches and write what this returns; the
benchmark times this alone to show what the database costs.

Speed. A full recomputation replays a million matches, so the loop inlines the FIBS
arithmetic instead of calling :func:`fibs.rating_change` (which validates its
arguments and builds a result object each time); the expressions are the same, term
for term, so the results are bit for bit those of ``fibs.rating_change`` (tested).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import fibs

#: One rated match: (match id, player1, player2, winner, length, finished at). The
#: finish time is carried through to the history untouched (a datetime or its text).
MatchRow = tuple[int, int, int, int, int, Any]

#: One history row, one per player per match, in ``HISTORY_COLUMNS`` order.
HistoryRow = tuple[int, int, int, int, bool, int, Any, float, float, float, int, int]

HISTORY_COLUMNS = (
    "rating_list_id",
    "player_id",
    "match_id",
    "opponent_id",
    "won",
    "length",
    "at",
    "rating_before",
    "rating_after",
    "change",
    "experience_before",
    "experience_after",
)

#: With ``fibs`` the boost K = max(1, 5 - E/100) is 1 from this experience on.
_BOOST_ENDS = 400


@dataclass(slots=True)
class Standing:
    """A player's state on a list while matches are replayed."""

    rating: float
    experience: int = 0
    matches: int = 0
    last_change: float = 0.0
    last_played_at: Any = None


def replay(
    matches: Iterable[MatchRow],
    standings: dict[int, Standing],
    *,
    rating_list_id: int,
    initial: float,
    policy: str,
) -> list[HistoryRow]:
    """Apply the FIBS rules to ``matches`` in the order given, updating ``standings``
    in place (a player seen for the first time starts at ``initial``), and return two
    history rows per match: the winner's, then the loser's.

    Replaying in several calls with the same ``standings`` equals one call over all
    the matches, so a caller can stream a big list in batches.
    """
    boost = fibs.BoostPolicy(policy)
    including = boost is fibs.BoostPolicy.FIBS_INCLUDING_MATCH
    no_boost = boost is fibs.BoostPolicy.NONE
    roots: dict[int, float] = {}
    out: list[HistoryRow] = []
    append = out.append
    get = standings.get
    for match_id, player1, player2, winner, length, at in matches:
        root = roots.get(length)
        if root is None:
            fibs.rating_change(  # validates the length the way the formula does
                winner_rating=initial,
                loser_rating=initial,
                winner_experience=0,
                loser_experience=0,
                length=length,
                policy=boost,
            )
            root = roots[length] = math.sqrt(length)
        loser = player2 if winner == player1 else player1
        w = get(winner)
        if w is None:
            w = standings[winner] = Standing(rating=initial)
        lo = get(loser)
        if lo is None:
            lo = standings[loser] = Standing(rating=initial)
        w_rating, lo_rating = w.rating, lo.rating
        w_exp, lo_exp = w.experience, lo.experience
        # fibs.win_probabilities: the loser's chance P (P_u if the favourite won).
        if w_rating == lo_rating:
            p_loser = 0.5
        else:
            underdog = 1.0 / (10.0 ** (abs(w_rating - lo_rating) * root / 2000.0) + 1.0)
            p_loser = underdog if w_rating > lo_rating else 1.0 - underdog
        stake = 4.0 * root * p_loser
        # fibs.k_factor
        if no_boost:
            w_k = lo_k = 1.0
        else:
            w_counted = w_exp + length if including else w_exp
            lo_counted = lo_exp + length if including else lo_exp
            w_k = 5.0 - w_counted / 100.0 if w_counted < _BOOST_ENDS else 1.0
            lo_k = 5.0 - lo_counted / 100.0 if lo_counted < _BOOST_ENDS else 1.0
        w_delta = w_k * stake
        lo_delta = -lo_k * stake
        w_after = w_rating + w_delta
        lo_after = lo_rating + lo_delta
        w_exp_after = w_exp + length
        lo_exp_after = lo_exp + length
        w.rating, w.experience, w.last_change, w.last_played_at = w_after, w_exp_after, w_delta, at
        w.matches += 1
        lo.rating, lo.experience, lo.last_change, lo.last_played_at = (
            lo_after,
            lo_exp_after,
            lo_delta,
            at,
        )
        lo.matches += 1
        append(
            (
                rating_list_id,
                winner,
                match_id,
                loser,
                True,
                length,
                at,
                w_rating,
                w_after,
                w_delta,
                w_exp,
                w_exp_after,
            )
        )
        append(
            (
                rating_list_id,
                loser,
                match_id,
                winner,
                False,
                length,
                at,
                lo_rating,
                lo_after,
                lo_delta,
                lo_exp,
                lo_exp_after,
            )
        )
    return out
