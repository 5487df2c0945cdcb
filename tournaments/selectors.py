"""Reads of the tournaments app: results, standings, the bracket, ratings for seeding.

Each read costs a fixed number of queries whatever the event's size (everything is
fetched with ``select_related`` in one query per table), as DESIGN.md section 2 asks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import QuerySet

from games.models import Club, MatchStatus, Player
from tournaments.formats.standings import MatchResult, StandingRow, TieBreak, compute_standings
from tournaments.models import Entry, Pairing, PairingStatus, Round, Stage, Tournament


def ratings_for_seeding(club: Club, players: Iterable[Player]) -> dict[int, float]:
    """Each player's rating on the club's list; the club's starting rating if unrated.

    The rating list lives in ``games.models.ratings`` when the ratings app is installed;
    it is imported lazily so seeding works with or without it.
    """
    players = list(players)
    ratings: dict[int, float] = dict.fromkeys((p.pk for p in players), float(club.rating_initial))
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
    return (
        Pairing.objects.filter(tournament=tournament)
        .select_related("round", "round__stage", "entry1__player", "entry2__player", "match")
        .order_by("round__stage__order", "round__stage__group", "round__number", "slot")
    )


def results_from_pairings(pairings: Iterable[Pairing]) -> list[MatchResult[int]]:
    """Decided pairings as the standings' results: matches, forfeits and byes."""
    results: list[MatchResult[int]] = []
    for p in pairings:
        if (
            p.status == PairingStatus.BYE
            and p.entry1_id
            and p.round.stage.kind in ("swiss", "round_robin")
        ):
            results.append(MatchResult(p.entry1_id, None, p.entry1_id, bye=True))
            continue
        if p.status != PairingStatus.PLAYED or p.winner_id is None or p.stale:
            continue
        if p.entry1_id is None or p.entry2_id is None:
            continue
        points_a = points_b = 0
        match = p.match
        if match is not None and match.status == MatchStatus.FINISHED:
            if match.player1_id == p.entry1.player_id:
                points_a, points_b = match.score1, match.score2
            else:
                points_a, points_b = match.score2, match.score1
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
    entry: Entry


def standings(tournament: Tournament, stage: Stage | None = None) -> list[Standing]:
    """Standings computed from the results (never stored), by the event's tie-breaks."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
    pairings = pairings_queryset(tournament)
    if stage is not None:
        pairings = pairings.filter(round__stage=stage)
    pairings = list(pairings)
    if stage is not None:
        in_stage = {p.entry1_id for p in pairings} | {p.entry2_id for p in pairings}
        entries = [e for e in entries if e.pk in in_stage]
    by_id = {e.pk: e for e in entries}
    order = [e.pk for e in sorted(entries, key=lambda e: (e.seed or 10**6, e.pk))]
    rows = compute_standings(
        order,
        [r for r in results_from_pairings(pairings) if r.player_a in by_id],
        [TieBreak(t) for t in tournament.tie_breaks],
        bye_is_win=tournament.bye_is_win,
    )
    return [Standing(row=row, entry=by_id[row.player]) for row in rows]


@dataclass(frozen=True)
class BracketView:
    """Everything the bracket API and pages show, fetched in a fixed number of queries."""

    tournament: Tournament
    stages: list[Stage]
    rounds: dict[int, list[Round]]
    pairings: dict[int, list[Pairing]]


def bracket_view(tournament: Tournament) -> BracketView:
    stages = list(Stage.objects.filter(tournament=tournament).order_by("order", "group"))
    rounds: dict[int, list[Round]] = {s.pk: [] for s in stages}
    for round_ in Round.objects.filter(stage__tournament=tournament).order_by("number"):
        rounds[round_.stage_id].append(round_)
    pairings: dict[int, list[Pairing]] = {}
    for pairing in pairings_queryset(tournament).select_related("winner"):
        pairings.setdefault(pairing.round_id, []).append(pairing)
    return BracketView(tournament=tournament, stages=stages, rounds=rounds, pairings=pairings)


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
