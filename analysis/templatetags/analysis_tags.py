"""Template tags through which pages of other apps show the analysis (one query each)."""

from __future__ import annotations

from typing import Any

from django import template

from analysis import selectors, services

register = template.Library()


@register.inclusion_tag("analysis/_match_summary.html")
def match_analysis_summary(match: Any) -> dict[str, Any]:
    """Both players' PR, error rate and luck, and the three worst decisions, drawn."""
    from analysis.pages import decision_picture

    analysis = selectors.analysis_of(match)
    if analysis is None:
        # never "not ready yet" for a match that will not be analysed here (its variant,
        # or its engine database missing): the analysis page says why
        return {"match": match, "analysis": None, "analysable": services.analysable(match)}
    worst = [
        {"d": d, "svg": decision_picture(match, d)}
        for d in selectors.worst_decisions(analysis, limit=3)
    ]
    players = sorted(analysis.players.all(), key=lambda p: p.side)
    return {"match": match, "analysis": analysis, "players": players, "worst": worst}


@register.inclusion_tag("analysis/_pr_table.html")
def pr_table(match_ids: list[int]) -> dict[str, Any]:
    """The "best played" table of a set of matches (an event's)."""
    return {"rows": selectors.pr_table_for_matches(list(match_ids))}


@register.inclusion_tag("analysis/_player_pr_chart.html")
def player_pr_chart(player: Any) -> dict[str, Any]:
    """The player's PR history chart (nothing when no match of theirs is analysed)."""
    from analysis.pages import pr_chart

    history = selectors.pr_history(player)
    return {"player": player, "chart": pr_chart(history), "count": len(history)}
