"""The audit trail of a match: every change to it and its games, from django-simple-history.

Each entry says who, when, what (created, changed, deleted), for changes each
field's value before and after, and the reason a service gave (a reopened match says
"reopened (was void): ..." with the director's reason), and a ``summary``: the change
in words ("Ann entered game 3: Ann won a gammon on a 2-cube (4 points)"), told by
:mod:`games.rules.audit_words` from the versions before and after.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games.models import Game, Match, Player
from games.rules.audit_words import ChangeRecord, by_link, describe

#: A dispute's ruling is matched to the match's version written with it (the same
#: transaction) within this many seconds, when that version shows no change of its own.
RULING_WINDOW_SECONDS = 5

HIDDEN = {"history_id", "history_date", "history_change_reason", "history_type", "history_user"}
TYPES = {"+": "created", "~": "changed", "-": "deleted"}


def _who(record: Any) -> str | None:
    user = record.history_user
    return user.get_username() if user is not None else None


def _entries(records: list[Any], subject: str) -> list[dict[str, Any]]:
    """Each version as an entry; ``_record`` (dropped before answering) keeps the
    versions before and after for the words."""
    entries: list[dict[str, Any]] = []
    previous_by_object: dict[int, Any] = {}
    for record in records:
        before = previous_by_object.get(record.id)
        changes: dict[str, dict[str, Any]] = {}
        if before is not None and record.history_type == "~":
            delta = record.diff_against(before)
            for change in delta.changes:
                changes[change.field] = {"before": change.old, "after": change.new}
        entries.append(
            {
                "at": record.history_date.isoformat(),
                "who": _who(record),
                "what": TYPES.get(record.history_type, record.history_type),
                "subject": subject if subject == "match" else f"game {record.number}",
                "changes": {k: _plain(v) for k, v in changes.items()},
                "reason": record.history_change_reason or None,
                "_record": (before, record),
            }
        )
        previous_by_object[record.id] = record
    return entries


def _plain(change: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (v if isinstance(v, int | str | bool | type(None)) else str(v))
        for k, v in change.items()
    }


def match_audit_trail(match: Match) -> list[dict[str, Any]]:
    """Oldest first: the match's own history and its games' histories, interleaved."""
    match_records = list(
        Match.history.filter(id=match.pk).select_related("history_user").order_by("history_date")
    )
    game_records = list(
        Game.history.filter(match_id=match.pk)
        .select_related("history_user")
        .order_by("history_date")
    )
    entries = _entries(match_records, "match") + _entries(game_records, "game")
    entries.sort(key=lambda e: e["at"])
    _summarise(match, entries)
    return entries


def _fields(model: Any) -> dict[str, str]:
    """A model's concrete fields (attname → readable name), minus the bookkeeping."""
    return {
        f.attname: str(f.verbose_name)
        for f in model._meta.concrete_fields
        if f.name not in ("id", "match", "transcript", "moves", "created_at")
    }


def _values(record: Any, fields: dict[str, str]) -> dict[str, Any]:
    """One version's values, keyed by field name (``winner``, not ``winner_id``)."""
    if record is None:
        return {}
    return {attname.removesuffix("_id"): getattr(record, attname) for attname in fields}


def _summarise(match: Match, entries: list[dict[str, Any]]) -> None:
    """Give every entry its ``summary`` (the change in words), in a fixed number of
    queries: the players who acted (by account) and the match's disputes."""
    names = {
        match.player1_id: match.player1.display_name,
        match.player2_id: match.player2.display_name,
    }
    users = {e["_record"][1].history_user_id for e in entries} | {match.created_by_id}
    users |= {getattr(e["_record"][1], "entered_by_user_id", None) for e in entries}
    users |= set(match.disputes.exclude(resolved_by=None).values_list("resolved_by", flat=True))
    by_user: dict[int | None, str] = dict(
        get_user_model().objects.filter(pk__in=users).values_list("pk", "username")
    )
    by_user.update(Player.objects.filter(user_id__in=users).values_list("user_id", "display_name"))
    disputes = list(match.disputes.order_by("created_at", "pk"))
    raised = iter(disputes)
    rulings = sorted(
        (d for d in disputes if d.resolved_at), key=lambda d: d.resolved_at or d.created_at
    )
    match_fields, game_fields = _fields(Match), _fields(Game)
    labels = {k.removesuffix("_id"): v for k, v in {**match_fields, **game_fields}.items()}
    live: dict[int, int] = {}  # game id → its number now, to tell an undo from a removal
    for entry in entries:
        before, record = entry.pop("_record")
        kind = entry["subject"] if entry["subject"] == "match" else "game"
        fields = match_fields if kind == "match" else game_fields
        old = _values(before, fields) if record.history_type != "+" else {}
        new = _values(record, fields) if record.history_type != "-" else {}
        if record.history_type == "-":
            old = _values(record, fields)
        who = None
        if record.history_user_id is not None:
            who = by_user.get(record.history_user_id) or entry["who"]
        context: dict[str, Any] = {"players": (match.player1_id, match.player2_id)}
        if kind == "game":
            if who is None and record.history_type == "+":  # written outside a request
                who = names.get(record.entered_by_id) or by_user.get(record.entered_by_user_id)
                if who is not None and record.entered_by_user_id is None:
                    who = by_link(who)
            if record.history_type == "-":
                context["last"] = all(n <= record.number for n in live.values())
                live.pop(record.id, None)
            else:
                live[record.id] = record.number
        else:
            if who is None and record.history_type == "+":
                who = by_user.get(match.created_by_id)
            if who is None and record.history_type == "~":
                who = _link_writer(old, new, names)
            if old.get("confirmation") != "disputed" and new.get("confirmation") == "disputed":
                dispute = next(raised, None)
                if dispute is not None:
                    context["dispute_reason"] = dispute.reason
                    disputer = names.get(dispute.raised_by_id)
                    if disputer and record.history_user_id is None:
                        disputer = by_link(disputer)
                    context["disputed_by"] = disputer
            ruling = _ruling_of(record, old, new, rulings)
            if ruling is not None:
                rulings.remove(ruling)
                context["decision"] = ruling.decision or "keep"
                if ruling.resolution:
                    context["resolution"] = ruling.resolution
                if who is None and ruling.resolved_by_id is not None:
                    who = by_user.get(ruling.resolved_by_id)
        entry["summary"] = describe(
            ChangeRecord(
                kind=kind,
                action=entry["what"],
                who=who,
                number=getattr(record, "number", None),
                before=old,
                after=new,
                names=names,
                labels=labels,
                reason=entry["reason"],
                context=context,
            )
        )


def _link_writer(old: dict[str, Any], new: dict[str, Any], names: dict[int, str]) -> str | None:
    """Who wrote a match version no account wrote: a player's score link. An entry
    awaiting the opponent was made by the other player; a confirmation by the player it
    awaited. None when the version tells neither (the trail says "someone")."""
    waiting = new.get("awaiting")
    if waiting and waiting != old.get("awaiting") and waiting in names:
        other = next((pk for pk in names if pk != waiting), None)
        return by_link(names[other]) if other is not None else None
    if old.get("confirmation") == "pending" and new.get("confirmation") == "confirmed":
        confirmer = names.get(old.get("awaiting"))  # type: ignore[arg-type]
        return by_link(confirmer) if confirmer else None
    return None


def _ruling_of(record: Any, old: dict[str, Any], new: dict[str, Any], rulings: list[Any]) -> Any:
    """The dispute ruled in this match version, if any: the one that moved the match from
    disputed to confirmed, or (a ruling that left every field as it was) the next ruling
    written within :data:`RULING_WINDOW_SECONDS` of it."""
    if not rulings or record.history_type != "~":
        return None
    if old.get("confirmation") == "disputed" and new.get("confirmation") in ("confirmed", None):
        return rulings[0]
    bookkeeping = {"version", "finished_at", "transcript_hash"}
    unchanged = all(old.get(k) == v for k, v in new.items() if k not in bookkeeping)
    if unchanged:
        for ruling in rulings:
            gap = abs((ruling.resolved_at - record.history_date).total_seconds())
            if gap <= RULING_WINDOW_SECONDS:
                return ruling
    return None
