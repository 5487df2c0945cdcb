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

from collections.abc import Sequence
from functools import lru_cache

from django.utils import timezone
from django.utils.translation import gettext

from core.locking import try_lock_row
from games.models import Match, MatchStatus
from games.services import match_create, match_results
from tournaments.formats.bracket_engine import BracketState, derive_bracket_state
from tournaments.formats.bracket_engine import MatchStatus as SlotStatus
from tournaments.formats.bracket_graph import BracketGraph
from tournaments.formats.bracket_graph import Stage as GraphStage
from tournaments.formats.double_elimination import build_double_elimination
from tournaments.formats.elimination import (
    DEFAULT_FEED_ORDERS,
    FeedOrder,
    build_single_elimination,
)
from tournaments.formats.round_robin import build_playoff
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
    TournamentFormat,
)

from .common import system_actor
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

_STATUS = {
    SlotStatus.WAITING: PairingStatus.WAITING,
    SlotStatus.READY: PairingStatus.READY,
    SlotStatus.PLAYED: PairingStatus.PLAYED,
    SlotStatus.WALKOVER: PairingStatus.BYE,
    SlotStatus.EMPTY: PairingStatus.EMPTY,
    SlotStatus.NOT_NEEDED: PairingStatus.NOT_NEEDED,
}


@lru_cache(maxsize=64)
def _cached_graph(
    fmt: str,
    entries: int,
    consolation_from: tuple[int, ...],
    last_chance_from: tuple[int, ...],
    reset: bool,
    feed_orders: tuple[str, ...],
    last_chance_drawn: tuple[int, ...] = (),
) -> BracketGraph:
    orders = tuple(FeedOrder(o) for o in feed_orders) or DEFAULT_FEED_ORDERS
    if fmt == TournamentFormat.SINGLE_ELIMINATION:
        return build_single_elimination(
            entries,
            consolation_from=consolation_from,
            last_chance_from=last_chance_from,
            feed_orders=orders,
            last_chance_drawn=last_chance_drawn,
        )
    if fmt == TournamentFormat.DOUBLE_ELIMINATION:
        return build_double_elimination(entries, reset=reset, feed_orders=orders)
    return build_playoff(entries)


def bracket_graph(tournament: Tournament, entries: int | None = None) -> BracketGraph:
    """The pure graph of the tournament's bracket (the playoff for a round robin).

    Once drawn, a bracket keeps the last-chance wiring it was drawn with
    (``drawn_last_chance_from``), so its stored slots always match the graph.
    """
    return _cached_graph(
        tournament.format,
        entries if entries is not None else len(tournament.bracket_order),
        tuple(tournament.consolation_from or ()),
        tuple(tournament.last_chance_from or ()),
        tournament.grand_final_reset,
        tuple(tournament.feed_orders or ()),
        tuple(tournament.drawn_last_chance_from or ()),
    )


def stage_kind(tournament: Tournament, stage: GraphStage) -> str:
    if tournament.format == TournamentFormat.ROUND_ROBIN and stage == GraphStage.MAIN:
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
    so the derivation repeats until nothing changes (each pass settles at least one
    slot, in practice one or two passes).
    """
    graph = graph or bracket_graph(tournament)
    order = tournament.bracket_order
    # results of matches (finished or forfeited); walkovers without a match are derived
    winners = {
        key: p.winner_id
        for key, p in pairings.items()
        if p.winner_id is not None and p.match_id is not None
    }
    stale: dict[str, str] = {}
    walkovers: dict[str, int] = {}
    for _ in range(len(graph.matches) + 1):
        state = derive_bracket_state(graph, order, winners)
        changed = False
        for key, slot in state.matches.items():
            pairing = pairings[key]
            live = _match_players(pairing)
            if slot.is_match:
                players = frozenset(
                    (entries[slot.player_a].player_id, entries[slot.player_b].player_id)  # type: ignore[index]
                )
            else:
                players = None
            if live is not None and live != players and key not in stale:
                stale[key] = "The players of this slot changed after a correction."
                if key in winners:
                    del winners[key]
                    changed = True
            if slot.status == SlotStatus.READY and key not in winners and live is None:
                a, b = entries[slot.player_a], entries[slot.player_b]  # type: ignore[index]
                out_a = a.status == EntryStatus.WITHDRAWN
                out_b = b.status == EntryStatus.WITHDRAWN
                if out_a or out_b:
                    winners[key] = b.pk if out_a and not out_b else a.pk
                    walkovers[key] = winners[key]
                    changed = True
        if not changed:
            break
    for key in state.stale:
        stale.setdefault(key, "The recorded winner is no longer in this match.")
    return state, stale, walkovers


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
            pairing.match = _create_match(tournament, pairing, entries, slot, actor)
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
    match_results.void_match(actor=actor, match_id=old.pk)
    pairing.stale, pairing.stale_reason = False, ""


def _create_match(tournament, pairing, entries, slot, actor) -> Match:
    a, b = entries[slot.player_a], entries[slot.player_b]
    return match_create.create_match(
        actor=actor,
        club=tournament.club,
        player1=a.player,
        player2=b.player,
        length=pairing.round.match_length,
        crawford=tournament.crawford,
        rated=tournament.rated,
        label=gettext("%(name)s: %(stage)s round %(number)s")
        % {"name": tournament.name, "stage": pairing.round.stage, "number": pairing.round.number},
    )


def update_round_statuses(tournament: Tournament) -> None:
    """A round is complete when none of its pairings waits or is still to be played."""
    rounds = Round.objects.filter(stage__tournament=tournament).prefetch_related("pairings")
    now = timezone.now()
    for round_ in rounds:
        statuses = [p.status for p in round_.pairings.all()]
        open_ = any(s in (PairingStatus.WAITING, PairingStatus.READY) for s in statuses)
        stale = any(p.stale for p in round_.pairings.all())
        if statuses and not open_ and not stale:
            status = RoundStatus.COMPLETE
        elif any(s != PairingStatus.WAITING for s in statuses):
            status = RoundStatus.PLAYING
        else:
            status = RoundStatus.PENDING
        if status != round_.status:
            round_.status = status
            round_.completed_at = now if status == RoundStatus.COMPLETE else None
            round_.save(update_fields=["status", "completed_at"])


def bracket_champion(tournament: Tournament) -> int | None:
    """The champion's entry id once the bracket is decided (None before)."""
    if not tournament.bracket_order:
        return None
    pairings = bracket_pairings(tournament)
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)}
    state, _, _ = derive_state(tournament, pairings, entries)
    return state.champion
