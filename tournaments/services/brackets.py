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
from django.utils.translation import gettext_noop

from core.locking import try_lock_row
from games.models import Match, MatchStatus
from games.services import match_create, match_results
from tournaments.formats.bracket_engine import (
    BracketState,
    MatchState,
    derive_bracket_state,
)
from tournaments.formats.bracket_engine import MatchStatus as SlotStatus
from tournaments.formats.bracket_graph import BracketGraph
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
from .common import stored_match_label, system_actor
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

SLOT_TO_PAIRING = {
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
        pairing.status = SLOT_TO_PAIRING[slot.status]
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
            pairing.match = create_slot_match(
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


def create_slot_match(tournament, pairing, entries, slot, created_by_id: int | None) -> Match:
    a, b = entries[slot.player_a], entries[slot.player_b]
    return match_create.create_event_match(
        club_id=tournament.club_id,
        player1_id=a.player_id,
        player2_id=b.player_id,
        length=pairing.round.match_length,
        crawford=tournament.crawford,
        rated=tournament.rated,
        variant=tournament.variant,
        label=stored_match_label(tournament, pairing.round),
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
