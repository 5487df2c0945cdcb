"""What the analysis app shows on pages ``games`` owns (see :mod:`core.panels`): the
match page's analysis summary, the player page's PR history chart and, on a variant's
match, the link to the rules of its variant. Registered by ``analysis/wiring.py``, so
``games`` templates never name this app.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from analysis.templatetags.analysis_tags import match_analysis_summary, player_pr_chart
from core.panels import register_panel


def match_summary(request: HttpRequest | None, match: Any) -> dict[str, Any]:
    return match_analysis_summary(match)


def player_chart(request: HttpRequest | None, player: Any) -> dict[str, Any]:
    return player_pr_chart(player)


def variant_rules_link(request: HttpRequest | None, match: Any) -> dict[str, Any] | None:
    """A match of a variant links to the rules of its variant (nothing for the English
    game)."""
    if match.variant == "standard":
        return None
    return {"key": match.variant}


def register() -> None:
    register_panel(
        "match.head",
        "analysis.variant_rules",
        template="analysis/_variant_rules_link.html",
        provider=variant_rules_link,
        order=200,
    )
    register_panel(
        "match.analysis",
        "analysis.summary",
        template="analysis/_match_summary.html",
        provider=match_summary,
    )
    register_panel(
        "player.history",
        "analysis.pr_chart",
        template="analysis/_player_pr_chart.html",
        provider=player_chart,
    )
