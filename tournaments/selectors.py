"""Reads of the tournaments app: results, standings, the bracket, ratings for seeding.

Each read costs a fixed number of queries whatever the event's size (everything is
fetched with ``select_related`` in one query per table), so a page's query count does
not grow with its size.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import QuerySet

from analysis.selectors import match_pr_by_side
from games.models import Club, MatchStatus, Player
from tournaments.formats.bracket_engine import derive_bracket_state
from tournaments.formats.places import DEFAULT_PRIZE_ORDER, Places, elimination_places
from tournaments.formats.standings import MatchResult, StandingRow, TieBreak, compute_standings
from tournaments.models import (
    Entry,
    Pairing,
    PairingStatus,
    Round,
    Stage,
    StageKind,
    Tournament,
)


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
                rows = rows.filter(
                    **{f"{list_field}__club": club, f"{list_field}__variant": "standard"}
                )
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
    entry1_is_match_player1: bool = True


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
    tournament: Tournament, *, with_replaced: bool = False, **filters: Any
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
                m_p1 == e1_player if match_id is not None else True,
            )
        )
    return result


def results_from_pairings(
    pairings: Iterable[PairingRow], prs: dict[int, tuple[float, float]] | None = None
) -> list[MatchResult[int]]:
    """Decided pairings as the standings' results: matches, forfeits and byes.

    ``prs``: {match id: (PR of the match's player 1, of player 2)} of the analysed
    matches, for the Win + Skill tie-break.
    """
    results: list[MatchResult[int]] = []
    prs = prs or {}
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
        pr = prs.get(p.match_id) if p.match_id is not None else None
        if pr is not None and not p.entry1_is_match_player1:
            pr = (pr[1], pr[0])
        results.append(
            MatchResult(
                p.entry1_id,
                p.entry2_id,
                p.winner_id,
                points_a=points_a,
                points_b=points_b,
                forfeit=p.forfeit,
                pr_a=pr[0] if pr else None,
                pr_b=pr[1] if pr else None,
            )
        )
    return results


@dataclass(frozen=True)
class Standing:
    """A standings row with its entry (player, status) for display.

    ``place`` is the finishing place of an elimination event ("1", "3–4",
    "Consolation 1"), ``None`` while the player is still in play or for Swiss and round
    robin, which rank by their tie-breaks.
    """

    row: StandingRow[int]
    entry: EntryRow
    place: str | None = None

    @property
    def values(self) -> list[int | float]:
        """The tie-break values in the event's tie-break order (for tables); Win + Skill,
        kept in hundredths for exact ordering, is shown as its score."""
        return [v / 100 if t == TieBreak.WIN_SKILL else v for t, v in self.row.values.items()]


@dataclass(frozen=True)
class PlaceRow:
    """A finishing place and the entries sharing it, for the places list."""

    label: str
    block: str
    entries: list[EntryRow]


@dataclass(frozen=True)
class StandingsTable:
    """What the standings page, the big screen and the API show.

    ``rows`` are in ranking order: finishing places for elimination events (in the
    event's prize order), tie-breaks for Swiss and round robin. ``places`` lists the
    decided places (empty for Swiss and round robin); ``winner`` is the champion once
    there is one.
    """

    rows: list[Standing]
    places: list[PlaceRow] = field(default_factory=list)
    winner: EntryRow | None = None


def standings(tournament: Tournament, stage: Stage | None = None) -> list[Standing]:
    """Standings computed from the results (never stored): see :func:`standings_table`."""
    return standings_table(tournament, stage).rows


def standings_table(tournament: Tournament, stage: Stage | None = None) -> StandingsTable:
    """Standings computed from the results (never stored), in the event's ranking order.

    Swiss and round robin rank by the event's tie-breaks. Elimination events rank by
    finishing place (:mod:`tournaments.formats.places`): the tie-break values are still
    given, but a consolation winner with more match wins stands below the main
    runner-up. Costs the same two queries either way (the bracket state is derived from
    the pairing rows already read).
    """
    entries = entry_rows(tournament)
    filters: dict[str, Any] = {"round__stage": stage} if stage else {}
    pairings = pairing_rows(tournament, **filters)
    if stage is not None:
        in_stage = {p.entry1_id for p in pairings} | {p.entry2_id for p in pairings}
        entries = {pk: e for pk, e in entries.items() if pk in in_stage}
    order = [e.pk for e in sorted(entries.values(), key=lambda e: (e.seed or 10**6, e.pk))]
    prs = None
    if TieBreak.WIN_SKILL.value in tournament.tie_breaks:
        prs = match_pr_by_side([p.match_id for p in pairings if p.match_id is not None])
    rows = compute_standings(
        order,
        [r for r in results_from_pairings(pairings, prs) if r.player_a in entries],
        [TieBreak(t) for t in tournament.tie_breaks],
        bye_is_win=tournament.bye_is_win,
    )
    if stage is not None or not tournament.is_elimination or not tournament.bracket_order:
        table = [Standing(row=row, entry=entries[row.player]) for row in rows]
        winner = _finished_winner(tournament, pairings, table) if stage is None else None
        return StandingsTable(table, winner=entries.get(winner) if winner else None)
    places = _elimination_places(tournament, pairings, order)
    by_player = {row.player: row for row in rows}
    ranked: list[Standing] = []
    for index, pk in enumerate(places.order):
        place = places.place_of.get(pk)
        rank = place.position if place is not None else index + 1  # shared within a place
        ranked.append(
            Standing(
                row=replace(by_player[pk], rank=rank),
                entry=entries[pk],
                place=place.label if place else None,
            )
        )
    return StandingsTable(
        rows=ranked,
        places=[
            PlaceRow(p.label, p.block, [entries[pk] for pk in p.entries]) for p in places.places
        ],
        winner=entries.get(places.winner) if places.winner is not None else None,
    )


def _finished_winner(
    tournament: Tournament, pairings: list[PairingRow], table: list[Standing]
) -> int | None:
    """Swiss / round robin: the winner of a finished event (entry id), if one stands out.

    A round robin with a playoff is won in the playoff; otherwise the single player
    ranked 1 by the tie-breaks wins (nobody is named when the top is fully tied).
    """
    from tournaments.models import TournamentStatus

    if tournament.status != TournamentStatus.FINISHED or not table:
        return None
    if tournament.playoff_qualifiers and tournament.bracket_order:
        playoff = [p for p in pairings if p.stage_kind == "playoff"]
        entries = list(dict.fromkeys(tournament.bracket_order))
        return _elimination_places(tournament, playoff, entries).winner
    top = [s for s in table if s.row.rank == 1]
    return top[0].entry.pk if len(top) == 1 else None


def _elimination_places(
    tournament: Tournament, pairings: list[PairingRow], order: list[int]
) -> Places[int]:
    """Finishing places from the bracket graph and the recorded winners (no query)."""
    from tournaments.selectors_graph import bracket_graph

    graph = bracket_graph(tournament)
    winners = {
        p.key: p.winner_id
        for p in pairings
        if p.winner_id is not None and p.status == PairingStatus.PLAYED and not p.stale
    }
    state = derive_bracket_state(graph, tournament.bracket_order, winners)
    return elimination_places(graph, state, order, tournament.prize_order or DEFAULT_PRIZE_ORDER)


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
    from tournaments.selectors_graph import bracket_graph

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


def next_round_number(tournament: Tournament) -> int:
    """The number the next Swiss or round-robin round gets (1 before any)."""
    kinds = [StageKind.SWISS, StageKind.ROUND_ROBIN_GROUP]
    last = (
        Round.objects.filter(stage__tournament=tournament, stage__kind__in=kinds)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return (last or 0) + 1


def drop_map_params(tournament: Tournament) -> dict[str, Any]:
    """What the drop-map preview of the event is built from: its format, its wiring and
    its entries (the drawn order, else the active entries; at least two)."""
    from tournaments.models import Entry as EntryModel

    count = (
        len(tournament.bracket_order)
        or EntryModel.objects.filter(tournament=tournament, status="active").count()
    )
    return {
        "format": tournament.format,
        "entries": max(count, 2),
        "consolation_from": tournament.consolation_from,
        "last_chance_from": tournament.last_chance_from,
        "grand_final_reset": tournament.grand_final_reset,
        "feed_orders": tournament.feed_orders,
        "last_chance_drawn": tournament.drawn_last_chance_from,
    }
