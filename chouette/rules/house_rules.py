"""The house rules a chouette table agrees before the first game.

Sources: ``docs/rules.md``, "The chouette" and the money-play sections (normative);
Thorne 1930, *Backgammon in 20 Minutes*, *Chouette* and *Scoring* (one cube for the team, a
refuser "must pay his loss up to the time of the double, and the Captain of the team
takes over his position", "The team may consult as to plays and doubling", the
Philadelphia method); the modern rules, *Doubling cube* (Jacoby, beavers,
raccoons, automatic doubles). The money-play options are the shared
:class:`games.rules.money.MoneyRules`, so a chouette and an unlimited session agree
on what "Jacoby" or "a backgammon counts 4" means.

Options are recorded even where the rules do not enforce them (consultation): the
table sees what was agreed, and the Django layer shows it.

:data:`HOUSE_RULES` declares each rule once (name, type, bounds, label, choices); the
Session's columns, the API's input and output, the open-session form and
``chouette.records.RULE_FIELDS`` are all built from it, and the default is the
dataclass's own. Adding a rule is one field on :class:`ChouetteRules` (or
:class:`~games.rules.money.MoneyRules`), one entry here, and a migration.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import cast

from core.errors import N_
from games.rules import limits
from games.rules.errors import RuleViolation
from games.rules.money import MoneyRules


class CubeMode(StrEnum):
    """How many cubes the team plays with."""

    MULTIPLE = "multiple"  # modern default: each member has an own cube against the box
    SINGLE = "single"  # Thorne 1930: one cube for the whole team


class PartnerChoice(StrEnum):
    """Who becomes the box's partner when the table is large enough."""

    BOTTOM = "bottom"  # the last member in line (never the captain)
    GIVEN = "given"  # named in each game's record


class BoxRetention(StrEnum):
    """When the box keeps the box after a game."""

    BEAT_CAPTAIN = "beat_captain"  # Thorne 1930 and modern default: beat the board's captain
    NET_WIN = "net_win"  # beat the board's captain AND win net over the whole team


class Consultation(StrEnum):
    """Who may talk to whom during a game: recorded, never enforced."""

    FREE = "free"  # Thorne 1930: "The team may consult as to plays and doubling"
    CHECKER_PLAY = "checker_play"  # checker play only; every cube decision alone
    NONE = "none"


#: Stake multiples a member may start a game with when ``allow_starting_cube`` is on.
STARTING_MULTIPLES: tuple[int, ...] = (1, 2, 4)


@dataclass(frozen=True, slots=True)
class ChouetteRules:
    """Everything a chouette table agrees before play; the default is :meth:`modern`.

    ``partner_threshold`` is the number of seated players (box included) from which
    the box takes a partner; None means never. It must be at least 4 so that the team
    keeps a captain and one more member once the partner has left it.
    ``captain_takeover`` is Thorne's option: when a member refuses the box's double,
    the captain of the board takes over that position at the doubled stake.
    ``allow_starting_cube`` lets a member play a game at double or quadruple stakes
    (see :mod:`chouette.rules.payouts` for why that is a stake multiple, not the cube).
    """

    cubes: CubeMode = CubeMode.MULTIPLE
    money: MoneyRules = field(default_factory=MoneyRules)
    partner_threshold: int | None = None
    partner_choice: PartnerChoice = PartnerChoice.BOTTOM
    captain_takeover: bool = False
    box_retention: BoxRetention = BoxRetention.BEAT_CAPTAIN
    consultation: Consultation = Consultation.CHECKER_PLAY
    allow_starting_cube: bool = False

    def __post_init__(self) -> None:
        for name, kind in (
            ("cubes", CubeMode),
            ("partner_choice", PartnerChoice),
            ("box_retention", BoxRetention),
            ("consultation", Consultation),
        ):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError:
                allowed = ", ".join(member.value for member in kind)
                raise RuleViolation(
                    f"invalid_{name}",
                    N_("%(value)r is not one of: %(allowed)s.", value=value, allowed=allowed),
                    field=name,
                ) from None
        if not isinstance(self.money, MoneyRules):
            raise RuleViolation(
                "invalid_money_rules", N_("money must be a MoneyRules."), field="money"
            )
        threshold = self.partner_threshold
        if threshold is not None and (
            isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 4
        ):
            raise RuleViolation(
                "partner_threshold",
                N_(
                    "The box takes a partner only at 4 or more players (often 6 or 7): the "
                    "team must keep a captain and another member."
                ),
                field="partner_threshold",
            )

    @classmethod
    def modern(cls, **overrides: object) -> ChouetteRules:
        """The common modern chouette: a cube per member, Jacoby, beavers, no raccoons,
        checker-play consultation only, the box kept by beating the captain."""
        return cls(**overrides)  # type: ignore[arg-type]

    @classmethod
    def thorne_1930(cls, *, philadelphia: bool = False, **overrides: object) -> ChouetteRules:
        """Thorne's 1930 chouette as a rule profile.

        One cube for the team; "anyone of the team may elect to refuse the double ...
        the rejector must pay his loss up to the time of the double, and the Captain of
        the team takes over his position"; "The team may consult as to plays and
        doubling"; doubles are unlimited and alternate; gammon doubles and backgammon
        triples the doubles made in play (no Jacoby, no beavers, no automatic doubles);
        ``philadelphia=True`` scores by "the Philadelphia method" instead.
        """
        money = MoneyRules(
            jacoby=False,
            beavers=False,
            raccoons=False,
            automatic_doubles=False,
            philadelphia=philadelphia,
            backgammon_value=3,
            cube_limit=None,
        )
        values: dict[str, object] = {
            "cubes": CubeMode.SINGLE,
            "money": money,
            "captain_takeover": True,
            "box_retention": BoxRetention.BEAT_CAPTAIN,
            "consultation": Consultation.FREE,
            "partner_threshold": None,
            "allow_starting_cube": False,
        }
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]


# --- the declaration every layer reads ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house rule as every layer needs it, declared once.

    ``kind`` is ``bool``, ``int`` or one of the enums above. ``minimum`` and ``maximum``
    bound what the API and the form accept (the column's bounds from
    :mod:`games.rules.limits`, or a stated rule below them); the rules then refuse
    what they do not allow, naming the rule. ``nullable`` says None is a value ("no
    limit", "never"). ``money`` marks an option of the shared
    :class:`~games.rules.money.MoneyRules`. ``choice_labels`` names each enum value
    for people; ``max_length`` is the stored column's width for an enum; ``offered``
    lists the values a form shows as choices when the rules accept only those.
    """

    name: str
    kind: type
    label: str
    money: bool = False
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    choice_labels: Mapping[str, str] = field(default_factory=dict)
    max_length: int = 0
    offered: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if issubclass(self.kind, StrEnum):
            values = [member.value for member in self.kind]
            if sorted(self.choice_labels) != sorted(values):
                raise ValueError(f"{self.name}: label every value of {self.kind.__name__}.")
            if self.max_length < max(len(value) for value in values):
                raise ValueError(f"{self.name}: max_length is shorter than a value.")
        elif self.kind is int and (self.minimum is None or self.maximum is None):
            raise ValueError(f"{self.name}: an integer rule states its bounds.")
        elif self.kind not in (bool, int):
            raise ValueError(f"{self.name}: a rule is a bool, an int or a StrEnum.")

    @property
    def default(self) -> bool | int | str | None:
        """The modern profile's value (the dataclass default), as stored."""
        modern = ChouetteRules.modern()
        value = getattr(modern.money if self.money else modern, self.name)
        return value.value if isinstance(value, StrEnum) else value

    @property
    def choices(self) -> tuple[tuple[str, str], ...]:
        """``(value, label)`` of each enum value, in the enum's order."""
        members = cast("type[StrEnum]", self.kind)
        return tuple((member.value, self.choice_labels[member.value]) for member in members)


HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "cubes",
        CubeMode,
        "Cubes",
        choice_labels={
            CubeMode.MULTIPLE: "A cube per member",
            CubeMode.SINGLE: "One cube for the team (Thorne 1930)",
        },
        max_length=8,
    ),
    HouseRule("jacoby", bool, "Jacoby (per member's cube)", money=True),
    HouseRule("beavers", bool, "Beavers", money=True),
    HouseRule("raccoons", bool, "Raccoons", money=True),
    HouseRule("automatic_doubles", bool, "Automatic doubles", money=True),
    HouseRule(
        "automatic_double_limit",
        int,
        "Automatic doubles up to",
        money=True,
        minimum=0,
        maximum=limits.MAX_AUTOMATIC_DOUBLES,
    ),
    HouseRule("philadelphia", bool, "Philadelphia method", money=True),
    # The column's bounds; the rules then name their own (3 or 4), which a form offers.
    HouseRule(
        "backgammon_value",
        int,
        "A backgammon counts",
        money=True,
        minimum=0,
        maximum=limits.MAX_INT16,
        offered=(3, 4),
    ),
    HouseRule(
        "cube_limit",
        int,
        "Cube limit (blank: none)",
        money=True,
        minimum=1,
        maximum=limits.MAX_CUBE,
        nullable=True,
    ),
    # The column's bounds; the rules then name their own (a partner from 4 players).
    HouseRule(
        "partner_threshold",
        int,
        "Box takes a partner from (players; blank: never)",
        minimum=0,
        maximum=limits.MAX_SEATS,
        nullable=True,
    ),
    HouseRule(
        "partner_choice",
        PartnerChoice,
        "The partner is",
        choice_labels={
            PartnerChoice.BOTTOM: "The member at the bottom of the line",
            PartnerChoice.GIVEN: "Named for each game",
        },
        max_length=8,
    ),
    HouseRule("captain_takeover", bool, "The captain may take over a drop at the doubled stake"),
    HouseRule(
        "box_retention",
        BoxRetention,
        "The box stays",
        choice_labels={
            BoxRetention.BEAT_CAPTAIN: "The box stays by beating the captain",
            BoxRetention.NET_WIN: "The box stays only with a net win over the team",
        },
        max_length=14,
    ),
    HouseRule(
        "consultation",
        Consultation,
        "Consultation",
        choice_labels={
            Consultation.FREE: "Free",
            Consultation.CHECKER_PLAY: "Checker play only",
            Consultation.NONE: "None",
        },
        max_length=14,
    ),
    HouseRule("allow_starting_cube", bool, "A member may start a game at ×2 or ×4"),
)
"""Every house rule, in the order the API and the Session's columns list them."""

HOUSE_RULE = {rule.name: rule for rule in HOUSE_RULES}
"""The declaration of each rule by name."""
