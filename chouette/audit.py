"""The audit trail of a chouette session: who changed what, when, before and after.

django-simple-history keeps every version of the session, its seats, its games and
each member's row (every change to a chouette game is kept: who, when, before, after);
this module reads those versions
back and says, per version, what changed compared with the one before (the same
shape as :func:`games.audit.match_audit_trail` for matches). Player ids are shown as
names, so the trail reads like the sheet, and each entry has a ``summary``: the change
in words ("Ann recorded game 3: box Ann won a gammon against captain Ben (box +4)"),
told by :mod:`chouette.rules.audit_words`. A fixed number of queries, whatever the
session's length.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from games.models import Player

from .models import ChouetteGame, MemberResult, Seat, Session
from .records import RULE_FIELDS
from .rules.audit_words import ChouetteChange, describe

TYPES = {"+": "created", "~": "changed", "-": "deleted"}

#: The fields each entry compares, per model (timestamps and the version are noise;
#: ``lineup`` is the derived next lineup, already visible on the games).
SESSION_FIELDS = (
    "stake",
    "currency",
    "label",
    "played_on",
    "profile",
    *RULE_FIELDS,
    "opening_order",
    "opening_rolls",
    "status",
)
SEAT_FIELDS = ("joined_at", "left_at")
GAME_FIELDS = (
    "winner",
    "level",
    "ending",
    "automatic_doubles",
    "given_partner",
    "box",
    "partner",
    "captain",
    "board_captain",
    "board_winner",
    "team_order",
    "box_points",
    "partner_points",
)
MEMBER_FIELDS = ("cube", "action", "owner", "raccoon", "stake", "taken_over", "points")
PLAYER_FIELDS = {"box", "partner", "captain", "board_captain", "given_partner"}
PLAYER_LISTS = {"opening_order", "team_order"}


class _Names:
    """Player ids to display names, for values and subjects."""

    def __init__(self, players: dict[int, str]) -> None:
        self.players = players

    def player(self, pk: int | None) -> str | None:
        return None if pk is None else self.players.get(pk, f"player {pk}")

    def value(self, field: str, value: Any) -> Any:
        if value is None:
            return None
        if field in PLAYER_FIELDS:
            return self.player(value)
        if field in PLAYER_LISTS:
            return [self.player(pk) for pk in value]
        if field == "opening_rolls":
            return {self.player(int(pk)): rolls for pk, rolls in value.items()}
        if isinstance(value, datetime | date):
            return value.isoformat()
        if isinstance(value, Decimal):
            return str(value)
        return value


def _value(record: Any, field: str) -> Any:
    return getattr(record, record.instance_type._meta.get_field(field).attname)


def _blank(value: Any) -> bool:
    """None, "" and [] all say "nothing here": a blank field created says nothing."""
    return value is None or value == "" or value == []


def _changes(
    before: Any, record: Any, fields: Iterable[str], names: _Names
) -> dict[str, dict[str, Any]]:
    """Each field that differs between two versions; a creation or a deletion compares
    against nothing (every field that holds something)."""
    changes = {}
    for field in fields:
        value = _value(record, field)
        if record.history_type == "~" and before is not None:
            old, new = _value(before, field), value
        elif record.history_type == "-":
            old, new = value, None
        else:
            old, new = None, value
        if old != new and not (_blank(old) and _blank(new)):
            changes[field] = {"before": names.value(field, old), "after": names.value(field, new)}
    return changes


class _Words:
    """What the describer needs beyond one version: names, readable field names, who
    acted (a seated player's name for their account), each game's first member rows."""

    def __init__(self, names: _Names, by_user: dict[int, str], members: list[Any]) -> None:
        self.names = names
        self.by_user = by_user
        self.first_members: dict[int, list[dict[str, Any]]] = {}
        for record in members:
            if record.history_type == "+":
                self.first_members.setdefault(record.game_id, []).append(
                    {"player": record.player_id, "action": record.action, "cube": record.cube}
                )

    def summary(
        self, kind: str, before: Any, record: Any, fields: tuple[str, ...], number: int | None
    ) -> str:
        def values(version: Any) -> dict[str, Any]:
            return {} if version is None else {f: _value(version, f) for f in fields}

        old = values(record if record.history_type == "-" else before)
        new = {} if record.history_type == "-" else values(record)
        if record.history_type == "+":
            old = {}
        meta = record.instance_type._meta
        context: dict[str, Any] = {"player": getattr(record, "player_id", None)}
        if kind == "chouette_game":
            context["members"] = self.first_members.get(record.id, [])
        user = record.history_user
        who = None
        if user is not None:
            who = self.by_user.get(user.pk) or user.get_username()
        return describe(
            ChouetteChange(
                kind=kind,
                action=TYPES.get(record.history_type, record.history_type),
                who=who,
                number=number if number is not None else getattr(record, "number", None),
                before=old,
                after=new,
                names=self.names.players,
                labels={f: str(meta.get_field(f).verbose_name) for f in fields},
                context=context,
            )
        )


def _entries(
    records: Iterable[Any],
    fields: tuple[str, ...],
    subject: Any,
    names: _Names,
    words: _Words,
    kind: str,
    numbers: dict[int, int] | None = None,
) -> list:
    entries = []
    previous: dict[int, Any] = {}
    for record in records:
        before = previous.get(record.id)
        changes = _changes(before, record, fields, names)
        previous[record.id] = record
        if record.history_type == "~" and not changes:
            continue  # a save that changed only derived bookkeeping (the version, the lineup)
        user = record.history_user
        number = numbers.get(record.game_id) if numbers is not None else None
        summary = words.summary(kind, before, record, fields, number)
        entries.append(
            {
                "at": record.history_date.isoformat(),
                "who": user.get_username() if user is not None else None,
                "what": TYPES.get(record.history_type, record.history_type),
                "subject": subject(record),
                "changes": changes,
                "summary": summary,
            }
        )
    return entries


def _history(model: Any, **filters: Any) -> list[Any]:
    return list(
        model.history.filter(**filters)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )


def session_audit_trail(session: Session) -> list[dict[str, Any]]:
    """Oldest first: every version of the session, its seats, games and member rows.

    Each entry: ``at`` (ISO time), ``who`` (username or None), ``what`` (created,
    changed, deleted), ``subject`` ("session", "seat: Ann", "game 3", "game 3: Ben"),
    ``changes`` ({field: {"before", "after"}}).
    """
    sessions = _history(Session, id=session.pk)
    seats = _history(Seat, session_id=session.pk)
    games = _history(ChouetteGame, session_id=session.pk)
    members = _history(MemberResult, game_id__in={g.id for g in games})
    names = _Names(
        dict(
            Player.objects.filter(pk__in={s.player_id for s in seats}).values_list(
                "pk", "display_name"
            )
        )
    )
    numbers = {g.id: g.number for g in games}
    users = {r.history_user_id for r in [*sessions, *seats, *games, *members]} - {None}
    by_user = dict(Player.objects.filter(user_id__in=users).values_list("user_id", "display_name"))
    words = _Words(names, by_user, members)
    entries = [
        *_entries(sessions, SESSION_FIELDS, lambda r: "session", names, words, "session"),
        *_entries(
            seats, SEAT_FIELDS, lambda r: f"seat: {names.player(r.player_id)}", names, words, "seat"
        ),
        *_entries(games, GAME_FIELDS, lambda r: f"game {r.number}", names, words, "chouette_game"),
        *_entries(
            members,
            MEMBER_FIELDS,
            lambda r: f"game {numbers.get(r.game_id, '?')}: {names.player(r.player_id)}",
            names,
            words,
            "member",
            numbers,
        ),
    ]
    entries.sort(key=lambda e: e["at"])  # stable: session, seats, games, members
    return entries
