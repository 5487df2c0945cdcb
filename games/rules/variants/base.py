"""What a variant declares: the vocabulary every entry of the registry is written in.

A variant is data, not code: its start, the direction of each side, how men enter,
what doublets give, whether a lone man is hit, pinned or blocks, how a game is scored
and which match rules (cube, Crawford, Jacoby) apply. The one engine
(:mod:`games.rules.variants.engine`) reads these fields; adding a variant is a new
module declaring one :class:`Variant` and a line in the registry
(:mod:`games.rules.variants`). Each field's rule is cited in ``docs/rules.md``, in the
section of the variant that declares it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from core.errors import N_

from ..errors import RuleViolation
from ..types import Level

OFF = 0
BAR = 25
UNENTERED = 26
SLOTS = 27
"""A side is 27 counts in its own numbering: 0 borne off, 1..24 the points counted
from its home table (it moves from 24 towards 1), 25 the bar (taken up), 26 not yet
entered (the variants that start with the board empty)."""


class Direction(StrEnum):
    """How the two sides' numberings sit on one board.

    ``opposite``: the English game, each side's point *p* is the other's 25 − *p*.
    ``same``: Cady's Russian game, both enter in the same table and march the same way,
    so the point *p* is *p* for both. ``same_from_opposite_corners``: both march the same
    way round from diagonally opposite corners (fevga; Cady's Turkish game), the point
    *p* is the other's *p* ± 12.
    """

    OPPOSITE = "opposite"
    SAME = "same"
    SAME_FROM_OPPOSITE_CORNERS = "same_from_opposite_corners"


class Contact(StrEnum):
    """What a man landing on a lone opposing man does."""

    HIT = "hit"  # the lone man goes to the bar; two or more block
    PIN = "pin"  # plakoto: the lone man stays, pinned under, until the pinner leaves
    BLOCKED = "blocked"  # fevga: one man holds a point, no contact at all


class Complementary(StrEnum):
    """Whether doublets are followed by the doublets on the opposite faces (7 − n)."""

    NONE = "none"
    COMPULSORY = "compulsory"
    BY_AGREEMENT = "by_agreement"  # a house option: played only when it is chosen


@dataclass(frozen=True, slots=True)
class Doublets:
    """What a throw of doublets (and the 1-2 privilege) gives."""

    complementary: Complementary = Complementary.NONE
    #: Cady, Russian: the doublets privilege "is not allowed ... when he throws his first
    #: set of doublets in the game": the first doublets are played alone, no throw after.
    first_doublets_plain: bool = False
    #: A further throw once the doublets (and their complementary) are played.
    extra_throw: bool = False
    #: The 1-2 (deuce-ace) names any doublets, which are played, then the caster throws
    #: again (acey-deucey; Cady's Russian deuce-ace).
    one_two: bool = False
    #: The named doublets come with their complementary (Cady: "any doublets he likes on
    #: opposite faces of the dice").
    one_two_complementary: bool = False


@dataclass(frozen=True, slots=True)
class MatchPlay:
    """Which of the English game's match and money rules a variant plays with."""

    cube: bool = True
    crawford: bool = True
    jacoby: bool = True


#: The variants whose sources have no doubling cube (and so no Crawford or Jacoby rule).
NO_CUBE = MatchPlay(cube=False, crawford=False, jacoby=False)


@dataclass(frozen=True, slots=True)
class HouseOption:
    """A rule the sources leave to the players, with the default the docs justify."""

    key: str
    default: bool
    description: str
    source: str


#: House options the engine knows how to apply (:meth:`Variant.configured`).
COMPLEMENTARY_DOUBLETS = "complementary_doublets"
OPPONENT_FINISHES = "opponent_finishes"
CUBE = "cube"


@dataclass(frozen=True, slots=True)
class Variant:
    """One game of the backgammon family, as the engine and score entry need it."""

    key: str
    name: str
    sources: tuple[str, ...]
    summary: str
    checkers: int
    #: Own-numbered point (26 = not yet entered) -> men there at the start.
    start: Mapping[int, int]
    direction: Direction = Direction.OPPOSITE
    contact: Contact = Contact.HIT
    doublets: Doublets = Doublets()
    #: A taken-up man enters before any man already on the board moves.
    bar_first: bool = True
    #: ...and before any man not yet entered comes in (Cady's Russian game only forbids
    #: "playing any other already entered", so it sets this False).
    bar_before_unentered: bool = True
    #: Cady's Turkish entering: two men start on the first point, which counts as one
    #: with the second while entering (a die *n* enters on the (n+1)th point), no
    #: covering a point while entering, those two men stay until all are in, no point
    #: made in the entering table until all are in, none beyond the twelfth until the
    #: twelfth is made.
    turkish_entering: bool = False
    #: Fevga: a second man may not leave the start until the first has reached the
    #: opponent's starting quarter.
    fevga_first_runner: bool = False
    #: Fevga: no six points in a row may be held in front of the opponent unless one of
    #: his men has already passed them (checked at each step, see docs/rules.md).
    no_prime_unless_passed: bool = False
    #: Plakoto: a pinned "mother" (the last man on a side's starting point) ends the game.
    mother_ends_game: bool = False
    #: The levels a game can be won at and the points each is worth (before the cube).
    levels: Mapping[Level, int] = field(
        default_factory=lambda: {Level.SINGLE: 1, Level.GAMMON: 2, Level.BACKGAMMON: 3}
    )
    match: MatchPlay = MatchPlay()
    options: tuple[HouseOption, ...] = ()
    #: The ``; [Variation "..."]`` name GNU Backgammon writes, or ``None`` (not gnubg's).
    gnubg_variation: str | None = None
    #: Does GNU Backgammon analyse this variant?
    engine_analysis: bool = False
    #: Which house options are on (filled by :meth:`configured`).
    chosen: frozenset[str] = frozenset()

    # ----------------------------------------------------------------------------------

    def opposing_point(self, p: int) -> int:
        """The other side's own number for the mover's point ``p`` (1..24)."""
        if self.direction is Direction.OPPOSITE:
            return 25 - p
        if self.direction is Direction.SAME:
            return p
        return p + 12 if p <= 12 else p - 12

    def start_side(self) -> tuple[int, ...]:
        """The 27 counts of one side at the start."""
        return tuple(self.start.get(i, 0) for i in range(SLOTS))

    def option_defaults(self) -> dict[str, bool]:
        return {o.key: o.default for o in self.options}

    def configured(self, chosen: Mapping[str, bool] | None = None) -> Variant:
        """This variant with its house options set (defaults for those not given).

        An unknown option is a :class:`RuleViolation` naming it (code ``unknown_option``).
        """
        values = self.option_defaults()
        for key, value in (chosen or {}).items():
            if key not in values:
                raise RuleViolation(
                    "unknown_option",
                    N_(
                        "%(variant)s has no house option %(key)s",
                        variant=self.name,
                        key=key,
                    ),
                    "options",
                )
            values[key] = bool(value)
        on = frozenset(k for k, v in values.items() if v)
        doublets = self.doublets
        if COMPLEMENTARY_DOUBLETS in on:
            doublets = replace(doublets, complementary=Complementary.COMPULSORY)
        elif doublets.complementary is Complementary.BY_AGREEMENT:
            doublets = replace(doublets, complementary=Complementary.NONE)
        match = replace(self.match, cube=self.match.cube or CUBE in on)
        return replace(self, doublets=doublets, match=match, chosen=on)

    @property
    def cube(self) -> bool:
        return self.match.cube

    @property
    def crawford(self) -> bool:
        return self.match.crawford

    @property
    def jacoby(self) -> bool:
        return self.match.jacoby

    @property
    def opponent_finishes(self) -> bool:
        return OPPONENT_FINISHES in self.chosen

    @property
    def start_off_board(self) -> bool:
        return bool(self.start.get(UNENTERED))

    def allows(self) -> dict[str, object]:
        """What this variant allows, for the API's list and the docs."""
        return {
            "checkers": self.checkers,
            "starts_off_board": self.start_off_board,
            "direction": self.direction.value,
            "contact": self.contact.value,
            "complementary_doublets": self.doublets.complementary.value,
            "first_doublets_plain": self.doublets.first_doublets_plain,
            "doublets_throw_again": self.doublets.extra_throw,
            "one_two_names_doublets": self.doublets.one_two,
            "levels": {level.value: points for level, points in self.levels.items()},
            "cube": self.cube,
            "crawford": self.crawford,
            "jacoby": self.jacoby,
        }
