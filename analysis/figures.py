"""The figures of an analysed match, from gnubg's per-decision analysis (pure, no engine).

gnubg's analysis gives, for each decision, the equity of what was played and of the best
choice (in normalised equity, EMG: at a match score, match-winning chances converted
through gnubg's match equity table so that winning the current cube value is +1). This
module turns those into decisions and per-player totals counted exactly as gnubg's
``show statistics match`` counts them (``analysis.c``):

* a checker play is *unforced* when it had more than one legal play; only unforced plays
  add to the error total and the decision count (forced plays and dances are "total
  moves" only);
* a cube decision counts when it was close or actual: a double, a take or a pass, or a
  position where the player could double and doubling was right or not worse than
  ``CLOSE_CUBE`` (0.16);
* marks: an error of more than 0.03 is *doubtful*, more than 0.06 *bad* (an "error"),
  more than 0.12 *very bad* (a "blunder"), gnubg's default thresholds (``show analysis``);
* luck: gnubg's luck of each roll (the equity after the best play with that roll minus the
  average over all rolls), summed; the *luck rate* is that per move, in mEMG.

Figures per player: ``error_rate`` = 1000 * total error / decisions (gnubg's mEMG per
decision); ``pr`` = 500 * total error / decisions (XG's Performance Rating, the same
quantity halved), times 1.5 for a 1-point match as the issue states XG does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

DOUBTFUL = 0.03
BAD = 0.06
VERY_BAD = 0.12
CLOSE_CUBE = 0.16
LUCKY = 0.3
VERY_LUCKY = 0.6

CHECKER = "checker"
DOUBLE = "double"
NO_DOUBLE = "no_double"
TAKE = "take"
PASS = "pass"


def mark(loss: float) -> str:
    """gnubg's mark for an error (``""``, ``doubtful``, ``bad`` or ``very_bad``)."""
    if loss > VERY_BAD:
        return "very_bad"
    if loss > BAD:
        return "bad"
    if loss > DOUBTFUL:
        return "doubtful"
    return ""


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """No double, double/take, double/pass (1.0), normalised to the player doubling."""

    no_double: float
    double_take: float
    double_pass: float = 1.0

    @property
    def double(self) -> float:
        return min(self.double_take, self.double_pass)

    @property
    def optimal(self) -> float:
        return max(self.no_double, self.double)

    @property
    def close(self) -> bool:
        return self.optimal - min(self.double_take, 1.0) < CLOSE_CUBE


@dataclass(slots=True)
class Decision:
    """One decision of one player with what it cost (``loss`` >= 0, EMG)."""

    player: int
    kind: str
    played_equity: float
    best_equity: float
    counted: bool  # an unforced play or a close/actual cube decision
    forced: bool = False
    luck: float | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.best_equity - self.played_equity)

    @property
    def mark(self) -> str:
        return mark(self.loss) if self.counted else ""


def checker_decision(
    player: int, played_equity: float, best_equity: float, n_plays: int, luck: float | None
) -> Decision:
    return Decision(
        player,
        CHECKER,
        played_equity,
        best_equity,
        counted=n_plays > 1,
        forced=n_plays <= 1,
        luck=luck,
    )


def cube_decisions(player: int, kind: str, cube: CubeEquities) -> Decision:
    """The decision of ``player`` for a cube action of ``kind``.

    For ``double`` and ``no_double`` the equities are the doubler's; for ``take`` and
    ``pass`` they are the taker's (the negated doubler's view: take = -DT, pass = -1).
    """
    if kind == NO_DOUBLE:
        return Decision(
            player,
            kind,
            cube.no_double,
            cube.optimal,
            counted=cube.close or cube.no_double < cube.optimal,
        )
    if kind == DOUBLE:
        return Decision(player, kind, cube.double, cube.optimal, counted=True)
    right = -cube.double  # the taker's best answer
    played = -cube.double_take if kind == TAKE else -cube.double_pass
    return Decision(player, kind, played, right, counted=True)


@dataclass(slots=True)
class PlayerFigures:
    """Per-player totals, as gnubg's match statistics count them."""

    moves: int = 0  # every checker play with dice (forced ones and dances too)
    unforced: int = 0
    checker_error: float = 0.0
    cube_decisions: int = 0  # positions with a cube decision
    close_cube: int = 0
    cube_error: float = 0.0
    luck: float = 0.0
    marks: dict[str, int] = field(default_factory=lambda: {"doubtful": 0, "bad": 0, "very_bad": 0})
    checker_marks: dict[str, int] = field(
        default_factory=lambda: {"doubtful": 0, "bad": 0, "very_bad": 0}
    )

    @property
    def decisions(self) -> int:
        return self.unforced + self.close_cube

    @property
    def total_error(self) -> float:
        return self.checker_error + self.cube_error

    @property
    def error_rate(self) -> float:
        """mEMG per decision (gnubg's overall error rate, as a positive number)."""
        return 1000.0 * self.total_error / self.decisions if self.decisions else 0.0

    @property
    def checker_error_rate(self) -> float:
        return 1000.0 * self.checker_error / self.unforced if self.unforced else 0.0

    @property
    def cube_error_rate(self) -> float:
        return 1000.0 * self.cube_error / self.close_cube if self.close_cube else 0.0

    @property
    def luck_rate(self) -> float:
        """mEMG per move (gnubg's luck rate)."""
        return 1000.0 * self.luck / self.moves if self.moves else 0.0

    @property
    def errors(self) -> int:
        """Decisions marked bad (gnubg: an error of more than 0.06)."""
        return self.marks["bad"]

    @property
    def blunders(self) -> int:
        """Decisions marked very bad (more than 0.12)."""
        return self.marks["very_bad"]

    def pr(self, match_length: int) -> float:
        return performance_rating(self.total_error, self.decisions, match_length)


def performance_rating(total_error: float, decisions: int, match_length: int) -> float:
    """XG's PR: 500 x total equity loss / unforced decisions (x1.5 in a 1-point match)."""
    if not decisions:
        return 0.0
    pr = 500.0 * total_error / decisions
    return pr * 1.5 if match_length == 1 else pr


def totals(decisions: Iterable[Decision]) -> tuple[PlayerFigures, PlayerFigures]:
    """Both players' figures from their decisions."""
    figures = (PlayerFigures(), PlayerFigures())
    for d in decisions:
        f = figures[d.player]
        if d.kind == CHECKER:
            f.moves += 1
            if d.luck is not None:
                f.luck += d.luck
            if d.counted:
                f.unforced += 1
                f.checker_error += d.loss
                if d.mark:
                    f.checker_marks[d.mark] += 1
        else:
            f.cube_decisions += 1
            if d.counted:
                f.close_cube += 1
                f.cube_error += d.loss
        if d.mark:
            f.marks[d.mark] += 1
    return figures
