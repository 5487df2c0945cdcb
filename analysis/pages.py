"""Pages of the analysis: a match's analysis with its worst decisions drawn, a player's
PR history, an event's and a club's PR tables. Thin: a selector, then a template."""

from __future__ import annotations

from datetime import date

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from core import access
from games.models import Club, Match, Player
from games.pages.ratings import Chart, ChartScale
from games.variant_names import variant_name

from . import engine, selectors, services
from .board_svg import board_svg
from .models import Decision


def decision_picture(match: Match, d: Decision) -> str:
    """The SVG of a decision, from the decider's side."""
    me, opp = engine.board_from_id(d.position_id, services.men_per_side(match))
    names = (match.player1.display_name, match.player2.display_name)
    scores = (d.score1, d.score2)
    decider, other = d.side, 1 - d.side
    if d.cube_owner is None:
        cube = str(d.cube_value) if d.cube_value > 1 else "64" if not d.crawford else "C"
    else:
        cube = str(d.cube_value) + ("▼" if d.cube_owner == decider else "▲")
    return mark_safe(
        board_svg(
            me,
            opp,
            dice=d.dice if d.kind == "checker" else "",
            played=d.played if d.kind == "checker" else "",
            best=d.best if d.kind == "checker" else "",
            score=(scores[decider], scores[other]),
            length=match.length,
            names=(names[decider], names[other]),
            cube=cube,
            title=f"Game {d.game}: {names[decider]} played {d.played}, best {d.best}",
        )
    )


def match_analysis(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("player1", "player2", "club"), pk=pk)
    analysable = services.analysable(match)
    analysis = selectors.analysis_of(match) if analysable else None
    worst = []
    if analysis is not None:
        for d in selectors.worst_decisions(analysis, limit=20):
            worst.append({"d": d, "svg": decision_picture(match, d)})
    return render(
        request,
        "analysis/match_analysis.html",
        {
            "match": match,
            "analysis": analysis,
            "players": sorted(analysis.players.all(), key=lambda p: p.side) if analysis else [],
            "worst": worst,
            "earlier": selectors.earlier_as_dicts(match, selectors.earlier_analyses(match)),
            "is_director": access.is_director(request.user, match.club),
            "settings": services.settings_for(match.club),
            "analysable": analysable,
            "missing_database": services.missing_engine_database(match),
            "variant_name": variant_name(match.variant),
        },
    )


def pr_chart(history: list) -> Chart | None:
    """PR of each analysed match in order (lower is better: the axis grows downwards)."""
    if not history:
        return None
    values = [h.pr for h in history]
    low, high = 0.0, max(max(values), 5.0)
    scale = ChartScale(len(values), low, high, high_on_top=False)
    x, y = scale.x, scale.y

    points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    dots = []
    for i, h in enumerate(history):
        m = h.analysis.match
        opponent = m.player2 if h.side == 0 else m.player1
        when = m.played_on or m.created_at.date()
        pr = number_format(h.pr, 2, use_l10n=True)
        text = gettext("%(date)s v %(opponent)s: PR %(pr)s") % {
            "date": f"{when:%Y-%m-%d}",
            "opponent": opponent.display_name,
            "pr": pr,
        }
        dots.append((x(i), y(h.pr), text))
    ticks = [(y(v), f"{v:.0f}") for v in (low, (low + high) / 2, high)]
    return Chart(points=points, dots=dots, y_ticks=ticks)


def player_pr(request: HttpRequest, slug: str) -> HttpResponse:
    player = get_object_or_404(Player, slug=slug)
    history = selectors.pr_history(player)
    total_decisions = sum(h.decisions for h in history)
    total_error = sum(
        h.total_error * (1.5 if h.analysis.match.length == 1 else 1.0) for h in history
    )
    overall = 500.0 * total_error / total_decisions if total_decisions else None
    return render(
        request,
        "analysis/player_pr.html",
        {
            "player": player,
            "history": history,
            "chart": pr_chart(history),
            "overall": overall,
            "decisions": total_decisions,
        },
    )


def _date(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def club_pr(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    settings = services.settings_for(club)
    since, until = _date(request.GET.get("since")), _date(request.GET.get("until"))
    rows = selectors.club_pr_list(
        club, since=since, until=until, min_decisions=settings.min_decisions
    )
    return render(
        request,
        "analysis/club_pr.html",
        {"club": club, "rows": rows, "since": since, "until": until, "settings": settings},
    )
