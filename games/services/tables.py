"""Where a match is played: the director sets (or clears) a match's table number.

A table is not part of the result: it never touches the score, the status or the
rating, so it may be set at any state of the match (a finished match keeps its table
on its score card). It is still a write to the match like the others in
``games.services.match_writes``: one transaction, the match row locked, the caller's
``If-Match`` checked, the version bumped (the big screen and every ETag see the
change) and the audit trail recording who moved the match where.

It lives in its own module so the table write stays apart from the result writes; it
reuses their guards rather than copying them.
"""

from __future__ import annotations

from django.db import transaction

from core.actors import Actor
from core.errors import N_
from games.models import Match
from games.rules import limits
from games.rules.errors import RuleViolation

from .match_guards import require_match_director
from .match_writes import begin_write


def check_table(table: int | None) -> None:
    """A table is a number from 1 to ``limits.MAX_TABLE``, or None for no table."""
    if table is None:
        return
    if isinstance(table, bool) or not isinstance(table, int):
        raise RuleViolation("table_invalid", N_("The table is a whole number, or null."), "table")
    if not 1 <= table <= limits.MAX_TABLE:
        raise RuleViolation(
            "table_out_of_range",
            N_(
                "Tables are numbered 1 to %(MAX_TABLE)s (null clears the table).",
                MAX_TABLE=limits.MAX_TABLE,
            ),
            "table",
        )


@transaction.atomic
def set_table(
    *, actor: Actor, match_id: int, table: int | None, expected_version: int | None = None
) -> Match:
    """A director of the match's club puts the match at ``table`` (None: no table).

    Two matches may share a number (the director's call, e.g. a second board on one
    table); nothing is refused for it.
    """
    write = begin_write(match_id, expected_version, lambda m: require_match_director(actor, m))
    match = write.row
    check_table(table)
    if match.table == table:
        return match
    before = match.table
    match.table = table
    match._change_reason = f"table {before or '—'} → {table or '—'}"
    match._history_user = actor.user
    return write.commit()  # no announcement: a table is not a result
