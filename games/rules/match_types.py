"""What a match is made of, for the match scoring: its rules, its game records, its state.

The value types :mod:`games.rules.scoring` reads and answers (a director's
:class:`MatchRules`, an entered :class:`GameRecord`, a scored :class:`GameOutcome`, a
:class:`MatchState`), kept apart from the scoring itself so that each module holds one
topic. Callers import them from :mod:`games.rules.scoring`, which re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import N_

from .errors import RuleViolation
from .money import MoneyRules
from .types import Ending, Level, is_power_of_two
from .variants import Variant
from .variants import for_match as get_variant

Score = tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchRules:
    """What a director sets for one match: its length, the Crawford rule, a cube limit.

    ``money`` is only for unlimited sessions (length 0), where money-play options apply;
    in a match "beavers ... [are] usually not allowed" and the Jacoby rule "is not used
    in match play", so a match refuses money rules rather than silently ignoring them.
    """

    length: int
    crawford: bool = True
    cube_limit: int | None = None
    money: MoneyRules | None = None
    #: The game played (``games.rules.variants``): its levels, cube and Crawford rule.
    variant: str = "standard"

    def __post_init__(self) -> None:
        get_variant(self.variant)  # an unknown variant is refused, naming the field
        if isinstance(self.length, bool) or not isinstance(self.length, int) or self.length < 0:
            raise RuleViolation(
                "match_length_invalid",
                N_(
                    "A match length is a whole number of points, 0 (an unlimited session) "
                    "or more, not %(length)r.",
                    length=self.length,
                ),
                field="length",
            )
        if self.cube_limit is not None and not is_power_of_two(self.cube_limit):
            raise RuleViolation(
                "cube_limit_not_power_of_two",
                N_("The cube limit must be a power of two (1, 2, 4, 8, ...)."),
                field="cube_limit",
            )
        if self.money is not None and self.length > 0:
            raise RuleViolation(
                "money_rules_in_match",
                N_(
                    "Jacoby, beavers, raccoons and automatic doubles do not apply in "
                    "matches: money rules are for unlimited sessions (length 0)."
                ),
                field="money",
            )
        if (
            self.money is not None
            and self.cube_limit is not None
            and self.money.cube_limit not in (None, self.cube_limit)
        ):
            raise RuleViolation(
                "cube_limit_conflict",
                N_(
                    "The session's cube limit %(cube_limit)s contradicts the money rules' "
                    "limit %(cube_limit2)s.",
                    cube_limit=self.cube_limit,
                    cube_limit2=self.money.cube_limit,
                ),
                field="cube_limit",
            )

    @property
    def game(self) -> Variant:
        return get_variant(self.variant)

    @property
    def crawford_applies(self) -> bool:
        """The Crawford rule is on and the variant has it (none without a cube)."""
        return self.crawford and self.game.crawford

    @property
    def is_unlimited_session(self) -> bool:
        """Length 0: money play game by game, no end, no Crawford game, not rated."""
        return self.length == 0

    @property
    def effective_cube_limit(self) -> int | None:
        if self.cube_limit is not None:
            return self.cube_limit
        return self.money.cube_limit if self.money is not None else None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as entered: who won, the cube, how it ended, at which level.

    ``cube`` is the cube the game was played for; for a drop it is the value before the
    refused double (what the doubler wins), and a drop is always single. ``cube_owner``
    is None for a centred cube, else the player (0/1) who last accepted, or
    :data:`~games.rules.types.UNKNOWN_OWNER` for a turned cube whose owner was not
    recorded (the owner changes no score; only the checks that need it are skipped). ``points`` is
    optional; when given it must agree with cube x level. ``automatic_doubles`` (opening
    ties that doubled the cube) exist only in unlimited sessions that agreed them.
    Whether the game was the Crawford game is derived, never entered.
    """

    winner: int
    cube: int = 1
    cube_owner: int | str | None = None
    ending: Ending = Ending.PLAYED
    level: Level = Level.SINGLE
    points: int | None = None
    automatic_doubles: int = 0


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A recorded game with what the rules derived: its number, Crawford status, points."""

    number: int  # 1-based
    score_before: Score
    crawford: bool
    post_crawford: bool
    points: int
    score_after: Score
    record: GameRecord


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where a match stands after its recorded games, and what the next game will be."""

    rules: MatchRules
    games: tuple[GameOutcome, ...]
    score: Score
    winner: int | None
    finished: bool
    crawford_game: int | None  # the number of the Crawford game, if one was played
    next_game_number: int
    next_game_is_crawford: bool
    next_game_post_crawford: bool


def _bad(code: str, message: str, field: str) -> RuleViolation:
    return RuleViolation(code, message, field=field)
