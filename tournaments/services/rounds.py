"""Swiss and round-robin rounds: pair the next round, swap a pairing by hand.

Following Tabbycat's split (``draw/manager.py`` over ``draw/generator``): this module
reads the records from the database, hands plain :class:`SwissPlayer` records to the
pure pairer, and writes the round's rows and matches in one transaction. Pairing is
idempotent: asking for round 4 when round 4 exists returns it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction

from core.actors import Actor
from core.errors import N_
from games.models import MatchStatus
from games.rules.errors import ConflictError, RuleViolation
from games.services import match_create, match_results
from tournaments.formats.clock_plan import round_clock_policy
from tournaments.formats.round_robin import berger_rounds, playoff_seeding, snake_groups
from tournaments.formats.schedule import match_length
from tournaments.formats.swiss import SwissPlayer
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
    TournamentStatus,
)
from tournaments.selectors import pairing_rows, results_from_pairings, standings

from .brackets import BRACKET_STAGES, draw_bracket, sync_bracket, update_round_statuses
from .common import (
    bump,
    lock_tournament,
    lock_unstarted_matches_then_tournament,
    require_director,
    require_locked,
    require_status,
    stored_match_label,
    system_actor,
)
from .tables import assign_tables

Progress = Callable[[int, int, str], None]


@dataclass
class RoundOutcome:
    """What pairing a round produced (for the job's result and the API)."""

    round: int
    pairings: int
    byes: int
    created: bool
    penalty: int | None = None
    rematches: int = 0
    warnings: list[str] = field(default_factory=list)


def _rounds(tournament: Tournament, kind: str) -> list[Round]:
    return list(
        Round.objects.filter(stage__tournament=tournament, stage__kind=kind).order_by("number")
    )


def _decided(tournament: Tournament) -> bool:
    """True when no pairing of the event waits for a result or a director's review."""
    return (
        not tournament.pairings.filter(
            status__in=[PairingStatus.READY, PairingStatus.WAITING]
        ).exists()
        and not tournament.pairings.filter(stale=True).exists()
    )


def swiss_records(tournament: Tournament) -> list[SwissPlayer[int]]:
    """Every active entry's record, in standings order (the pairer's ranking)."""
    table = standings(tournament)
    pairings = pairing_rows(tournament)
    opponents: dict[int, set[int]] = {s.entry.pk: set() for s in table}
    losses = dict.fromkeys(opponents, 0)
    byes = dict.fromkeys(opponents, 0)
    wins = dict.fromkeys(opponents, 0)
    for result in results_from_pairings(pairings):
        if result.bye:
            byes[result.player_a] += 1
            wins[result.player_a] += 1  # a bye counts as a match win for pairing
            continue
        loser = result.player_b if result.winner == result.player_a else result.player_a
        wins[result.winner] += 1
        losses[loser] += 1  # type: ignore[index]
        opponents[result.player_a].add(result.player_b)  # type: ignore[arg-type]
        opponents[result.player_b].add(result.player_a)  # type: ignore[index]
    return [
        SwissPlayer(
            s.entry.pk,
            wins[s.entry.pk],
            losses[s.entry.pk],
            frozenset(opponents[s.entry.pk]),
            byes[s.entry.pk],
        )
        for s in table
        if s.entry.status == EntryStatus.ACTIVE
    ]


def _swiss_finished(tournament: Tournament, played: int, records: list[SwissPlayer[int]]) -> bool:
    finished = tournament.format_spec.finished
    assert finished is not None  # a Swiss-engine format declares when it is over
    return finished(played, records, tournament.format_options())


def _more_swiss_rounds(tournament: Tournament) -> bool:
    played = len(_rounds(tournament, StageKind.SWISS))
    if not _swiss_finished(tournament, played, swiss_records(tournament)):
        return True
    return _playoff_due(tournament)


def _playoff_due(tournament: Tournament) -> bool:
    """A playoff follows the rounds and is not drawn yet."""
    if tournament.format_spec.graph is None or not tournament.playoff_qualifiers:
        return False
    return not _playoff_drawn(tournament)


def _playoff_drawn(tournament: Tournament) -> bool:
    return Stage.objects.filter(tournament=tournament, kind=StageKind.PLAYOFF).exists()


def _more_round_robin_rounds(tournament: Tournament) -> bool:
    played = len(_rounds(tournament, StageKind.ROUND_ROBIN_GROUP))
    groups = round_robin_groups(tournament)
    total = max(len(berger_rounds(g)) for g in groups)
    if played < total:
        return True
    return _playoff_due(tournament)


def more_rounds_due(tournament: Tournament) -> bool:
    engine = ROUND_ENGINES.get(tournament.format_spec.rounds or "")
    return engine is not None and engine.more_due(tournament)


def round_robin_groups(tournament: Tournament) -> list[list[int]]:
    """The groups, snake-seeded from the order drawn at the start."""
    seeded = list(
        Entry.objects.filter(tournament=tournament, seed__isnull=False)
        .order_by("seed")
        .values_list("pk", flat=True)
    )
    return snake_groups(seeded, _group_count(tournament, len(seeded)))


def _group_count(tournament: Tournament, entries: int) -> int:
    """The number of groups the event's format splits ``entries`` into."""
    return tournament.format_spec.group_count(entries, tournament.format_options())


def _create_pair(tournament, round_, key, slot, a: Entry, b: Entry | None, actor) -> Pairing:
    """A pairing row with its match; a bye, or a walkover when a side has withdrawn."""
    pairing = Pairing(tournament=tournament, round=round_, key=key, slot=slot, entry1=a, entry2=b)
    if b is None:
        pairing.status, pairing.winner = PairingStatus.BYE, a
    elif a.status == EntryStatus.WITHDRAWN or b.status == EntryStatus.WITHDRAWN:
        pairing.status, pairing.forfeit = PairingStatus.PLAYED, True
        pairing.winner = b if a.status == EntryStatus.WITHDRAWN else a
    else:
        pairing.status = PairingStatus.READY
        pairing.match = match_create.create_match(
            actor=actor,
            club=tournament.club,
            player1=a.player,
            player2=b.player,
            length=round_.match_length,
            crawford=tournament.crawford,
            rated=tournament.rated,
            variant=tournament.variant,
            label=stored_match_label(tournament, round_),
        )
    pairing.save()
    return pairing


def pair_next_round(
    *,
    actor: Actor,
    tournament_id: int,
    round_number: int | None = None,
    progress: Progress | None = None,
) -> RoundOutcome:
    """Pair round ``round_number`` (default: the next) of a Swiss or round robin.

    Idempotent: if that round exists it is returned unchanged. The previous round must
    be complete. One transaction, with the tournament row locked, so two requests for
    the same round give one round.
    """
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        require_director(actor, tournament)
        require_status(tournament, TournamentStatus.RUNNING, doing="pair a round")
        engine = ROUND_ENGINES.get(tournament.format_spec.rounds or "")
        if engine is not None:
            outcome = engine.pair(tournament, round_number, progress)
        else:
            raise ConflictError(
                "not_paired_by_rounds",
                N_(
                    "Elimination brackets advance by themselves; only Swiss and round "
                    "robin rounds are paired."
                ),
            )
        if outcome.created:
            assign_tables(tournament)
            update_round_statuses(tournament)
            bump(tournament)
        return outcome


def _check_round_number(existing: int, round_number: int | None) -> int | None:
    """The number to create, or None when the asked round exists already."""
    if round_number is None:
        return existing + 1
    if round_number <= existing:
        return None
    if round_number > existing + 1:
        raise RuleViolation(
            "round_out_of_order",
            N_(
                "Round %(value)s comes next, not round %(round_number)s.",
                value=existing + 1,
                round_number=round_number,
            ),
            "round",
        )
    return round_number


def _existing(tournament: Tournament, kind: str, number: int) -> RoundOutcome:
    pairings = list(
        Pairing.objects.filter(
            round__stage__tournament=tournament, round__stage__kind=kind, round__number=number
        )
    )
    return RoundOutcome(
        round=number,
        pairings=len(pairings),
        byes=sum(1 for p in pairings if p.status == PairingStatus.BYE),
        created=False,
    )


def _pair_swiss(tournament: Tournament, round_number: int | None, progress) -> RoundOutcome:
    stage = Stage.objects.get(tournament=tournament, kind=StageKind.SWISS)
    existing = len(_rounds(tournament, StageKind.SWISS))
    number = _check_round_number(existing, round_number)
    if number is None:
        return _existing(tournament, StageKind.SWISS, round_number)  # type: ignore[arg-type]
    field = tournament.format_spec.playoff_field
    if field is not None and _playoff_drawn(tournament):
        return _start_playoff(tournament, round_number, existing, list, first_stage=1)
    if existing and not _decided(tournament):
        raise ConflictError(
            "round_not_complete",
            N_("Round %(existing)s is not complete yet.", existing=existing),
            "round",
        )
    records = swiss_records(tournament)
    if existing and _swiss_finished(tournament, existing, records):
        if field is not None:  # the rounds end in a playoff among the best
            options = tournament.format_options()
            return _start_playoff(
                tournament, round_number, existing, lambda: field(records, options), first_stage=1
            )
        raise ConflictError("no_more_rounds", N_("The Swiss is over: finish the event."))
    if progress:
        progress(0, 2, f"pairing {len(records)} players")
    pair = tournament.format_spec.pair
    assert pair is not None  # a Swiss-engine format declares its pairer
    result = pair(records, tournament.format_options())
    if progress:
        progress(1, 2, "creating matches")
    round_ = Round.objects.create(
        stage=stage,
        number=number,
        match_length=match_length(
            tournament.match_lengths, StageKind.SWISS, number, tournament.swiss_rounds
        ),
        clock_policy=round_clock_policy(
            tournament.clock_rounds, StageKind.SWISS, number, tournament.swiss_rounds
        ),
        status=RoundStatus.PLAYING,
    )
    entries = {
        e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("player")
    }
    actor = system_actor(tournament)
    for board, (a, b) in enumerate(result.pairs):
        _create_pair(
            tournament,
            round_,
            f"swiss-r{number}-b{board + 1}",
            board,
            entries[a],
            entries[b],
            actor,
        )
    if result.bye is not None:
        slot = len(result.pairs)
        _create_pair(
            tournament, round_, f"swiss-r{number}-bye", slot, entries[result.bye], None, actor
        )
    if progress:
        progress(2, 2, f"round {number} paired")
    return RoundOutcome(
        round=number,
        pairings=len(result.pairs),
        byes=int(result.bye is not None),
        created=True,
        penalty=result.penalty,
        rematches=result.breakdown.rematches,
    )


def _pair_round_robin(tournament: Tournament, round_number: int | None) -> RoundOutcome:
    groups = round_robin_groups(tournament)
    schedules = [berger_rounds(g) for g in groups]
    total = max(len(s) for s in schedules)
    existing = max((r.number for r in _rounds(tournament, StageKind.ROUND_ROBIN_GROUP)), default=0)
    if existing >= total and tournament.playoff_qualifiers:
        groups_count = len(groups)
        return _start_playoff(
            tournament,
            round_number,
            total,
            lambda: _group_playoff_seeding(tournament),
            first_stage=groups_count + 1,
        )
    number = _check_round_number(existing, round_number)
    if number is None:
        return _existing(tournament, StageKind.ROUND_ROBIN_GROUP, round_number)  # type: ignore[arg-type]
    if existing and not _decided(tournament):
        raise ConflictError(
            "round_not_complete",
            N_("Round %(existing)s is not complete yet.", existing=existing),
            "round",
        )
    if number > total:
        raise ConflictError("no_more_rounds", N_("Every group has played all its rounds."))
    entries = {
        e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("player")
    }
    actor = system_actor(tournament)
    pairs = byes = 0
    for index, schedule in enumerate(schedules):
        if number > len(schedule):
            continue
        stage = Stage.objects.get(
            tournament=tournament, kind=StageKind.ROUND_ROBIN_GROUP, group=index + 1
        )
        round_ = Round.objects.create(
            stage=stage,
            number=number,
            match_length=match_length(
                tournament.match_lengths, StageKind.ROUND_ROBIN_GROUP, number, total
            ),
            clock_policy=round_clock_policy(
                tournament.clock_rounds, StageKind.ROUND_ROBIN_GROUP, number, total
            ),
            status=RoundStatus.PLAYING,
        )
        spec = schedule[number - 1]
        for board, (a, b) in enumerate(spec.pairs):
            key = f"rr-g{index + 1}-r{number}-b{board + 1}"
            _create_pair(tournament, round_, key, board, entries[a], entries[b], actor)
            pairs += 1
        if spec.bye is not None:
            key = f"rr-g{index + 1}-r{number}-bye"
            _create_pair(tournament, round_, key, len(spec.pairs), entries[spec.bye], None, actor)
            byes += 1
    return RoundOutcome(round=number, pairings=pairs, byes=byes, created=True)


def _start_playoff(
    tournament: Tournament,
    round_number: int | None,
    total: int,
    seeding: Callable[[], list[int]],
    first_stage: int,
) -> RoundOutcome:
    """After the rounds (``total`` of them): the playoff bracket, seeded ``seeding()``."""
    if Stage.objects.filter(tournament=tournament, kind=StageKind.PLAYOFF).exists():
        if round_number is not None and round_number <= total + 1:
            return _existing(tournament, StageKind.PLAYOFF, 1)
        raise ConflictError("playoff_running", N_("The playoff advances by itself."))
    if round_number is not None and round_number != total + 1:
        raise RuleViolation(
            "round_out_of_order", N_("The playoff is round %(value)s.", value=total + 1), "round"
        )
    if not _decided(tournament):
        raise ConflictError(
            "round_not_complete", N_("Round %(total)s is not complete yet.", total=total), "round"
        )
    order = seeding()
    if len(order) < 2:
        raise ConflictError("playoff_too_small", N_("The playoff needs at least two players."))
    draw_bracket(tournament, order, first_stage=first_stage)
    count = Pairing.objects.filter(
        tournament=tournament, round__stage__kind=StageKind.PLAYOFF
    ).count()
    return RoundOutcome(round=total + 1, pairings=count, byes=0, created=True)


def _group_playoff_seeding(tournament: Tournament) -> list[int]:
    """The best of each group, in turn (``playoff_seeding``)."""
    group_tables = []
    for stage in Stage.objects.filter(tournament=tournament, kind=StageKind.ROUND_ROBIN_GROUP):
        table = [
            s.entry.pk for s in standings(tournament, stage) if s.entry.status == EntryStatus.ACTIVE
        ]
        group_tables.append(table)
    return playoff_seeding(group_tables, tournament.playoff_qualifiers)


@transaction.atomic
def swap_entries(*, actor: Actor, tournament_id: int, entry_a: int, entry_b: int) -> list[str]:
    """Swap two entries' places in the round about to start; returns rematch warnings.

    Only before any match of that round has started. In a bracket this swaps their
    seeds' places (round 1); in a Swiss or round robin their places in the latest round.
    Unstarted matches are voided (kept) and new ones created; they are locked before
    the tournament (the one lock order), so a score entry never deadlocks with a swap.
    """
    tournament, locked = lock_unstarted_matches_then_tournament(tournament_id)
    require_director(actor, tournament)
    require_status(tournament, TournamentStatus.RUNNING, doing="swap a pairing")
    if entry_a == entry_b:
        raise RuleViolation("same_entry_twice", N_("Pick two different entries."), "entry_b")
    if tournament.is_elimination:
        round_ = (
            Round.objects.filter(stage__tournament=tournament, number=1)
            .order_by("stage__order")
            .first()
        )
    else:
        round_ = Round.objects.filter(stage__tournament=tournament).order_by("-pk").first()
    assert round_ is not None
    pairings = list(round_.pairings.select_related("match", "entry1__player", "entry2__player"))
    if any(
        p.match is not None
        and (p.match.status != MatchStatus.SCHEDULED or p.match.score1 or p.match.score2)
        for p in pairings
    ):
        raise ConflictError(
            "round_started", N_("A match of this round has started: too late to swap.")
        )
    require_locked({p.match_id for p in pairings if p.match_id is not None}, locked)
    seats = {}
    for p in pairings:
        for side, entry_id in ((1, p.entry1_id), (2, p.entry2_id)):
            if entry_id is not None:
                seats[entry_id] = (p, side)
    for entry_id, name in ((entry_a, "entry_a"), (entry_b, "entry_b")):
        if entry_id not in seats:
            raise RuleViolation(
                "entry_not_in_round",
                N_("Entry %(entry_id)s does not play in this round.", entry_id=entry_id),
                name,
            )
    met = _met_before(tournament, exclude_round=round_)
    if round_.stage.kind in BRACKET_STAGES:
        order = list(tournament.bracket_order)
        i, j = order.index(entry_a), order.index(entry_b)
        order[i], order[j] = order[j], order[i]
        tournament.bracket_order = order
        tournament.save(update_fields=["bracket_order"])
        sync_bracket(tournament)
        new_pairs = [
            (p.entry1_id, p.entry2_id)
            for p in Pairing.objects.filter(round=round_)
            if p.entry1_id and p.entry2_id
        ]
    else:
        (pa, sa), (pb, sb) = seats[entry_a], seats[entry_b]
        setattr(pa, f"entry{sa}_id", entry_b)
        setattr(pb, f"entry{sb}_id", entry_a)
        actor_ = system_actor(tournament)
        new_pairs = []
        entries = {
            e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("player")
        }
        for p in {pa.pk: pa, pb.pk: pb}.values():
            if p.match is not None:
                old = p.match
                p.replaced_matches = [*p.replaced_matches, old.pk]
                p.match = None
                p.save(update_fields=["match", "replaced_matches"])
                match_results.void_match(actor=actor_, match_id=old.pk)
            p.winner_id = None
            p.forfeit = False
            if p.entry2_id is None:
                p.status, p.winner_id = PairingStatus.BYE, p.entry1_id
            else:
                assert p.entry1_id is not None  # a seat of a pairing with two entries
                p.status = PairingStatus.READY
                p.match = match_create.create_match(
                    actor=actor_,
                    club=tournament.club,
                    player1=entries[p.entry1_id].player,
                    player2=entries[p.entry2_id].player,
                    length=round_.match_length,
                    crawford=tournament.crawford,
                    rated=tournament.rated,
                    variant=tournament.variant,
                    label=stored_match_label(tournament, round_),
                )
                new_pairs.append((p.entry1_id, p.entry2_id))
            p.save()
        assign_tables(tournament)
    bump(tournament)
    return [
        f"Rematch: entries {a} and {b} have met before."
        for a, b in new_pairs
        if frozenset((a, b)) in met and frozenset((a, b)) & {entry_a, entry_b}
    ]


def _met_before(tournament: Tournament, exclude_round: Round) -> set[frozenset[int]]:
    return {
        frozenset((p.entry1_id, p.entry2_id))
        for p in Pairing.objects.filter(tournament=tournament, status=PairingStatus.PLAYED)
        .exclude(round=exclude_round)
        .only("entry1_id", "entry2_id")
        if p.entry1_id and p.entry2_id
    }


@dataclass(frozen=True)
class RoundEngine:
    """How a rounds format (``FormatSpec.rounds``) is started, paired and ended."""

    start: Callable[[Tournament, list[int]], None]
    more_due: Callable[[Tournament], bool]
    pair: Callable[[Tournament, int | None, Progress | None], RoundOutcome]


def _start_swiss(tournament: Tournament, order: list[int]) -> None:
    Stage.objects.create(tournament=tournament, kind=StageKind.SWISS)


def _start_round_robin(tournament: Tournament, order: list[int]) -> None:
    groups = snake_groups(order, _group_count(tournament, len(order)))
    for index in range(len(groups)):
        Stage.objects.create(
            tournament=tournament, kind=StageKind.ROUND_ROBIN_GROUP, group=index + 1, order=0
        )


#: The engines of the rounds formats, by ``FormatSpec.rounds``.
ROUND_ENGINES: dict[str, RoundEngine] = {
    "swiss": RoundEngine(_start_swiss, _more_swiss_rounds, _pair_swiss),
    "round_robin": RoundEngine(
        _start_round_robin,
        _more_round_robin_rounds,
        lambda tournament, number, progress: _pair_round_robin(tournament, number),
    ),
}
