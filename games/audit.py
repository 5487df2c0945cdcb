"""The audit trail of a match: every change to it and its games, from django-simple-history.

Each entry says who, when, what (created, changed, deleted), for changes each
field's value before and after, and the reason a service gave (a reopened match says
"reopened (was void): ..." with the director's reason).
"""

from __future__ import annotations

from typing import Any

from games.models import Game, Match

HIDDEN = {"history_id", "history_date", "history_change_reason", "history_type", "history_user"}
TYPES = {"+": "created", "~": "changed", "-": "deleted"}


def _who(record: Any) -> str | None:
    user = record.history_user
    return user.get_username() if user is not None else None


def _entries(records: list[Any], subject: str) -> list[dict[str, Any]]:
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
    return entries
