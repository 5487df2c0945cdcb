"""Reads of the analysis: a match's analysis, a player's PR history, tables of PR."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Case, Count, F, FloatField, QuerySet, Sum, When

from games.models import Club, Match, Player

from .figures import performance_rating
from .models import Decision, MatchAnalysis, PlayerAnalysis, SupersededAnalysis

WORST_DECISIONS = 10


def analysis_of(match: Match) -> MatchAnalysis | None:
    return MatchAnalysis.objects.filter(match=match).prefetch_related("players__player").first()


def earlier_analyses(match: Match) -> list[SupersededAnalysis]:
    """The analyses of ``match`` that re-analyses replaced, latest replaced first, each
    with its decisions and figures as they were stored."""
    return list(SupersededAnalysis.objects.filter(match=match))


EARLIER_FIGURES = ("pr", "error_rate", "rating", "luck_rate", "errors", "blunders", "decisions")


def earlier_as_dicts(
    match: Match, earlier: list[SupersededAnalysis], *, with_decisions: bool = False
) -> list[dict[str, Any]]:
    """The earlier analyses as the API answers them: when, how deep, each player's
    figures then (and every decision as stored, when asked: about 200 a match)."""
    names = {
        match.player1_id: match.player1.display_name,
        match.player2_id: match.player2.display_name,
    }
    out = []
    for row in earlier:
        item: dict[str, Any] = {
            "id": row.pk,
            "plies": row.plies,
            "engine": row.engine,
            "analysed_at": row.analysed_at,
            "superseded_at": row.superseded_at,
            "decisions": row.decisions_count,
            "players": [
                {
                    "side": f["side"] + 1,
                    "player": f["player_id"],
                    "name": names.get(f["player_id"], ""),
                    **{k: f.get(k) for k in EARLIER_FIGURES if k in f},
                }
                for f in sorted(row.figures, key=lambda f: f["side"])
            ],
        }
        if with_decisions:
            item["decision_rows"] = row.decisions
        out.append(item)
    return out


def worst_decisions(
    analysis: MatchAnalysis, *, side: int | None = None, limit: int = WORST_DECISIONS
) -> list[Decision]:
    """The decisions that cost the most (counted ones with a loss), worst first."""
    rows = analysis.decisions.filter(counted=True, loss__gt=0)
    if side is not None:
        rows = rows.filter(side=side)
    return list(rows.order_by("-loss", "game", "index")[:limit])


def pr_history(player: Player) -> list[PlayerAnalysis]:
    """The player's analysed matches, oldest first (for the PR chart)."""
    return list(
        PlayerAnalysis.objects.filter(player=player)
        .select_related("analysis__match__player1", "analysis__match__player2")
        .order_by("analysis__match__played_on", "analysis__match__created_at", "pk")
    )


@dataclass(frozen=True, slots=True)
class PrRow:
    """A player's PR over several matches: 500 x total loss / total decisions (a 1-point
    match's loss counted 1.5 times, as in its own PR)."""

    player_id: int
    name: str
    matches: int
    decisions: int
    pr: float


def _pr_rows(rows: QuerySet[PlayerAnalysis], min_decisions: int = 0) -> list[PrRow]:
    grouped = (
        rows.values("player_id", "player__display_name")
        .annotate(
            n=Count("id"),
            decisions_sum=Sum("decisions"),
            # a 1-point match's loss weighs 1.5, as its PR does
            error_sum=Sum(
                Case(
                    When(analysis__match__length=1, then=F("total_error") * 1.5),
                    default=F("total_error"),
                    output_field=FloatField(),
                )
            ),
        )
        .order_by()
    )
    result = []
    for g in grouped:
        decisions = g["decisions_sum"] or 0
        if decisions < min_decisions or not decisions:
            continue
        result.append(
            PrRow(
                g["player_id"],
                g["player__display_name"],
                g["n"],
                decisions,
                round(performance_rating(g["error_sum"] or 0.0, decisions, 0), 2),
            )
        )
    return sorted(result, key=lambda r: (r.pr, r.name))


def pr_table_for_matches(match_ids: list[int]) -> list[PrRow]:
    """PR per player over the given matches, best first (an event's "best played")."""
    return _pr_rows(PlayerAnalysis.objects.filter(analysis__match_id__in=match_ids))


def club_pr_list(
    club: Club, *, since: date | None = None, until: date | None = None, min_decisions: int = 0
) -> list[PrRow]:
    """The club's PR list for a period (players with at least ``min_decisions``)."""
    rows = PlayerAnalysis.objects.filter(analysis__match__club=club)
    if since:
        rows = rows.filter(analysis__match__played_on__gte=since)
    if until:
        rows = rows.filter(analysis__match__played_on__lte=until)
    return _pr_rows(rows, min_decisions)


def match_pr_by_side(match_ids: list[int]) -> dict[int, tuple[float, float]]:
    """{match id: (PR of player 1, PR of player 2)} for the analysed ones."""
    out: dict[int, list[float]] = {}
    for row in PlayerAnalysis.objects.filter(analysis__match_id__in=match_ids).values(
        match_id=F("analysis__match_id"), s=F("side"), p=F("pr")
    ):
        out.setdefault(row["match_id"], [0.0, 0.0])[row["s"]] = row["p"]
    return {k: (v[0], v[1]) for k, v in out.items()}


def as_dict(analysis: MatchAnalysis) -> dict[str, Any]:
    """The analysis as the API answers it."""
    players = sorted(analysis.players.all(), key=lambda p: p.side)
    return {
        "match": analysis.match_id,
        "plies": analysis.plies,
        "engine": analysis.engine,
        "analysed_at": analysis.analysed_at,
        "seconds": analysis.seconds,
        "decisions": analysis.decisions_count,
        "players": [
            {
                "side": p.side + 1,
                "player": p.player_id,
                "name": p.player.display_name,
                "pr": p.pr,
                "error_rate": p.error_rate,
                "rating": p.rating,
                "luck": p.luck,
                "luck_rate": p.luck_rate,
                "luck_rating": p.luck_rating,
                "moves": p.moves,
                "unforced_moves": p.unforced_moves,
                "cube_decisions": p.cube_decisions,
                "close_cube_decisions": p.close_cube_decisions,
                "checker_error": p.checker_error,
                "cube_error": p.cube_error,
                "total_error": p.total_error,
                "doubtful": p.doubtful,
                "errors": p.errors,
                "blunders": p.blunders,
                "worst": [decision_dict(d) for d in worst_decisions(analysis, side=p.side)],
            }
            for p in players
        ],
    }


def decision_dict(d: Decision) -> dict[str, Any]:
    return {
        "game": d.game,
        "index": d.index,
        "side": d.side + 1,
        "kind": d.kind,
        "position_id": d.position_id,
        "match_id": d.match_id,
        "dice": d.dice,
        "score": [d.score1, d.score2],
        "played": d.played,
        "best": d.best,
        "played_equity": round(d.played_equity, 4),
        "best_equity": round(d.best_equity, 4),
        "loss": round(d.loss, 4),
        "mark": d.mark,
    }
