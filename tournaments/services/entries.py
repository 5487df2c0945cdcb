"""Entries: register (and late entry), seed, withdraw; and starting the event."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.actors import Actor
from core.errors import N_
from core.locking import lock_rows
from games.models import Match, MatchStatus, Player
from games.rules.errors import ConflictError, RuleViolation
from games.services import match_results, tenancy
from tournaments.formats.bracket_engine import derive_bracket_state
from tournaments.formats.seeding import seed_by_random_draw, seed_by_rating, seed_manually
from tournaments.models import (
    Entry,
    EntryStatus,
    Pairing,
    PairingStatus,
    SeedingMethod,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import ratings_for_seeding

from .brackets import bracket_graph, bracket_pairings, draw_bracket, sync_bracket
from .check_in import move_waitlist_up, no_shows_left, place_for_new_entry
from .common import bump, check_version, lock_tournament, require_director, require_status
from .odds import request_odds

MIN_ENTRIES = 2


@transaction.atomic
def register_entry(*, actor: Actor, tournament_id: int, player_id: int) -> Entry:
    """Enter a member of the event's club.

    Nobody joins a club by being named: a player of another club only is refused (403
    ``player_not_in_club``, nothing written) until they join the club themself,
    signed in (``games.services.tenancy``; docs/reliability.md, "Tenancy").

    Before the start anyone may be entered. Once running: a Swiss takes late entries
    into its next round; an elimination bracket only if the entry can fill a bye
    nobody has played past yet; a round robin takes none.
    """
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise RuleViolation(
            "player_not_found",
            N_("There is no player %(player_id)s.", player_id=player_id),
            "player",
        )
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise ConflictError(
            "already_entered", N_("%(player)s is already entered.", player=player), "player"
        )
    require_status(
        tournament,
        TournamentStatus.DRAFT,
        TournamentStatus.REGISTRATION,
        TournamentStatus.RUNNING,
        doing="register a player",
    )
    tenancy.require_member(club=tournament.club, player=player)
    late = tournament.status == TournamentStatus.RUNNING
    if late and not tournament.format_spec.late_entries:
        raise ConflictError(
            "late_entry_closed", N_("A round robin takes no late entries."), "player"
        )
    seed = Entry.objects.filter(tournament=tournament).count() + 1 if late else None
    status, position = place_for_new_entry(tournament)  # a full capped field: the waitlist
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        late=late,
        seed=seed,
        status=status,
        waitlist_position=position,
    )
    if late and tournament.is_elimination:
        _fill_bye(tournament, entry)
    bump(tournament)
    return entry


def _fill_bye(tournament: Tournament, entry: Entry) -> None:
    """Put a late entry at the next seed of the bracket, which meets a bye's holder.

    Allowed only while that changes nothing already played or started: the bracket
    is re-derived with one more entry and every slot that has a match must keep its
    players.
    """
    order = [*tournament.bracket_order, entry.pk]
    graph = bracket_graph(tournament, len(order))
    if graph.size != bracket_graph(tournament).size:
        raise ConflictError(
            "no_bye_to_fill", N_("The bracket is full: there is no bye for a late entry."), "player"
        )
    pairings = bracket_pairings(tournament)
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)}
    winners = {k: p.winner_id for k, p in pairings.items() if p.winner_id and p.match_id}
    state = derive_bracket_state(graph, order, winners)
    for key, slot in state.matches.items():
        pairing = pairings[key]
        match = pairing.match
        if match is None or match.status == MatchStatus.VOID:
            continue
        if (
            not slot.is_match
            or slot.player_a is None  # never for a match: narrows the type
            or slot.player_b is None
            or {entries[slot.player_a].player_id, entries[slot.player_b].player_id}
            != {match.player1_id, match.player2_id}
        ):
            raise ConflictError(
                "late_entry_too_late",
                N_("The bye this entry would fill has been played past: too late to enter."),
                "player",
            )
    tournament.bracket_order = order
    tournament.save(update_fields=["bracket_order"])
    sync_bracket(tournament)


@transaction.atomic
def seed_entries(
    *,
    actor: Actor,
    tournament_id: int,
    method: str | None = None,
    order: list[int] | None = None,
    random_seed: int | None = None,
) -> list[Entry]:
    """Seed the active entries by rating, by the director's order, or by a random draw."""
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    require_status(
        tournament, TournamentStatus.DRAFT, TournamentStatus.REGISTRATION, doing="seed entries"
    )
    method = method or tournament.seeding
    if method not in SeedingMethod.values:
        raise RuleViolation(
            "seeding_unknown",
            N_("Seeding is one of %(join)s.", join=", ".join(SeedingMethod.values)),
            "method",
        )
    if random_seed is not None:
        tournament.random_seed = random_seed
    tournament.seeding = method
    entries = _apply_seeding(tournament, order)
    bump(tournament)
    return entries


def _apply_seeding(tournament: Tournament, order: list[int] | None = None) -> list[Entry]:
    active = list(
        Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE).select_related(
            "player"
        )
    )
    by_id = {e.pk: e for e in active}
    if tournament.seeding == SeedingMethod.MANUAL:
        if order is None:  # keep the director's earlier seeds, newcomers after them
            order = [e.pk for e in sorted(active, key=lambda e: (e.seed or 10**6, e.pk))]
        if sorted(order) != sorted(by_id):
            raise RuleViolation(
                "seeding_order_mismatch",
                N_("A manual order lists every active entry exactly once."),
                "order",
            )
        ids = seed_manually(order)
    elif tournament.seeding == SeedingMethod.RANDOM:
        ids = seed_by_random_draw(list(by_id), tournament.random_seed)
    else:
        ratings = ratings_for_seeding(tournament.club, [e.player for e in active])
        ids = seed_by_rating([(e.pk, ratings[e.player_id]) for e in active])
    Entry.objects.filter(tournament=tournament).update(seed=None)
    for seed, entry_id in enumerate(ids, start=1):
        by_id[entry_id].seed = seed
    Entry.objects.bulk_update(by_id.values(), ["seed"])
    return [by_id[i] for i in ids]


@transaction.atomic
def start_tournament(
    *, actor: Actor, tournament_id: int, expected_version: int | None = None
) -> Tournament:
    """Seed (unless seeded by hand), then draw the bracket or pair round 1."""
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    check_version(tournament, expected_version)
    require_status(tournament, TournamentStatus.DRAFT, TournamentStatus.REGISTRATION, doing="start")
    if no_shows_left(tournament):
        raise ConflictError(
            "no_shows_not_dropped",
            "Some players have not checked in: check them in or drop the no-shows first.",
            "entries",
        )
    active = Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE).count()
    if active < MIN_ENTRIES:
        raise ConflictError(
            "too_few_entries", N_("An event needs at least two entries."), "entries"
        )
    seeded = _apply_seeding(tournament)
    order = [e.pk for e in seeded]
    tournament.status = TournamentStatus.RUNNING
    tournament.save(update_fields=["status"])
    if tournament.is_elimination:
        draw_bracket(tournament, order)
    else:
        from .rounds import ROUND_ENGINES

        ROUND_ENGINES[str(tournament.format_spec.rounds)].start(tournament, order)
    bump(tournament)
    if not tournament.is_elimination:
        from .rounds import pair_next_round

        pair_next_round(actor=actor, tournament_id=tournament.pk, round_number=1)
        tournament.refresh_from_db()
    request_odds(tournament_id=tournament.pk)
    return tournament


def withdraw_entry(*, actor: Actor, tournament_id: int, entry_id: int) -> Entry:
    """Withdraw a player: open matches are forfeited to the opponents, later slots become
    walkovers, and a Swiss stops pairing them. One transaction.

    The open matches are forfeited first (locking each match, then the tournament, the
    same order as a score entry takes; all of them before the first, in primary-key
    order) so a withdrawal and a result never deadlock.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
        require_director(actor, tournament)
        entry = (
            Entry.objects.filter(tournament=tournament, pk=entry_id)
            .select_related("player")
            .first()
        )
        if entry is None:
            raise RuleViolation(
                "entry_not_found",
                N_("There is no entry %(entry_id)s here.", entry_id=entry_id),
                "entry",
            )
        if entry.status == EntryStatus.WITHDRAWN:
            raise ConflictError(
                "already_withdrawn", N_("%(player)s has already withdrawn.", player=entry.player)
            )
        if tournament.status == TournamentStatus.FINISHED:
            raise ConflictError("tournament_status", N_("The event is finished."))
        open_pairings = (
            Pairing.objects.filter(
                tournament=tournament, status=PairingStatus.READY, match__isnull=False
            )
            .filter(models_q_entry(entry_id))
            .select_related("match", "entry1", "entry2")
        )
        # every open match first, in primary-key order: the tournament lock the first
        # forfeit's bracket listener takes is then never held while waiting for a match
        lock_rows(Match.objects.all(), open_pairings.values_list("match_id", flat=True))
        for pairing in open_pairings:
            match = pairing.match
            assert match is not None  # match__isnull=False
            if match.status in (MatchStatus.FINISHED, MatchStatus.FORFEIT, MatchStatus.VOID):
                continue
            opponent = pairing.entry2 if pairing.entry1_id == entry_id else pairing.entry1
            assert opponent is not None  # a READY pairing with a match has two entries
            match_results.forfeit_match(
                actor=actor, match_id=match.pk, winner_id=opponent.player_id
            )
        tournament = lock_tournament(tournament_id)
        entry.status = EntryStatus.WITHDRAWN
        entry.withdrawn_at = timezone.now()
        entry.waitlist_position = None
        entry.save()
        move_waitlist_up(tournament)  # before the draw, a freed place goes to the waitlist
        if tournament.status == TournamentStatus.RUNNING and tournament.bracket_order:
            sync_bracket(tournament)
        bump(tournament)
        request_odds(tournament_id=tournament.pk)
        return entry


def models_q_entry(entry_id: int):
    from django.db.models import Q

    return Q(entry1_id=entry_id) | Q(entry2_id=entry_id)
