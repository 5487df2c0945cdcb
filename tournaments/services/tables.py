"""Table numbers for a tournament's matches, given as the matches are created.

The rule is kept simple so a director can predict it: each new match of the event
takes the **lowest table number not held by an unfinished match of the event**, new
matches numbered in board order (stage order, round, then the slot's place from the
top of the bracket or the top Swiss board). A round paired after the previous one
finished therefore starts again at table 1; a bracket round whose matches become
ready while the previous round is still being played takes the tables that round's
finished matches freed, skipping those still in play. A director may move any match
afterwards (``games.services.tables.set_table``); a number a director gave is held
like any other.

Only the event's own matches count: a friendly match at the club with a table number
does not reserve it here.
"""

from __future__ import annotations

from games.models import Match, MatchStatus
from tournaments.models import Pairing, PairingStatus, Tournament

#: Matches still sitting at their table.
LIVE = (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)


def lowest_free(held: set[int], count: int) -> list[int]:
    """The ``count`` lowest positive numbers not in ``held`` (pure, for the docs' rule)."""
    free: list[int] = []
    n = 1
    while len(free) < count:
        if n not in held:
            free.append(n)
        n += 1
    return free


def assign_tables(tournament: Tournament) -> int:
    """Number the event's ready matches that have no table yet; returns how many.

    Call inside the transaction that created the matches, with the tournament locked
    (the pairing and bracket services do), so two writers never hand out one table
    twice. Two queries when there is nothing to number.
    """
    new = list(
        Pairing.objects.filter(
            tournament=tournament,
            status=PairingStatus.READY,
            match__isnull=False,
            match__table__isnull=True,
            match__status__in=LIVE,
        )
        .order_by("round__stage__order", "round__stage__group", "round__number", "slot")
        .values_list("match_id", flat=True)
    )
    if not new:
        return 0
    held: set[int] = set(
        Match.objects.filter(  # type: ignore[arg-type]  # table__isnull=False: no None
            tournament_pairing__tournament=tournament,
            status__in=LIVE,
            table__isnull=False,
        ).values_list("table", flat=True)
    )
    matches = Match.objects.in_bulk(new)
    for match_id, table in zip(new, lowest_free(held, len(new)), strict=True):
        match = matches[match_id]
        match.table = table
        match._change_reason = f"table {table} (assigned by the tournament)"
        match.save(update_fields=["table"])
    return len(new)
