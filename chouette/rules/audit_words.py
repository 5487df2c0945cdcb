"""The chouette's audit trail in words: one sentence per recorded change of a session.

The history tables keep every version of a session, its seats, its games and each
game's member rows. ``chouette.audit`` reads them and builds one
:class:`ChouetteChange` per version; this module decides the words ("Bob recorded game
3: box Ann won a gammon against captain Bob (box +4); Cat refused a double to 4") on
the match audit's record and value words (:mod:`games.rules.audit_words`), so games
knows nothing of boxes, captains or beavers. Pure: each wording is unit-tested without
a database. Like the match audit's, every sentence is a ``core.errors.Text`` (``N_``),
told in the reader's language when the sheet renders it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import N_, Text, listing
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
) -> Text | None:
    """A member's drop or beaver in words (None when the member played it out)."""
    name = name or player(record, member.get("player"))
    action = member.get("action") or "played"
    to = (member.get("cube") or 1) * 2
    if action == "dropped":
        return N_("%(name)s refused a double to %(cube)s", name=name, cube=to)
    if action == "box_dropped":
        return N_("the box refused %(name)s's double to %(cube)s", name=name, cube=to)
    if action == "beavered":
        return N_("%(name)s beavered", name=name)
    if action == "box_beavered":
        return N_("the box beavered %(name)s's double", name=name)
    return None


def _chouette_game(record: ChangeRecord, row: Mapping[str, Any]) -> Text:
    box = player(record, row.get("box"))
    captain = player(record, row.get("captain"))
    partner = row.get("partner")
    side = (
        N_("box %(box)s with %(partner)s", box=box, partner=player(record, partner))
        if partner
        else N_("box %(box)s", box=box)
    )
    level = LEVEL_WORDS.get(row.get("level") or "single") or str(row.get("level"))
    winner = row.get("winner")
    text: Text
    if winner == "box":
        text = N_(
            "%(side)s won %(level)s against captain %(captain)s",
            side=side,
            level=level,
            captain=captain,
        )
    elif winner == "team":
        text = N_(
            "captain %(captain)s's team won %(level)s against %(side)s",
            captain=captain,
            level=level,
            side=side,
        )
    else:
        text = N_("%(side)s v captain %(captain)s", side=side, captain=captain)
    if row.get("ending") == "dropped":
        text = N_("%(game)s, every member dropped", game=text)
    points = row.get("box_points")
    if points is not None:
        text = N_("%(game)s (box %(points)s)", game=text, points=f"{int(points):+d}")
    drops = [w for m in record.context.get("members", ()) if (w := _member_words(record, m))]
    return listing([text, listing(drops)], "; ") if drops else text


def _by(record: ChangeRecord, text: Text) -> Text:
    """``text``, then who did it in brackets when an account did (a seat's change)."""
    return N_("%(change)s (%(who)s)", change=text, who=doer(record)) if record.who else text


def _describe_session(record: ChangeRecord) -> str:
    after, who = record.after, doer(record)
    if record.action == "created":
        seats = listing(player(record, pk) for pk in after.get("opening_order") or [])
        stake = after.get("stake")
        if stake:
            return N_(
                "%(who)s opened the session: %(seats)s; %(stake)s %(currency)s a point",
                who=who,
                seats=seats,
                stake=stake,
                currency=after.get("currency", ""),
            )
        return N_("%(who)s opened the session: %(seats)s", who=who, seats=seats)
    if record.action == "deleted":
        return N_("%(who)s deleted the session", who=who)
    changed = record.changed()
    status_from, status_to = record.before.get("status"), after.get("status")
    if status_to != status_from and status_to == "closed":
        rest = [f for f in changed if f != "status"]
        closed = N_("%(who)s closed the session", who=who)
        return listing([closed, field_changes(record, rest)], "; ") if rest else closed
    if status_to != status_from and status_from == "closed":
        return N_("%(who)s reopened the session", who=who)
    return N_(
        "%(who)s changed the session: %(changes)s",
        who=who,
        changes=field_changes(record, changed),
    )


def _describe_seat(record: ChangeRecord) -> str:
    name = player(record, record.context.get("player"))
    if record.action == "created":
        return _by(record, N_("%(name)s took a seat", name=name))
    if record.action == "deleted":
        return N_("%(name)s's seat was removed", name=name)
    left_before, left_after = record.before.get("left_at"), record.after.get("left_at")
    if left_after and not left_before:
        return _by(record, N_("%(name)s left the table", name=name))
    if left_before and not left_after:
        return _by(record, N_("%(name)s came back to the table", name=name))
    return N_(
        "%(who)s changed %(name)s's seat: %(changes)s",
        who=doer(record),
        name=name,
        changes=field_changes(record, record.changed()),
    )


def _describe_chouette_game(record: ChangeRecord) -> str:
    n, who = record.number, doer(record)
    if record.action == "created":
        return N_(
            "%(who)s recorded game %(number)s: %(game)s",
            who=who,
            number=n,
            game=_chouette_game(record, record.after),
        )
    if record.action == "deleted":
        return N_(
            "%(who)s undid game %(number)s, which said %(game)s",
            who=who,
            number=n,
            game=_chouette_game(record, record.before),
        )
    return N_(
        "%(who)s corrected game %(number)s: %(changes)s",
        who=who,
        number=n,
        changes=field_changes(record, record.changed()),
    )


def _describe_member(record: ChangeRecord) -> str:
    n, name = record.number, player(record, record.context.get("player"))
    row = record.after if record.action != "deleted" else record.before
    if record.action == "created":
        words = _member_words(record, row, name) or N_(
            "%(name)s played a %(cube)s-cube", name=name, cube=row.get("cube") or 1
        )
        return N_(
            "game %(number)s: %(words)s (%(points)s)",
            number=n,
            words=words,
            points=f"{int(row.get('points') or 0):+d}",
        )
    if record.action == "deleted":
        return N_("game %(number)s: %(name)s's line went with the game", number=n, name=name)
    return N_(
        "game %(number)s: %(name)s's %(changes)s",
        number=n,
        name=name,
        changes=field_changes(record, record.changed()),
    )


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
