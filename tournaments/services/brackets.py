"""Elimination brackets in the database: draw them, and move players on after results.

The pure graph (:mod:`tournaments.formats`) says where every slot's players come from;
the database holds one :class:`~tournaments.models.Pairing` per slot and the recorded
winners. :func:`sync_bracket` re-derives the whole bracket from those
(``derive_bracket_state``) and writes only what changed: players who advance, matches
for slots whose two players are now known, walkovers for withdrawn players, round
completion, and *stale* flags where a correction changed who should have played. It
runs inside the transaction that recorded the result (the result listener registered
in :mod:`core.listeners`), so advancement commits or fails with the result itself.

Played matches are never deleted: a slot whose players changed keeps its match and is
flagged for the director; a match nobody has started yet is voided (kept, audited) and
replaced.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from core.errors import N_
from core.locking import lock_rows, share_row, try_lock_row, try_share_row
from games.models import Match, MatchStatus
from games.rules.errors import ConflictError
from games.services import match_create, match_results
from tournaments.formats.bracket_engine import (
    BracketState,
    MatchState,
    advance_result,
    derive_bracket_state,
)
from tournaments.formats.bracket_engine import MatchStatus as SlotStatus
from tournaments.formats.bracket_graph import BracketGraph, LoserOf, WinnerOf
from tournaments.formats.bracket_graph import Stage as GraphStage
from tournaments.formats.clock_plan import round_clock_policy
from tournaments.formats.schedule import match_length
from tournaments.models import (
    Entry,
    EntryStatus,
    Pairing,
    PairingStatus,
    Round,
    RoundStatus,
    Stage,
    StageKind,
    Tournament,
)
from tournaments.selectors_graph import bracket_graph

from .calls import call_late_matches
from .common import system_actor, system_creator_id
from .tables import assign_tables

BRACKET_STAGES = (
    StageKind.MAIN,
    StageKind.CONSOLATION,
    StageKind.LAST_CHANCE,
    StageKind.WINNERS,
    StageKind.LOSERS,
    StageKind.GRAND_FINAL,
    StageKind.PLAYOFF,
)

#: The audit trail's reason for a match the bracket voids and replaces: stored in English,
#: as every history reason, and marked for the catalog (``gettext_noop``: the English is
#: what is stored) so the trail tells it in the reader's language.
REPLACED_BECAUSE = gettext_noop("the players of its bracket slot changed (a new match replaces it)")

_STATUS = {
    SlotStatus.WAITING: PairingStatus.WAITING,
    SlotStatus.READY: PairingStatus.READY,
    SlotStatus.PLAYED: PairingStatus.PLAYED,
    SlotStatus.WALKOVER: PairingStatus.BYE,
    SlotStatus.EMPTY: PairingStatus.EMPTY,
    SlotStatus.NOT_NEEDED: PairingStatus.NOT_NEEDED,
}


def stage_kind(tournament: Tournament, stage: GraphStage) -> str:
    if not tournament.is_elimination and stage == GraphStage.MAIN:  # a playoff after rounds
        return StageKind.PLAYOFF
    return StageKind(stage.value)


def draw_bracket(tournament: Tournament, order: Sequence[int], *, first_stage: int = 0) -> None:
    """Create the stages, rounds and every pairing slot of the bracket, then fill it.

    ``order`` is the entry ids in seed order. Called inside the caller's transaction,
    with the tournament locked.
    """
    tournament.bracket_order = list(order)
    tournament.drawn_last_chance_from = []  # worked out afresh for this draw
    graph = bracket_graph(tournament)
    tournament.drawn_last_chance_from = [
        r for feed in graph.feeds if feed.stage == GraphStage.LAST_CHANCE for r in feed.rounds
    ]
    tournament.save(update_fields=["bracket_order", "drawn_last_chance_from"])
    rounds: dict[tuple[GraphStage, int], Round] = {}
    for index, graph_stage in enumerate(graph.stages):
        kind = stage_kind(tournament, graph_stage)
        stage = Stage.objects.create(tournament=tournament, kind=kind, order=first_stage + index)
        stage_rounds = graph.rounds(graph_stage)
        for number in range(1, len(stage_rounds) + 1):
            rounds[(graph_stage, number)] = Round.objects.create(
                stage=stage,
                number=number,
                match_length=match_length(
                    tournament.match_lengths, kind, number, len(stage_rounds)
                ),
                clock_policy=round_clock_policy(
                    tournament.clock_rounds, kind, number, len(stage_rounds)
                ),
            )
    pairings = []
    for match in graph.matches:
        winner_to = graph.winner_destination(match.key)
        loser_to = graph.loser_destination(match.key)
        pairings.append(
            Pairing(
                tournament=tournament,
                round=rounds[(match.stage, match.round)],
                key=match.key,
                slot=match.slot,
                winner_to=winner_to.match if winner_to else "",
                loser_to=loser_to.match if loser_to else "",
            )
        )
    Pairing.objects.bulk_create(pairings, batch_size=500)
    sync_bracket(tournament)


def bracket_pairings(tournament: Tournament) -> dict[str, Pairing]:
    return {
        p.key: p
        for p in Pairing.objects.filter(
            tournament=tournament, round__stage__kind__in=BRACKET_STAGES
        ).select_related("match", "round", "round__stage")
    }


def forfeited_out(tournament: Tournament, pairings: Iterable[Pairing]) -> set[int]:
    """The entries out of the event for losing a main-draw match by forfeit (a no-show).

    Directors expect a player who did not turn up to be out: unless the event says
    otherwise (``forfeit_feeds_consolation``), the loser of a forfeited main match does
    not drop into the consolation or last chance; the slot they would reach is a
    walkover for the other player, as for a withdrawn player. The pairings need their
    ``match`` and ``round.stage`` loaded.
    """
    if tournament.forfeit_feeds_consolation:
        return set()
    out: set[int] = set()
    for p in pairings:
        if (
            p.forfeit
            and p.match is not None
            and p.match.status == MatchStatus.FORFEIT
            and p.round.stage.kind == StageKind.MAIN
            and p.winner_id is not None
        ):
            loser = p.entry2_id if p.winner_id == p.entry1_id else p.entry1_id
            if loser is not None:
                out.add(loser)
    return out


def forfeited_out_q(tournament: Tournament) -> Exists | None:
    """Whether an ``Entry`` is one :func:`forfeited_out` names, as a subquery (it rides
    in the fast path's one entries query); None when the event feeds them on."""
    if tournament.forfeit_feeds_consolation:
        return None
    lost = Pairing.objects.filter(
        tournament=tournament,
        forfeit=True,
        match__status=MatchStatus.FORFEIT,
        round__stage__kind=StageKind.MAIN,
    ).filter(Q(entry1_id=OuterRef("pk")) | Q(entry2_id=OuterRef("pk")))
    return Exists(lost.exclude(winner_id=OuterRef("pk")))


def _match_players(pairing: Pairing) -> frozenset[int] | None:
    """The two players of the pairing's live match (None without one, or if void)."""
    match = pairing.match
    if match is None or match.status == MatchStatus.VOID:
        return None
    return frozenset((match.player1_id, match.player2_id))


def derive_state(
    tournament: Tournament,
    pairings: dict[str, Pairing],
    entries: dict[int, Entry],
    graph: BracketGraph | None = None,
) -> tuple[BracketState[int], dict[str, str], dict[str, int]]:
    """The bracket as the recorded results make it: (state, stale reasons, walkovers).

    A recorded winner counts only while the slot still holds the two players who
    played the match; a slot that becomes ready with a withdrawn player is a walkover
    (a forfeit without a match) for the other. Both can change who reaches later slots,
    so the derivation repeats until nothing changes.

    The order matters (issue 41): walkovers are stored without a match, so a pass
    starts without them and adds them one slot at a time. A slot is compared with its
    live match only once the walkovers are settled: in an intermediate pass a slot
    after a walkover is still waiting for its walkover winner, and comparing it then
    flagged a match whose players had not changed (an unstarted one was voided and
    replaced, a played one lost its result). Only the comparison of a settled pass
    drops a recorded winner; the dropped ones only grow, so the loop ends.
    """
    graph = graph or bracket_graph(tournament)
    order = tournament.bracket_order
    # results of matches (finished or forfeited); walkovers without a match are derived
    recorded = {
        key: p.winner_id
        for key, p in pairings.items()
        if p.winner_id is not None and p.match_id is not None
    }
    no_shows = forfeited_out(tournament, pairings.values())
    live = {key: _match_players(p) for key, p in pairings.items()}
    dropped: set[str] = set()
    for _ in range(len(graph.matches) + 1):
        winners = {k: w for k, w in recorded.items() if k not in dropped}
        state, walkovers = _settle_walkovers(graph, order, winners, entries, live, no_shows)
        stale: dict[str, str] = {}
        for key, slot in state.matches.items():
            players = _slot_players(slot, entries)
            if live[key] is not None and live[key] != players:
                stale[key] = "The players of this slot changed after a correction."
        newly = {k for k in stale if k in winners and k not in walkovers}
        if not newly:
            break
        dropped |= newly
    for key in dropped:  # a result no longer counted is always flagged for the director
        stale.setdefault(key, "The players of this slot changed after a correction.")
    for key in state.stale:
        stale.setdefault(key, "The recorded winner is no longer in this match.")
    return state, stale, walkovers


def _slot_players(slot: MatchState[int], entries: dict[int, Entry]) -> frozenset[int] | None:
    """The two players (person ids) a slot holds once it is a match, else None."""
    if not slot.is_match:
        return None
    return frozenset(
        (entries[slot.player_a].player_id, entries[slot.player_b].player_id)  # type: ignore[index]
    )


def _settle_walkovers(
    graph: BracketGraph,
    order: Sequence[int],
    winners: dict[str, int],
    entries: dict[int, Entry],
    live: dict[str, frozenset[int] | None],
    no_shows: set[int],
) -> tuple[BracketState[int], dict[str, int]]:
    """The state with every walkover in (a ready slot without a match, with a withdrawn
    or no-show player): each can make a later slot ready, so repeat until none is new."""
    winners = dict(winners)
    walkovers: dict[str, int] = {}
    for _ in range(len(graph.matches) + 1):
        state = derive_bracket_state(graph, order, winners)
        changed = False
        for key, slot in state.matches.items():
            if slot.status != SlotStatus.READY or key in winners or live[key] is not None:
                continue
            a, b = entries[slot.player_a], entries[slot.player_b]  # type: ignore[index]
            out_a = a.status == EntryStatus.WITHDRAWN or a.pk in no_shows
            out_b = b.status == EntryStatus.WITHDRAWN or b.pk in no_shows
            if out_a or out_b:
                winners[key] = b.pk if out_a and not out_b else a.pk
                walkovers[key] = winners[key]
                changed = True
        if not changed:
            break
    return state, walkovers


def sync_bracket(tournament: Tournament) -> dict[str, int]:
    """Re-derive the bracket and write what changed; create matches that became ready.

    Call with the tournament locked, inside a transaction. Returns counts for logs.
    """
    if not tournament.bracket_order:
        return {}
    pairings = bracket_pairings(tournament)
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)}
    state, stale, walkovers = derive_state(tournament, pairings, entries)
    actor = system_actor(tournament)
    created = changed_count = 0
    for key, slot in state.matches.items():
        pairing = pairings[key]
        before = (
            pairing.entry1_id,
            pairing.entry2_id,
            pairing.status,
            pairing.stale,
            pairing.winner_id,
            pairing.forfeit,
            pairing.match_id,
        )
        pairing.entry1_id = slot.player_a
        pairing.entry2_id = slot.player_b
        pairing.status = _STATUS[slot.status]
        pairing.stale = key in stale
        pairing.stale_reason = stale.get(key, "")
        if pairing.stale and pairing.match is not None and _unstarted(pairing.match):
            _replace_unstarted_match(pairing, actor)
        if key in walkovers:  # a withdrawn player's slot: the opponent goes through
            pairing.winner_id, pairing.forfeit = walkovers[key], True
        elif pairing.match_id is None:
            pairing.forfeit = False
            pairing.winner_id = (
                slot.winner if slot.status in (SlotStatus.WALKOVER, SlotStatus.NOT_NEEDED) else None
            )
        if slot.status == SlotStatus.READY and pairing.match_id is None and key not in walkovers:
            pairing.match = _create_match(
                tournament, pairing, entries, slot, actor.user.pk if actor.user else None
            )
            created += 1
        after = (
            pairing.entry1_id,
            pairing.entry2_id,
            pairing.status,
            pairing.stale,
            pairing.winner_id,
            pairing.forfeit,
            pairing.match_id,
        )
        if after != before:
            pairing.save()
            changed_count += 1
    if created:
        assign_tables(tournament)
        call_late_matches(tournament)  # a replacement in a called round is called now
    update_round_statuses(tournament)
    return {"created_matches": created, "changed_pairings": changed_count, "stale": len(stale)}


def _unstarted(match: Match) -> bool:
    return match.status == MatchStatus.SCHEDULED and match.score1 == 0 and match.score2 == 0


def _replace_unstarted_match(pairing: Pairing, actor) -> None:
    """Void a match nobody started whose players changed; the slot gets a new one.

    This runs holding the tournament's lock, against the one lock order (match before
    tournament), so the match is only *tried* (``SKIP LOCKED``): if someone is writing
    it right now (starting it), it is left alone and the slot stays flagged for the
    director, like a started match. Never waiting here is what keeps a result and a
    bracket change from deadlocking.
    """
    old = pairing.match
    assert old is not None
    current = try_lock_row(Match.objects.all(), old.pk)
    if current is None or not _unstarted(current):
        return
    pairing.replaced_matches = [*pairing.replaced_matches, old.pk]
    pairing.match = None
    pairing.winner_id = None
    pairing.save(update_fields=["match", "replaced_matches", "winner"])
    match_results.void_match(
        actor=actor,
        match_id=old.pk,
        reason=REPLACED_BECAUSE,
        automatic=True,
    )
    pairing.stale, pairing.stale_reason = False, ""


def _create_match(tournament, pairing, entries, slot, created_by_id: int | None) -> Match:
    a, b = entries[slot.player_a], entries[slot.player_b]
    return match_create.create_event_match(
        club_id=tournament.club_id,
        player1_id=a.player_id,
        player2_id=b.player_id,
        length=pairing.round.match_length,
        crawford=tournament.crawford,
        rated=tournament.rated,
        variant=tournament.variant,
        label=gettext("%(name)s: %(stage)s round %(number)s")
        % {"name": tournament.name, "stage": pairing.round.stage, "number": pairing.round.number},
        created_by_id=created_by_id,
    )


def update_round_statuses(tournament: Tournament, round_ids: Iterable[int] | None = None) -> int:
    """A round is complete when none of its pairings waits or is still to be played.

    ``round_ids``: only those rounds (the ones a result touched), else every round.
    Returns how many rounds became complete (their last result is in: the odds need
    not wait for more).
    """
    return _update_statuses_of(tournament, None if round_ids is None else set(round_ids))


_OPEN = (PairingStatus.WAITING, PairingStatus.READY)


def _update_statuses_of(tournament: Tournament, round_ids: set[int] | None) -> int:
    """The rounds' pairings counted by the database (one query, however many pairings
    the rounds of a 512-player event have), and the statuses that changed written."""
    rounds = Round.objects.filter(stage__tournament=tournament)
    if round_ids is not None:
        rounds = rounds.filter(pk__in=round_ids)
    counts = rounds.annotate(
        total=Count("pairings"),
        open=Count("pairings", filter=Q(pairings__status__in=_OPEN)),
        stale=Count("pairings", filter=Q(pairings__stale=True)),
        started=Count("pairings", filter=~Q(pairings__status=PairingStatus.WAITING)),
    ).only("pk", "status", "completed_at")
    now = timezone.now()
    completed = 0
    for round_ in counts:
        if round_.total and not round_.open and not round_.stale:
            status = RoundStatus.COMPLETE
        elif round_.started:
            status = RoundStatus.PLAYING
        else:
            status = RoundStatus.PENDING
        if status != round_.status:
            round_.status = status
            round_.completed_at = now if status == RoundStatus.COMPLETE else None
            round_.save(update_fields=["status", "completed_at"])
            completed += status == RoundStatus.COMPLETE
    return completed


def bracket_champion(tournament: Tournament) -> int | None:
    """The champion's entry id once the bracket is decided (None before)."""
    if not tournament.bracket_order:
        return None
    pairings = bracket_pairings(tournament)
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)}
    state, _, _ = derive_state(tournament, pairings, entries)
    return state.champion


# --- one result, the slots it touches ---------------------------------------------------------

_SLOT_STATUS = {value: key for key, value in _STATUS.items()}
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
        row.status = _STATUS[slot.status]
        row.winner_id = slot.winner if slot.status not in _SETTLED_WITHOUT_WINNER else None
        row.forfeit = forfeit if key == pairing.key else False
        if slot.status == SlotStatus.READY and row.match_id is None:
            creator = creator or [system_creator_id(tournament)]
            row.match = _create_match(tournament, row, entries, slot, creator[0])
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
