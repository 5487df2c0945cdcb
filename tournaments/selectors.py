"""Reads of the tournaments app: results, standings, the bracket, ratings for seeding.

Each read costs a fixed number of queries whatever the event's size (everything is
fetched with ``select_related`` in one query per table), so a page's query count does
not grow with its size.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import QuerySet

from games.models import Club, MatchStatus, Player
from tournaments.formats.standings import MatchResult, StandingRow, TieBreak, compute_standings
from tournaments.models import Entry, Pairing, PairingStatus, Round, Stage, Tournament


def ratings_for_seeding(club: Club, players: Iterable[Player]) -> dict[int, float]:
    """Each player's rating on the club's list; if unrated, the rating they declared
    when added as a walk-in, else the club's starting rating.

    The rating list lives in ``games.models.ratings`` when the ratings app is installed;
    it is imported lazily so seeding works with or without it.
    """
    players = list(players)
    ratings: dict[int, float] = {
        p.pk: float(p.declared_rating or club.rating_initial) for p in players
    }
    try:
        from games.models import ratings as rating_models
    except ImportError:
        return ratings
    model = getattr(rating_models, "Rating", None)
    if model is None:
        return ratings
    try:
        rows = model.objects.filter(player__in=[p.pk for p in players])
        field_names = {f.name for f in model._meta.get_fields()}
        list_field = next((n for n in ("rating_list", "list") if n in field_names), None)
        if list_field is not None:
            list_model = model._meta.get_field(list_field).related_model
            if list_model is Club:
                rows = rows.filter(**{list_field: club})
            else:
                rows = rows.filter(**{f"{list_field}__club": club})
        for player_id, rating in rows.values_list("player_id", "rating"):
            ratings[player_id] = float(rating)
    except Exception:
        return ratings
    return ratings


def pairings_queryset(tournament: Tournament) -> QuerySet[Pairing]:
    """Pairings as model instances with their players (services and commands)."""
    return (
        Pairing.objects.filter(tournament=tournament)
        .select_related("round", "round__stage", "entry1__player", "entry2__player", "match")
        .order_by("round__stage__order", "round__stage__group", "round__number", "slot")
    )


@dataclass(frozen=True, slots=True)
class EntryRow:
    """An entry as reads show it (plain values: big events build thousands of these)."""

    pk: int
    seed: int | None
    status: str
    late: bool
    player_id: int
    display_name: str
    slug: str


@dataclass(frozen=True, slots=True)
class PairingRow:
    """A pairing as reads show it, with its match's status and score."""

    pk: int
    key: str
    slot: int
    status: str
    round_id: int
    round_number: int
    match_length: int
    stage_kind: str
    entry1_id: int | None
    entry2_id: int | None
    winner_id: int | None
    forfeit: bool
    stale: bool
    stale_reason: str
    match_id: int | None
    match_status: str | None
    match_score: tuple[int, int] | None  # oriented as entry1, entry2
    winner_to: str
    loser_to: str
    replaced_matches: list | None  # None when not read (see pairing_rows)


_PAIRING_VALUES = (
    "pk",
    "key",
    "slot",
    "status",
    "round_id",
    "round__number",
    "round__match_length",
    "round__stage__kind",
    "entry1_id",
    "entry1__player_id",
    "entry2_id",
    "winner_id",
    "forfeit",
    "stale",
    "stale_reason",
    "match_id",
    "match__status",
    "match__score1",
    "match__score2",
    "match__player1_id",
    "winner_to",
    "loser_to",
)


def entry_rows(tournament: Tournament) -> dict[int, EntryRow]:
    """Every entry of the event, by id, in one query."""
    rows = Entry.objects.filter(tournament=tournament).values_list(
        "pk", "seed", "status", "late", "player_id", "player__display_name", "player__slug"
    )
    return {row[0]: EntryRow(*row) for row in rows}


def pairing_rows(
    tournament: Tournament, *, with_replaced: bool = False, **filters: object
) -> list[PairingRow]:
    """The event's pairings in bracket order, in one query, without model instances.

    ``with_replaced`` adds the ids of matches a pairing replaced (a JSON column whose
    decoding costs more than the rest of the row, so big reads leave it out).
    """
    fields = (*_PAIRING_VALUES, "replaced_matches") if with_replaced else _PAIRING_VALUES
    rows = (
        Pairing.objects.filter(tournament=tournament, **filters)
        .order_by("round__stage__order", "round__stage__group", "round__number", "slot")
        .values_list(*fields)
    )
    result = []
    for r in rows:
        (pk, key, slot, status, round_id, number, length, kind, e1, e1_player, e2, winner,
         forfeit, stale, reason, match_id, m_status, s1, s2, m_p1, w_to, l_to) = r[:22]  # fmt: skip
        replaced = r[22] if with_replaced else None
        score = None
        if match_id is not None:
            score = (s1, s2) if m_p1 == e1_player else (s2, s1)
        result.append(
            PairingRow(
                pk,
                key,
                slot,
                status,
                round_id,
                number,
                length,
                kind,
                e1,
                e2,
                winner,
                forfeit,
                stale,
                reason,
                match_id,
                m_status,
                score,
                w_to,
                l_to,
                replaced,
            )
        )
    return result


def results_from_pairings(pairings: Iterable[PairingRow]) -> list[MatchResult[int]]:
    """Decided pairings as the standings' results: matches, forfeits and byes."""
    results: list[MatchResult[int]] = []
    for p in pairings:
        if (
            p.status == PairingStatus.BYE
            and p.entry1_id
            and p.stage_kind in ("swiss", "round_robin")
        ):
            results.append(MatchResult(p.entry1_id, None, p.entry1_id, bye=True))
            continue
        if p.status != PairingStatus.PLAYED or p.winner_id is None or p.stale:
            continue
        if p.entry1_id is None or p.entry2_id is None:
            continue
        points_a = points_b = 0
        if p.match_status == MatchStatus.FINISHED and p.match_score is not None:
            points_a, points_b = p.match_score
        results.append(
            MatchResult(
                p.entry1_id,
                p.entry2_id,
                p.winner_id,
                points_a=points_a,
                points_b=points_b,
                forfeit=p.forfeit,
            )
        )
    return results


@dataclass(frozen=True)
class Standing:
    """A standings row with its entry (player, status) for display."""

    row: StandingRow[int]
    entry: EntryRow

    @property
    def values(self) -> list[int]:
        """The tie-break values in the event's tie-break order (for tables)."""
        return list(self.row.values.values())


def standings(tournament: Tournament, stage: Stage | None = None) -> list[Standing]:
    """Standings computed from the results (never stored), by the event's tie-breaks."""
    entries = entry_rows(tournament)
    pairings = pairing_rows(tournament, **({"round__stage": stage} if stage else {}))
    if stage is not None:
        in_stage = {p.entry1_id for p in pairings} | {p.entry2_id for p in pairings}
        entries = {pk: e for pk, e in entries.items() if pk in in_stage}
    order = [e.pk for e in sorted(entries.values(), key=lambda e: (e.seed or 10**6, e.pk))]
    rows = compute_standings(
        order,
        [r for r in results_from_pairings(pairings) if r.player_a in entries],
        [TieBreak(t) for t in tournament.tie_breaks],
        bye_is_win=tournament.bye_is_win,
    )
    return [Standing(row=row, entry=entries[row.player]) for row in rows]


@dataclass(frozen=True)
class BracketView:
    """Everything the bracket API and pages show, fetched in a fixed number of queries."""

    tournament: Tournament
    stages: list[Stage]
    rounds: dict[int, list[Round]]
    pairings: dict[int, list[PairingRow]]
    entries: dict[int, EntryRow]


def bracket_view(tournament: Tournament) -> BracketView:
    stages = list(Stage.objects.filter(tournament=tournament).order_by("order", "group"))
    rounds: dict[int, list[Round]] = {s.pk: [] for s in stages}
    for round_ in Round.objects.filter(stage__tournament=tournament).order_by("number"):
        rounds[round_.stage_id].append(round_)
    pairings: dict[int, list[PairingRow]] = {}
    for pairing in pairing_rows(tournament):
        pairings.setdefault(pairing.round_id, []).append(pairing)
    return BracketView(
        tournament=tournament,
        stages=stages,
        rounds=rounds,
        pairings=pairings,
        entries=entry_rows(tournament),
    )


def next_match_of(tournament: Tournament, player: Player) -> Pairing | None:
    """The player's pairing that is ready to play, if any."""
    from django.db.models import Q

    return (
        pairings_queryset(tournament)
        .filter(status=PairingStatus.READY)
        .filter(Q(entry1__player=player) | Q(entry2__player=player))
        .first()
    )


def bracket_champion(view: BracketView) -> int | None:
    """The bracket's champion (entry id) read from the pairings already loaded."""
    tournament = view.tournament
    if not tournament.bracket_order:
        return None
    from tournaments.formats.bracket_graph import WinnerOf
    from tournaments.services.brackets import bracket_graph

    graph = bracket_graph(tournament)
    source = graph.stage_winners[graph.champion_stage]
    if not isinstance(source, WinnerOf):
        return None
    for pairings in view.pairings.values():
        for p in pairings:
            if p.key == source.match:
                decided = p.status in (
                    PairingStatus.PLAYED,
                    PairingStatus.BYE,
                    PairingStatus.NOT_NEEDED,
                )
                return p.winner_id if decided and not p.stale else None
    return None
