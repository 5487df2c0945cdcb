"""One new result in an elimination bracket: only the slots it touches, locked.

Why a module of its own: :func:`~tournaments.services.brackets.sync_bracket`
re-derives the whole bracket under the tournament's lock, which makes every result of
a big event wait for the one before. A new result usually changes two or three slots
(its own, where its players go next), so :func:`plan_advance` reads those without
locks, and :func:`advance_bracket` locks just them (primary-key order) and writes the
same states the whole derivation would (``advance_result`` of the pure engine). A slot
nearby flagged stale or a withdrawn player sends the result down the slow path instead
(:class:`_SlowPath`). The lock order is in :mod:`core.locking`.
"""

from __future__ import annotations

from django.db.models import Q

from core.errors import N_
from core.locking import lock_rows, share_row, try_share_row
from games.rules.errors import ConflictError
from tournaments.formats.bracket_engine import MatchState, advance_result
from tournaments.formats.bracket_engine import MatchStatus as SlotStatus
from tournaments.formats.bracket_graph import BracketGraph, LoserOf, WinnerOf
from tournaments.models import Entry, EntryStatus, Pairing, PairingStatus, Tournament
from tournaments.selectors_graph import bracket_graph

from .brackets import SLOT_TO_PAIRING, create_slot_match, forfeited_out_q
from .common import system_creator_id

_SLOT_STATUS = {value: key for key, value in SLOT_TO_PAIRING.items()}
_SETTLED_WITHOUT_WINNER = (SlotStatus.WAITING, SlotStatus.READY, SlotStatus.EMPTY)


def _stored_state(graph: BracketGraph, pairing: Pairing) -> MatchState[int]:
    """A slot's state as the database holds it (what :func:`sync_bracket` last wrote)."""
    status = _SLOT_STATUS[PairingStatus(pairing.status)]
    a, b, winner = pairing.entry1_id, pairing.entry2_id, pairing.winner_id
    loser = None
    if status == SlotStatus.PLAYED:
        loser = b if winner == a else a
    if status in _SETTLED_WITHOUT_WINNER:
        winner = None
    return MatchState(graph.match(pairing.key), status, a, b, winner=winner, loser=loser)


def _neighbourhood(graph: BracketGraph, key: str) -> set[str]:
    """The slots a result at ``key`` reads: itself, where its players go next, and the
    other sources of those slots (in the usual case nothing further changes)."""
    keys = {key}
    for destination in (graph.winner_destination(key), graph.loser_destination(key)):
        if destination is None:
            continue
        keys.add(destination.match)
        for source in graph.match(destination.match).sides:
            if isinstance(source, WinnerOf | LoserOf):
                keys.add(source.match)
    return keys


class _SlowPath(Exception):
    """The result needs the whole derivation (a correction nearby, a withdrawn player)."""


def _plan(
    tournament: Tournament,
    graph: BracketGraph,
    rows: dict[str, Pairing],
    key: str,
    winner: int,
    *,
    load: bool,
) -> dict[str, MatchState[int]]:
    """The slots that change and their states; with ``load``, slots outside ``rows`` are
    read (unlocked, the plan), else reaching one is a change under our feet (409)."""

    def stored(k: str) -> MatchState[int]:
        if k not in rows:
            if not load:
                raise ConflictError(
                    "tournament_changed",
                    N_("The bracket changed while this result was entered: try again."),
                )
            found = Pairing.objects.filter(tournament=tournament, key=k).first()
            if found is None:
                raise _SlowPath(k)
            rows[k] = found
        if rows[k].stale:
            raise _SlowPath(k)
        return _stored_state(graph, rows[k])

    return advance_result(graph, tournament.bracket_order, stored, key, winner)


def plan_advance(tournament: Tournament, pairing: Pairing, winner: int) -> dict[str, int] | None:
    """The slots a new result at ``pairing`` will lock, by key with their ids (read
    without locks, before the tournament is touched), or None when it needs
    :func:`sync_bracket` under the
    tournament's own lock: a slot nearby is flagged stale, or a withdrawn entry would
    sit in a slot it changes (the whole derivation turns those into walkovers)."""
    graph = bracket_graph(tournament)
    keys = _neighbourhood(graph, pairing.key)
    rows = {p.key: p for p in Pairing.objects.filter(tournament=tournament, key__in=keys)}
    try:
        changes = _plan(tournament, graph, rows, pairing.key, winner, load=True)
    except _SlowPath:
        return None
    players = {e for s in changes.values() for e in (s.player_a, s.player_b) if e is not None}
    out = Q(status=EntryStatus.WITHDRAWN)
    no_show = forfeited_out_q(tournament)
    if no_show is not None:
        out |= Q(no_show)
    if Entry.objects.filter(pk__in=players).filter(out).exists():
        return None
    return {k: p.pk for k, p in rows.items()}


def advance_bracket(
    tournament: Tournament, pairing: Pairing, winner: int, *, forfeit: bool, keys: dict[str, int]
) -> tuple[set[int], bool]:
    """Record a new result at ``pairing`` and move its players on, locking only the
    slots ``keys`` (:func:`plan_advance`), never the tournament's row for writing.

    The caller holds the match and a *share* lock on the tournament (no director's
    write runs meanwhile; other results do). The slots are locked in primary-key order
    in one statement and read afresh under the lock, so two results feeding one next
    slot take turns on it and the second sees the first: one next match. Returns the
    ids of the rounds whose slots changed (their status is settled by the follow-up)
    and whether a match was created (its table is numbered by the follow-up too).
    """
    graph = bracket_graph(tournament)
    locked = lock_rows(Pairing.objects.select_related("round__stage"), keys.values())
    rows = {p.key: p for p in locked if p.tournament_id == tournament.pk}
    if {k: p.pk for k, p in rows.items()} != keys:  # the slots were drawn anew meanwhile
        raise ConflictError(
            "tournament_changed",
            N_("The bracket changed while this result was entered: try again."),
        )
    try:
        changes = _plan(tournament, graph, rows, pairing.key, winner, load=False)
    except _SlowPath:
        raise ConflictError(
            "tournament_changed",
            N_("The bracket changed while this result was entered: try again."),
        ) from None
    needed = {
        e
        for s in changes.values()
        if s.status == SlotStatus.READY
        for e in (s.player_a, s.player_b)
    }
    found = Entry.objects.filter(pk__in=needed)
    no_show = forfeited_out_q(tournament)
    if no_show is not None:
        found = found.annotate(no_show=no_show)
    entries = {e.pk: e for e in found}
    if any(
        e.status == EntryStatus.WITHDRAWN or getattr(e, "no_show", False) for e in entries.values()
    ):
        raise ConflictError(
            "tournament_changed",
            N_("The bracket changed while this result was entered: try again."),
        )
    creator: list[int | None] = []  # looked up once, when a match is to be made
    touched: set[int] = set()
    created = False
    for key, slot in changes.items():
        row = rows[key]
        row.entry1_id, row.entry2_id = slot.player_a, slot.player_b
        row.status = SLOT_TO_PAIRING[slot.status]
        row.winner_id = slot.winner if slot.status not in _SETTLED_WITHOUT_WINNER else None
        row.forfeit = forfeit if key == pairing.key else False
        if slot.status == SlotStatus.READY and row.match_id is None:
            creator = creator or [system_creator_id(tournament)]
            row.match = create_slot_match(tournament, row, entries, slot, creator[0])
            created = True
        row.save()
        touched.add(row.round_id)
    return touched, created


def share_turn(tournament_id: int) -> bool:
    """Take the event's follow-up turn if it is free now (``FOR NO KEY UPDATE SKIP
    LOCKED``: shared with the results' key-share locks, exclusive among follow-ups and
    against a director's write); False when another holds it. Without row locks
    (SQLite) writers take turns anyway: always True."""
    return try_share_row(Tournament, tournament_id)


def share_tournament(tournament_id: int) -> None:
    """Hold the tournament against directors' writes (they lock it ``FOR UPDATE``)
    without excluding other results (``FOR KEY SHARE``: shared with every other
    result, and with the version bump of the follow-up)."""
    share_row(Tournament, tournament_id)
