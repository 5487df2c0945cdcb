"""Between the stored rows and the pure rules: house rules, records and their inputs.

The services and selectors both need to say "these rows, as the rules see them";
this module is that translation and nothing else (no writes, no permissions).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.errors import N_
from games.rules.errors import RuleViolation
from games.rules.money import MoneyRules
from games.rules.types import Ending, Level

from . import rules as chouette_rules
from .models import ChouetteGame, MemberAction, MemberResult, RuleProfile, Session, SessionEvent
from .rules import (
    HOUSE_RULES,
    ChouetteRules,
    GameRecord,
    Join,
    Leave,
    Lineup,
    MemberRecord,
    Side,
)

#: The house rules of :class:`~games.rules.money.MoneyRules` and of ``ChouetteRules``,
#: from the one declaration (``chouette.rules.HOUSE_RULES``).
MONEY_FIELDS = tuple(rule.name for rule in HOUSE_RULES if rule.money)
CHOUETTE_FIELDS = tuple(rule.name for rule in HOUSE_RULES if not rule.money)
#: Every house-rule field of a Session, in the order the open-session page shows them.
RULE_FIELDS = (*CHOUETTE_FIELDS, *MONEY_FIELDS)

# (drop, beaver) of each recorded action
ACTION_SIDES: dict[str, tuple[Side | None, Side | None]] = {
    MemberAction.PLAYED: (None, None),
    MemberAction.DROPPED: (Side.TEAM, None),
    MemberAction.BOX_DROPPED: (Side.BOX, None),
    MemberAction.BEAVERED: (None, Side.TEAM),
    MemberAction.BOX_BEAVERED: (None, Side.BOX),
}


def _located(error: RuleViolation, prefix: str) -> RuleViolation:
    where = f"{prefix}.{error.field}" if error.field else prefix
    return RuleViolation(error.code, error.message, field=where)


def build_rules(
    profile: str = RuleProfile.MODERN, overrides: Mapping[str, Any] | None = None
) -> ChouetteRules:
    """The house rules from a profile (modern or Thorne 1930) and explicit overrides.

    Unknown names are refused: a table that thinks it agreed a rule we do not know
    must hear so, not have it silently ignored.
    """
    overrides = dict(overrides or {})
    unknown = sorted(set(overrides) - set(RULE_FIELDS))
    if unknown:
        raise RuleViolation(
            "unknown_house_rule",
            N_(
                "Unknown house rule(s): %(join)s. Known: %(join2)s.",
                join=", ".join(unknown),
                join2=", ".join(RULE_FIELDS),
            ),
            field=f"rules.{unknown[0]}",
        )
    if profile == RuleProfile.THORNE_1930:
        base = ChouetteRules.thorne_1930()
    elif profile == RuleProfile.MODERN:
        base = ChouetteRules.modern()
    else:
        raise RuleViolation(
            "unknown_rule_profile",
            N_(
                "%(profile)r is not a rule profile: %(join)s.",
                profile=profile,
                join=", ".join(RuleProfile.values),
            ),
            field="rules.profile",
        )
    money_values = {name: getattr(base.money, name) for name in MONEY_FIELDS}
    money_values.update({k: v for k, v in overrides.items() if k in MONEY_FIELDS})
    values = {name: getattr(base, name) for name in CHOUETTE_FIELDS}
    values.update({k: v for k, v in overrides.items() if k in CHOUETTE_FIELDS})
    try:
        money = MoneyRules(**money_values)
        return ChouetteRules(money=money, **values)
    except RuleViolation as error:
        raise _located(error, "rules") from None


def rules_values(rules: ChouetteRules) -> dict[str, Any]:
    """The house rules as the Session's field values."""
    values: dict[str, Any] = {name: getattr(rules.money, name) for name in MONEY_FIELDS}
    for name in CHOUETTE_FIELDS:
        value = getattr(rules, name)
        values[name] = value.value if hasattr(value, "value") else value
    return values


def session_rules(session: Session) -> ChouetteRules:
    """The rules a stored session plays under."""
    money = MoneyRules(**{name: getattr(session, name) for name in MONEY_FIELDS})
    return ChouetteRules(money=money, **{name: getattr(session, name) for name in CHOUETTE_FIELDS})


@dataclass(frozen=True)
class MemberInput:
    """One member's row as a client records it."""

    player_id: int
    cube: int | None = None
    action: str = MemberAction.PLAYED
    owner: str | None = None
    raccoon: bool = False
    stake: int = 1
    taken_over: bool = False
    cube_turned: bool | None = None


@dataclass(frozen=True)
class GameInput:
    """One game as a client records it (see the API's ``POST .../games/``)."""

    members: tuple[MemberInput, ...]
    winner: str | None = None
    level: str = Level.SINGLE
    ending: str | None = None
    automatic_doubles: int = 0
    partner_id: int | None = None
    box_id: int | None = None
    captain_id: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def record_from_input(data: GameInput) -> GameRecord:
    """The rules' record of a game entered by a client (validated by ``score_game``)."""
    initial = 2**data.automatic_doubles if data.automatic_doubles >= 0 else 1
    members = []
    for index, member in enumerate(data.members):
        if member.action not in ACTION_SIDES:
            raise RuleViolation(
                "invalid_action",
                N_(
                    "%(action)r is not one of: %(join)s.",
                    action=member.action,
                    join=", ".join(MemberAction.values),
                ),
                field=f"members[{index}].action",
            )
        drop, beaver = ACTION_SIDES[member.action]
        cube = initial if member.cube is None else member.cube
        if member.cube_turned is not None and member.cube_turned != (cube > initial):
            raise RuleViolation(
                "cube_turned_mismatch",
                N_(
                    "A cube at %(cube)s %(value)s turned (the game started at "
                    "%(initial)s): cube_turned says otherwise.",
                    cube=cube,
                    value="was" if cube > initial else "was not",
                    initial=initial,
                ),
                field=f"members[{index}].cube_turned",
            )
        if member.raccoon and beaver is None:
            raise RuleViolation(
                "raccoon_without_beaver",
                N_("A raccoon is the doubler's immediate redouble of a beaver."),
                field=f"members[{index}].raccoon",
            )
        members.append(
            MemberRecord(
                player=member.player_id,
                cube=member.cube,
                drop=drop,
                beaver=beaver,
                raccoon=member.raccoon,
                owner=Side(member.owner) if member.owner else None,
                stake=member.stake,
                taken_over=member.taken_over,
            )
        )
    return GameRecord(
        members=tuple(members),
        winner=Side(data.winner) if data.winner else None,
        level=Level(data.level),
        ending=Ending(data.ending) if data.ending else None,
        automatic_doubles=data.automatic_doubles,
        partner=data.partner_id,
        box=data.box_id,
        captain=data.captain_id,
    )


def input_from_rows(game: ChouetteGame, members: Iterable[MemberResult]) -> GameInput:
    """A stored game as the input that recorded it (for corrections and replays)."""
    return GameInput(
        members=tuple(
            MemberInput(
                player_id=m.player_id,
                cube=m.cube,
                action=m.action,
                owner=m.owner or None,
                raccoon=m.raccoon,
                stake=m.stake,
                taken_over=m.taken_over,
            )
            for m in members
        ),
        winner=game.winner or None,
        level=game.level,
        ending=game.ending or None,
        automatic_doubles=game.automatic_doubles,
        partner_id=game.given_partner_id,
    )


def events_from_rows(events: Iterable[SessionEvent]) -> list[chouette_rules.session.SessionEvent]:
    """The rules' event list from stored events (games with their members prefetched)."""
    out: list[chouette_rules.session.SessionEvent] = []
    for event in events:
        if event.kind == SessionEvent.Kind.JOIN:
            out.append(Join(event.player_id))
        elif event.kind == SessionEvent.Kind.LEAVE:
            out.append(Leave(event.player_id))
        else:
            game = event.game
            out.append(record_from_input(input_from_rows(game, game.members.all())))
    return out


def opening_lineup(session: Session) -> Lineup:
    return Lineup.from_order(session.opening_order)
