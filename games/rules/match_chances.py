"""A match's winning chances at its score, for equal players and for players of different strength.

Implements ``docs/chances.md``. For two equal players the chance is the match equity
table's entry (:mod:`games.rules.match_equity`), Crawford and post-Crawford included.
For players of different ratings, the table is combined with the FIBS formula
(:mod:`games.rules.fibs`) by a *skill-shifted score chain*:

1. **Decompose the table into a chain of one-point steps.** Every live state s (a
   pre-Crawford score, the Crawford game, a post-Crawford score) has two successors:
   ``hi(s)``, A one point closer, and ``lo(s)``, B one point closer (or the match won).
   With the table's values E, the number ``q0(s) = (E(s) - E(lo)) / (E(hi) - E(lo))``
   makes ``E(s) = q0 E(hi) + (1 - q0) E(lo)`` hold exactly: q0 is the equal players'
   chance of taking the next point *as the table sees it* (gammons, the cube, the
   Crawford rule and free drops are all inside it, which is why a plain 50% chain
   would not reproduce the table).
2. **Shift every step by one skill parameter** theta, in log-odds:
   ``logit q(s) = logit q0(s) + theta``, and run the chain from the end of the match
   back to the score: ``V(s) = q(s) V(hi) + (1 - q(s)) V(lo)``, ``V = 1`` when A has
   won, 0 when B has. At theta = 0, V = E: the table exactly.
3. **Calibrate theta on the whole match**: theta is the one value for which the chain
   from 0-0 of this N-point match gives the FIBS probability of the rating difference
   for length N, ``1 / (1 + 10^(-D sqrt(N) / 2000))``. (theta depends on N because the
   FIBS formula grows with sqrt(N) while a chain of N-point steps grows faster.)

Properties (tested with hypothesis): V is a probability; it is the table at equal
ratings; it rises with the rating gap (each q rises with theta, and a larger gap needs a
larger theta to meet a larger FIBS probability) and with A's score (every V(s) lies
between V(lo) and V(hi), which are themselves ordered); A's and B's chances sum to 1.

One guard: the chain's value at the Crawford game is a combination of a Crawford-game
entry and a post-Crawford entry, and where a table prints the first with three decimals
and the second with many (the far corner of ``g11`` and ``mec26``), the rounding can
make a leader's Crawford-game chance dip, at a large rating gap, as the trailer falls
*further* behind. The chain keeps the nearer score's value there (a monotone envelope
over the trailer's score). The table itself is monotone, so at equal ratings the
envelope never applies.

Crawford-off matches: the tables assume the Crawford rule; a player 1 away in a match
without it is valued as post-Crawford (the trailer may double at once), the nearest
state the table has.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from core.errors import N_

from .errors import RuleViolation
from .fibs import win_probabilities
from .match_equity import MatchEquityTable

__all__ = ["match_winning_chance", "pre_match_chance", "skill_parameter"]


def pre_match_chance(*, length: int, rating_a: float, rating_b: float) -> float:
    """A's chance before the first game: the FIBS probability for an N-point match."""
    return win_probabilities(rating_a, rating_b, length)[0]


def _check_score(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleViolation(
            "invalid_score",
            N_("A score is a whole number of 0 or more, not %(value)r.", value=value),
            field=field,
        )
    return value


def match_winning_chance(
    table: MatchEquityTable,
    *,
    length: int,
    score_a: int,
    score_b: int,
    crawford_game: bool,
    post_crawford: bool,
    rating_a: float | None = None,
    rating_b: float | None = None,
) -> float:
    """Player A's probability to win the match from this score, before the next game.

    ``crawford_game`` / ``post_crawford`` describe the *next* game (as
    :func:`games.rules.scoring.next_game_facts` derives them). With equal ratings, or
    either rating unknown, the answer is the table's entry; otherwise the
    skill-shifted chain of the module docstring. A finished match is 1.0 or 0.0.

    Refused (``RuleViolation``): an unlimited session (length 0), a match longer than
    the table covers (``met_beyond_table``), an asymmetric table (it already assumes
    a favourite), flags that contradict the score.
    """
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise RuleViolation(
            "chances_length_invalid",
            N_(
                "Winning chances are for matches of 1 point or more, not %(length)r "
                "(an unlimited session has no end to win).",
                length=length,
            ),
            field="length",
        )
    score_a = _check_score(score_a, "score_a")
    score_b = _check_score(score_b, "score_b")
    if score_a >= length and score_b >= length:
        raise RuleViolation(
            "invalid_score",
            N_("Both players cannot reach %(length)s.", length=length),
            field="score_a",
        )
    if score_a >= length:
        return 1.0
    if score_b >= length:
        return 0.0
    if not table.symmetric:
        raise RuleViolation(
            "met_asymmetric",
            N_(
                "The table %(name)r gives each player his own post-Crawford row (it "
                "assumes a favourite); winning chances use a table for equal players.",
                name=table.name,
            ),
            field="table",
        )
    if length > table.max_length:
        raise RuleViolation(
            "met_beyond_table",
            N_(
                "The match equity table %(name)r covers matches up to %(max_length)s "
                "points; a %(length)s-point match is beyond it (no extension formula "
                "is applied).",
                name=table.name,
                max_length=table.max_length,
                length=length,
            ),
            field="length",
        )
    state = _state(length - score_a, length - score_b, crawford_game, post_crawford)
    equal_players = _table_value(table, state)  # also refuses a score beyond the table
    if rating_a is None or rating_b is None or rating_a == rating_b:
        return equal_players
    theta = skill_parameter(table, length=length, rating_a=rating_a, rating_b=rating_b)
    return _chain(table, length).values(theta)[state]


def skill_parameter(
    table: MatchEquityTable, *, length: int, rating_a: float, rating_b: float
) -> float:
    """theta: the per-step log-odds shift that makes the chain from 0-0 give FIBS.

    Cached by (table, length, rating difference): a list of matches asks for the same
    few values again and again.
    """
    return _solve_theta(table, length, float(rating_a) - float(rating_b))


# States: ("pre", a, b) with a, b the points each still needs (one of them 1: the
# Crawford game; both 1: double match point); ("post_a", k): A trails k away after the
# Crawford game, B needs 1; ("post_b", k): the mirror. Double match point after the
# Crawford game is ("pre", 1, 1).
State = tuple[str, int, int]


def _state(away_a: int, away_b: int, crawford_game: bool, post_crawford: bool) -> State:
    if crawford_game and post_crawford:
        raise RuleViolation(
            "chances_crawford_invalid",
            N_("A game cannot be both the Crawford game and after it."),
            field="crawford_game",
        )
    one_away = (away_a == 1) + (away_b == 1)
    if crawford_game and one_away != 1:
        raise RuleViolation(
            "chances_crawford_invalid",
            N_(
                "The Crawford game is played when exactly one player needs 1 point, "
                "not at %(away_a)s and %(away_b)s away.",
                away_a=away_a,
                away_b=away_b,
            ),
            field="crawford_game",
        )
    if post_crawford and one_away == 0:
        raise RuleViolation(
            "chances_crawford_invalid",
            N_(
                "After the Crawford game the leader needs 1 point; at %(away_a)s and "
                "%(away_b)s away neither does.",
                away_a=away_a,
                away_b=away_b,
            ),
            field="post_crawford",
        )
    if one_away == 1 and not crawford_game:
        # After the Crawford game, or a Crawford-off match: the trailer may double.
        return ("post_b", 0, away_b) if away_a == 1 else ("post_a", away_a, 0)
    return ("pre", away_a, away_b)


def _table_value(table: MatchEquityTable, state: State) -> float:
    kind, a, b = state
    if kind == "post_a":
        return table.win_chance(a, 1, post_crawford=True)
    if kind == "post_b":
        return table.win_chance(1, b, post_crawford=True)
    return table.win_chance(a, b)


@dataclass(frozen=True, slots=True)
class _Step:
    """One state of the chain: its equal-players step probability and successors."""

    state: State
    q0: float
    hi: State | None  # None: A has won (value 1)
    lo: State | None  # None: B has won (value 0)


def _successors(state: State) -> tuple[State | None, State | None]:
    kind, a, b = state
    if kind == "post_a":  # A trails a away, B needs 1
        return (("post_a", a - 1, 0) if a > 2 else ("pre", 1, 1), None)
    if kind == "post_b":  # B trails b away, A needs 1
        return (None, ("post_b", 0, b - 1) if b > 2 else ("pre", 1, 1))
    if a == 1 and b == 1:
        return (None, None)
    if a == 1:  # the Crawford game, A leads: losing it puts B one closer, post-Crawford
        return (None, ("post_b", 0, b - 1) if b > 2 else ("pre", 1, 1))
    if b == 1:
        return (("post_a", a - 1, 0) if a > 2 else ("pre", 1, 1), None)
    return (("pre", a - 1, b), ("pre", a, b - 1))


class _Chain:
    """The table decomposed into one-point steps, for every state of an N-point match,
    ordered so that each state comes after its successors."""

    def __init__(self, table: MatchEquityTable, length: int) -> None:
        states: list[State] = [("pre", 1, 1)]
        # Post-Crawford trailers up to N-1 away; N away too (a Crawford-off match
        # reaching match point at 0) where the table's row reaches that far.
        states += [("post_a", k, 0) for k in range(2, min(length, len(table.post_crawford_a)) + 1)]
        states += [("post_b", 0, k) for k in range(2, min(length, len(table.post_crawford_b)) + 1)]
        states += [
            ("pre", a, b)
            for total in range(3, 2 * length + 1)
            for a in range(1, length + 1)
            if 1 <= (b := total - a) <= length
        ]
        self.steps: list[_Step] = []
        for state in states:
            hi, lo = _successors(state)
            value = _table_value(table, state)
            high = 1.0 if hi is None else _table_value(table, hi)
            low = 0.0 if lo is None else _table_value(table, lo)
            spread = high - low
            q0 = 0.5 if spread <= 0 else min(1.0, max(0.0, (value - low) / spread))
            self.steps.append(_Step(state, q0, hi, lo))
        self.start: State = ("pre", length, length)
        # The monotone envelope of the Crawford game: a leader's chance may not fall as
        # the trailer falls further behind (see the module docstring).
        self.crawford_neighbour: dict[State, tuple[State, bool]] = {}
        for k in range(2, length + 1):
            self.crawford_neighbour[("pre", 1, k)] = (("pre", 1, k - 1), True)
            self.crawford_neighbour[("pre", k, 1)] = (("pre", k - 1, 1), False)

    def values(self, theta: float) -> dict[State, float]:
        return self._run(theta)[0]

    def _run(self, theta: float) -> tuple[dict[State, float], dict[State, float]]:
        """V(s) and dV/dtheta for every state (the derivative drives Newton's method)."""
        odds = math.exp(theta)
        value: dict[State | None, float] = {}
        slope: dict[State | None, float] = {}
        for step in self.steps:
            shifted = step.q0 * odds
            q = shifted / (shifted + (1.0 - step.q0)) if shifted > 0 else 0.0
            high = 1.0 if step.hi is None else value[step.hi]
            low = 0.0 if step.lo is None else value[step.lo]
            dhigh = 0.0 if step.hi is None else slope[step.hi]
            dlow = 0.0 if step.lo is None else slope[step.lo]
            here = low + q * (high - low)
            dhere = q * (1.0 - q) * (high - low) + q * dhigh + (1.0 - q) * dlow
            envelope = self.crawford_neighbour.get(step.state)
            if envelope is not None:
                neighbour, leader_is_a = envelope
                if (here < value[neighbour]) if leader_is_a else (here > value[neighbour]):
                    here, dhere = value[neighbour], slope[neighbour]
            value[step.state] = here
            slope[step.state] = dhere
        return value, slope  # type: ignore[return-value]


@lru_cache(maxsize=64)
def _chain(table: MatchEquityTable, length: int) -> _Chain:
    return _Chain(table, length)


@lru_cache(maxsize=4096)
def _solve_theta(table: MatchEquityTable, length: int, diff: float) -> float:
    """Newton's method on V_theta(0-0) = FIBS, kept inside a shrinking bracket.

    V_theta(0-0) rises strictly with theta from 0 to 1, so the root is unique; Newton
    steps that leave the bracket are replaced by bisection.
    """
    if diff == 0:
        return 0.0
    target = win_probabilities(diff, 0.0, length)[0]
    chain = _chain(table, length)
    low, high = -60.0, 60.0
    theta = 0.0
    for _ in range(200):
        values, slopes = chain._run(theta)
        error = values[chain.start] - target
        if abs(error) < 1e-13:
            return theta
        if error > 0:
            high = theta
        else:
            low = theta
        derivative = slopes[chain.start]
        step = theta - error / derivative if derivative > 0 else math.nan
        theta = step if low < step < high else (low + high) / 2.0
        if high - low < 1e-14:
            break
    return theta
