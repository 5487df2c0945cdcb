"""Winning chances drawn for the pages: a sentence and a two-coloured bar (inline SVG).

The numbers come from :mod:`games.selectors_chances`; this tag only orients them (the
player looking at his entry page reads "you" first) and words them.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext_lazy

from games.models import Match
from games.selectors_chances import Chances

register = template.Library()

BASIS_WORDS = {
    "pre_match": gettext_lazy("before the first game: the FIBS formula from the ratings"),
    "table": gettext_lazy("equal ratings: the %(table)s match equity table"),
    "model": gettext_lazy("the %(table)s match equity table, shifted by the rating gap"),
    "formula": gettext_lazy("the FIBS formula from the ratings and the match length"),
}
"""What the chances are computed from, said inside the page's sentence (translated:
these were English in a German sentence)."""


def percent_text(p: float) -> str:
    """Whole percent, without claiming certainty the match has not reached."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{round(100 * p)}%"


def chances_view(match: Match, chances: Chances | None, side: int | None = None) -> dict[str, Any]:
    """What ``games/_chances.html`` shows: left is "you" on a player's page, else player 1."""
    if chances is None or chances.basis == "final":
        return {"show": False}
    you_are_two = side == 1
    left_p, right_p = (
        (chances.player2, chances.player1) if you_are_two else (chances.player1, chances.player2)
    )
    names = (match.player1.display_name, match.player2.display_name)
    scores = (match.score1, match.score2)
    ratings = (chances.rating1, chances.rating2)
    order = (1, 0) if you_are_two else (0, 1)
    return {
        "show": True,
        "you": side is not None,
        "left_name": names[order[0]],
        "right_name": names[order[1]],
        "left_text": percent_text(left_p),
        "right_text": percent_text(right_p),
        "left_width": round(100 * left_p, 2),
        "score_text": f"{scores[order[0]]}–{scores[order[1]]}",
        "pre_match": chances.basis == "pre_match",
        "no_table": chances.basis == "formula",
        "length": match.length,
        "basis_text": _basis_text(chances.basis, match.club.match_equity_table),
        "ratings_text": f"{ratings[order[0]]:.0f} v {ratings[order[1]]:.0f}",
    }


def _basis_text(basis: str, table: str) -> str:
    words = str(BASIS_WORDS[basis])
    return words % {"table": table} if "%(table)s" in words else words


@register.inclusion_tag("games/_chances.html")
def chances_bar(match: Match, chances: Chances | None, side: int | None = None) -> dict[str, Any]:
    """``{% chances_bar match chances side %}``: the sentence, the bar and its basis."""
    return chances_view(match, chances, side)


@register.inclusion_tag("games/_chances_mini.html")
def chances_mini(chances: Chances | None) -> dict[str, Any]:
    """``{% chances_mini chances %}``: a compact bar between the two percentages (the
    big screen's column: player 1 on the left, as in the row)."""
    if chances is None or chances.basis == "final":
        return {"show": False}
    return {
        "show": True,
        "left_text": percent_text(chances.player1),
        "right_text": percent_text(chances.player2),
        "left_width": round(100 * chances.player1, 2),
    }


@register.filter
def chance_of(chances: dict[int, Chances | None], match_id: int | None) -> Chances | None:
    """``chances|chance_of:id``: one match's chances from a page's dict of them."""
    return chances.get(match_id) if chances and match_id else None
