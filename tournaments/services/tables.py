"""Table numbers for a tournament's matches, drawn from the club's room as the matches
are created; a club's room and an event's reserved tables.

The rule is kept simple so a director can predict it (``games.rules.tables``): each
new match takes the **lowest table number of the club's room not held by a live match
of the club** (of any event, or a friendly match a director seated), new matches
numbered in board order (stage order, round, then the slot's place from the top of the
bracket or the top Swiss board). An event with reserved tables takes its own range
first, then shared tables; an event without takes shared tables only, never a range
another running event reserved. A room with a table count hands out nothing above it:
a match that finds every table held waits without a number, and is numbered by the
event's next draw (after its next result or round), or seated by a director. A
director may move any match afterwards (``games.services.tables.set_table``); a
number a director gave is held like any other.

**Concurrency.** Two events of one club create matches at the same instant (two
rounds paired, two results each opening a next match): each draw runs with its own
tournament locked (pairing: ``FOR UPDATE``; a result's follow-up: its turn), which
does not keep the *other* event out. So every draw also locks the club's ``Room`` row
(``FOR UPDATE``), last, after everything else it holds: the second draw waits for the
first to commit and then reads the tables it took (each statement of READ COMMITTED
sees what committed before it). Nothing waits for a tournament, a match or a slot
while holding the room, so the lock order (matches, tournament, slots, version, room)
has no cycle. ``tests/tournaments/services/test_room_tables.py`` races two events'
pairings from real threads on PostgreSQL.
"""

from __future__ import annotations

from django.db import transaction

from core import access
from core.actors import Actor
from core.errors import N_, RuleViolation
from games.models import Club, Match, MatchStatus
from games.rules import limits
from games.rules.audit_words import AUTOMATIC
from games.rules.tables import TableRange, draw_tables, overlapping
from tournaments.models import Pairing, PairingStatus, Room, Tournament, TournamentStatus

from .common import bump, check_version, lock_tournament, require_director

#: Matches still sitting at their table.
LIVE = (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)


def lowest_free(held: set[int], count: int) -> list[int]:
    """The ``count`` lowest positive numbers not in ``held`` (an unbounded room)."""
    return [n for n in draw_tables(needed=count, held=held, room_tables=None) if n is not None]


def room_of(club: Club) -> Room:
    """The club's room to read (unsaved, no name and no table count, until a director
    sets it or a draw first locks it)."""
    return Room.objects.filter(club=club).first() or Room(club=club)


def lock_room(club: Club) -> Room:
    """The club's room row, locked until the transaction ends (the club's draws take
    turns on it); made on first use."""
    Room.objects.get_or_create(club=club)
    return Room.objects.select_for_update().get(club=club)


def reserved(tournament: Tournament) -> TableRange | None:
    if tournament.table_first is None or tournament.table_last is None:
        return None
    return (tournament.table_first, tournament.table_last)


def other_ranges(tournament: Tournament) -> list[TableRange]:
    """The ranges the club's other running events reserved."""
    rows = (
        Tournament.objects.filter(
            club_id=tournament.club_id,
            status=TournamentStatus.RUNNING,
            table_first__isnull=False,
            table_last__isnull=False,
        )
        .exclude(pk=tournament.pk)
        .values_list("table_first", "table_last")
    )
    return [(first, last) for first, last in rows if first is not None and last is not None]


def assign_tables(tournament: Tournament) -> int:
    """Number the event's ready matches that have no table yet; returns how many got one.

    Call inside the transaction that created the matches, with the tournament locked
    (the pairing and bracket services do) or holding the event's follow-up turn. One
    query when there is nothing to number.
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
    room = lock_room(tournament.club)
    held: set[int] = set(
        Match.objects.filter(  # type: ignore[arg-type]  # table__isnull=False: no None
            club_id=tournament.club_id, status__in=LIVE, table__isnull=False
        ).values_list("table", flat=True)
    )
    drawn = draw_tables(
        needed=len(new),
        held=held,
        room_tables=room.tables,
        own=reserved(tournament),
        others=other_ranges(tournament),
    )
    matches = Match.objects.in_bulk(new)
    numbered = 0
    for match_id, table in zip(new, drawn, strict=True):
        if table is None:
            continue  # the room is full: it waits for the next draw or a director
        match = matches[match_id]
        match.table = table
        match._history_user = None  # no person: not whoever's result ran the draw
        match._change_reason = f"{AUTOMATIC}table {table}, drawn from the room"
        match.save(update_fields=["table"])
        numbered += 1
    return numbered


def _check_count(value: int | None, field: str) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation("table_invalid", N_("A table is a whole number."), field)
    if not 1 <= value <= limits.MAX_TABLE:
        raise RuleViolation(
            "table_out_of_range",
            N_("Tables are numbered 1 to %(MAX_TABLE)s.", MAX_TABLE=limits.MAX_TABLE),
            field,
        )


@transaction.atomic
def set_room(*, actor: Actor, club: Club, name: str, tables: int | None) -> Room:
    """A director names the club's room and says how many tables it has (None: no cap).

    Refused (400 ``room_too_small``, field ``tables``) when a running event reserved
    tables beyond the new count: shrink or clear that reservation first.
    """
    access.require_director(actor, club, detail="Only the club's directors manage its room.")
    _check_count(tables, "tables")
    name = (name or "").strip()
    if len(name) > limits.MAX_LABEL or "\n" in name or "\r" in name:
        raise RuleViolation(
            "room_name_invalid",
            N_("The room's name is one line of at most %(max)s characters.", max=limits.MAX_LABEL),
            "name",
        )
    room = lock_room(club)
    if tables is not None:
        beyond = (
            Tournament.objects.filter(club=club, table_last__gt=tables)
            .exclude(status=TournamentStatus.FINISHED)
            .values_list("name", flat=True)
            .first()
        )
        if beyond is not None:
            raise RuleViolation(
                "room_too_small",
                N_(
                    "%(event)s reserved tables beyond %(tables)s: change its reservation first.",
                    event=beyond,
                    tables=tables,
                ),
                "tables",
            )
    room.name = name
    room.tables = tables
    room.save(update_fields=["name", "tables"])
    return room


@transaction.atomic
def reserve_tables(
    *,
    actor: Actor,
    tournament_id: int,
    first: int | None,
    last: int | None,
    expected_version: int | None = None,
) -> Tournament:
    """A director reserves tables ``first`` to ``last`` of the room for the event (both
    None: no reservation). The event's later draws take them first
    (:func:`assign_tables`); matches already seated keep their tables.

    Refused, naming the field: a half range or ``first`` after ``last``
    (``table_range_invalid``), a number beyond the room (``table_out_of_range``), a range
    overlapping another running or upcoming event's (``table_range_taken``). The room is
    locked, so two directors reserving overlapping ranges at once cannot both succeed.
    """
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    check_version(tournament, expected_version)
    _check_count(first, "table_first")
    _check_count(last, "table_last")
    if (first is None) != (last is None):
        field = "table_last" if last is None else "table_first"
        raise RuleViolation(
            "table_range_invalid",
            N_("Give both the first and the last table of the range, or neither."),
            field,
        )
    if first is not None and last is not None:
        if first > last:
            raise RuleViolation(
                "table_range_invalid",
                N_("The last table comes after the first (%(first)s).", first=first),
                "table_last",
            )
        room = lock_room(tournament.club)
        if room.tables is not None and last > room.tables:
            raise RuleViolation(
                "table_out_of_range",
                N_("The room has %(tables)s tables.", tables=room.tables),
                "table_last",
            )
        _refuse_overlap(tournament, (first, last))
    tournament.table_first, tournament.table_last = first, last
    tournament.save(update_fields=["table_first", "table_last"])
    bump(tournament)
    return tournament


def _refuse_overlap(tournament: Tournament, wanted: TableRange) -> None:
    rows = (
        Tournament.objects.filter(
            club_id=tournament.club_id, table_first__isnull=False, table_last__isnull=False
        )
        .exclude(pk=tournament.pk)
        .exclude(status=TournamentStatus.FINISHED)
        .values_list("name", "table_first", "table_last")
    )
    for name, first, last in rows:
        if first is not None and last is not None and overlapping(wanted, [(first, last)]):
            raise RuleViolation(
                "table_range_taken",
                N_(
                    "%(event)s has reserved tables %(first)s to %(last)s.",
                    event=name,
                    first=first,
                    last=last,
                ),
                "table_first",
            )
