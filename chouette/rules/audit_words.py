"""The chouette's audit trail in words: one sentence per recorded change of a session.

The history tables keep every version of a session, its seats, its games and each
game's member rows. ``chouette.audit`` reads them and builds one
:class:`ChouetteChange` per version; this module decides the words ("Bob recorded game
3: box Ann won a gammon against captain Bob (box +4); Cat refused a double to 4") on
the match audit's record and value words (:mod:`games.rules.audit_words`), so games
knows nothing of boxes, captains or beavers. Pure: each wording is unit-tested without
a database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.rules.audit_words import (
    LEVEL_WORDS,
    PLAYER_FIELDS,
    ChangeRecord,
    Describer,
    doer,
    field_changes,
    player,
)
from games.rules.audit_words import describe as describe_with

#: Chouette fields holding a player id (the box, the captain, the partner...).
CHOUETTE_PLAYER_FIELDS = PLAYER_FIELDS | {
    "box",
    "partner",
    "captain",
    "board_captain",
    "given_partner",
    "raised_by",
}
#: Chouette fields holding a list of player ids.
CHOUETTE_PLAYER_LIST_FIELDS = frozenset({"opening_order", "team_order"})


@dataclass(frozen=True)
class ChouetteChange(ChangeRecord):
    """A :class:`ChangeRecord` of a chouette row: its ``kind`` is ``session``, ``seat``,
    ``chouette_game`` or ``member``; ``context`` may carry ``player`` (a seat's or
    member's player id) and ``members`` (a chouette game's member rows as dicts)."""

    player_fields: frozenset[str] = CHOUETTE_PLAYER_FIELDS
    player_list_fields: frozenset[str] = CHOUETTE_PLAYER_LIST_FIELDS


def _member_words(
    record: ChangeRecord, member: Mapping[str, Any], name: str | None = None
) -> str | None:
    """A member's drop or beaver in words (None when the member played it out)."""
    name = name or player(record, member.get("player"))
    action = member.get("action") or "played"
    cube = member.get("cube") or 1
    return {
        "dropped": f"{name} refused a double to {cube * 2}",
        "box_dropped": f"the box refused {name}'s double to {cube * 2}",
        "beavered": f"{name} beavered",
        "box_beavered": f"the box beavered {name}'s double",
    }.get(action)


def _chouette_game(record: ChangeRecord, row: Mapping[str, Any]) -> str:
    box = player(record, row.get("box"))
    captain = player(record, row.get("captain"))
    partner = row.get("partner")
    side = f"box {box}" + (f" with {player(record, partner)}" if partner else "")
    level = LEVEL_WORDS.get(row.get("level") or "single", str(row.get("level")))
    winner = row.get("winner")
    if winner == "box":
        text = f"{side} won {level} against captain {captain}"
    elif winner == "team":
        text = f"captain {captain}'s team won {level} against {side}"
    else:
        text = f"{side} v captain {captain}"
    if row.get("ending") == "dropped":
        text += ", every member dropped"
    points = row.get("box_points")
    if points is not None:
        text += f" (box {int(points):+d})"
    drops = [w for m in record.context.get("members", ()) if (w := _member_words(record, m))]
    return text + (f"; {', '.join(drops)}" if drops else "")


def _describe_session(record: ChangeRecord) -> str:
    after = record.after
    if record.action == "created":
        order = after.get("opening_order") or []
        seats = ", ".join(player(record, pk) for pk in order)
        stake = after.get("stake")
        money = f"; {stake} {after.get('currency', '')} a point".rstrip() if stake else ""
        return f"{doer(record)} opened the session: {seats}{money}"
    if record.action == "deleted":
        return f"{doer(record)} deleted the session"
    changed = record.changed()
    status_from, status_to = record.before.get("status"), after.get("status")
    if status_to != status_from and status_to == "closed":
        rest = [f for f in changed if f != "status"]
        return f"{doer(record)} closed the session" + (
            f"; {field_changes(record, rest)}" if rest else ""
        )
    if status_to != status_from and status_from == "closed":
        return f"{doer(record)} reopened the session"
    return f"{doer(record)} changed the session: {field_changes(record, changed)}"


def _describe_seat(record: ChangeRecord) -> str:
    name = player(record, record.context.get("player"))
    if record.action == "created":
        return f"{name} took a seat" + (f" ({doer(record)})" if record.who else "")
    if record.action == "deleted":
        return f"{name}'s seat was removed"
    left_before, left_after = record.before.get("left_at"), record.after.get("left_at")
    if left_after and not left_before:
        return f"{name} left the table" + (f" ({doer(record)})" if record.who else "")
    if left_before and not left_after:
        return f"{name} came back to the table" + (f" ({doer(record)})" if record.who else "")
    return f"{doer(record)} changed {name}'s seat: {field_changes(record, record.changed())}"


def _describe_chouette_game(record: ChangeRecord) -> str:
    n = record.number
    if record.action == "created":
        return f"{doer(record)} recorded game {n}: {_chouette_game(record, record.after)}"
    if record.action == "deleted":
        return f"{doer(record)} undid game {n}, which said {_chouette_game(record, record.before)}"
    return f"{doer(record)} corrected game {n}: {field_changes(record, record.changed())}"


def _describe_member(record: ChangeRecord) -> str:
    n, name = record.number, player(record, record.context.get("player"))
    row = record.after if record.action != "deleted" else record.before
    if record.action == "created":
        words = _member_words(record, row, name) or f"{name} played a {row.get('cube') or 1}-cube"
        return f"game {n}: {words} ({int(row.get('points') or 0):+d})"
    if record.action == "deleted":
        return f"game {n}: {name}'s line went with the game"
    return f"game {n}: {name}'s {field_changes(record, record.changed())}"


#: One describer per kind of chouette row.
DESCRIBERS: Mapping[str, Describer] = {
    "session": _describe_session,
    "seat": _describe_seat,
    "chouette_game": _describe_chouette_game,
    "member": _describe_member,
}


def describe(record: ChangeRecord) -> str:
    """One sentence for one recorded change of a chouette row."""
    return describe_with(record, DESCRIBERS)
