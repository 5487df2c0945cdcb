"""Rating pages: a club's list and a player's history drawn as an SVG chart per list.

The chart is computed here (points scaled to the drawing box) and drawn by the
template as an inline ``<svg>``: no JavaScript, readable in any browser and printable.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.formats import number_format
from django.utils.translation import gettext

from games import selectors_ratings as selectors
from games.models import Club, Player, RatingChange
from games.variant_names import variant_name

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 640, 220, 36


def _dot_text(c: RatingChange) -> str:
    """A chart point's tooltip, in the reader's language and number format:
    "2026-03-05 beat Ann (5 pt): 1512.34 (+3.21)", "… schlug Ann (5 Pkt.): 1512,34 (+3,21)"."""
    values = {
        "date": f"{c.at:%Y-%m-%d}",
        "opponent": c.opponent.display_name,
        "length": c.length,
        "rating": number_format(c.rating_after, 2, use_l10n=True),
        "change": ("+" if c.change >= 0 else "") + number_format(c.change, 2, use_l10n=True),
    }
    if c.won:
        return (
            gettext("%(date)s beat %(opponent)s (%(length)s pt): %(rating)s (%(change)s)") % values
        )
    return (
        gettext("%(date)s lost to %(opponent)s (%(length)s pt): %(rating)s (%(change)s)") % values
    )


@dataclass(frozen=True)
class Chart:
    """An SVG line chart of one player's rating on one list, in drawing coordinates."""

    points: str
    dots: list[tuple[float, float, str]]
    y_ticks: list[tuple[float, str]]
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    left: int = CHART_PAD
    bottom: int = CHART_HEIGHT - CHART_PAD


@dataclass(frozen=True)
class ChartScale:
    """Drawing coordinates of a line chart's ``count`` points between ``low`` and ``high``
    (shared by the rating chart and the PR chart). ``high_on_top`` is False where a
    higher value is worse and is drawn lower (a PR)."""

    count: int
    low: float
    high: float
    high_on_top: bool = True

    def x(self, i: int) -> float:
        inner_w = CHART_WIDTH - 2 * CHART_PAD
        return round(CHART_PAD + inner_w * i / max(self.count - 1, 1), 1)

    def y(self, v: float) -> float:
        inner_h = CHART_HEIGHT - 2 * CHART_PAD
        from_top = (self.high - v) if self.high_on_top else (v - self.low)
        return round(CHART_PAD + inner_h * from_top / (self.high - self.low), 1)


def rating_chart(history: list[RatingChange]) -> Chart | None:
    """The rating before the first match, then after each: a line with a dot per match."""
    if not history:
        return None
    values = [history[0].rating_before] + [c.rating_after for c in history]
    low, high = min(values), max(values)
    if high - low < 10:
        low, high = low - 5, high + 5
    scale = ChartScale(len(values), low, high)
    x, y = scale.x, scale.y

    points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    dots = [
        (
            x(i + 1),
            y(c.rating_after),
            _dot_text(c),
        )
        for i, c in enumerate(history)
    ]
    ticks = [(y(v), f"{v:.0f}") for v in (low, (low + high) / 2, high)]
    return Chart(points=points, dots=dots, y_ticks=ticks)


def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's list of the English game, or (``?variant=``) of a variant it rates:
    one list per variant, never mixed."""
    club = get_object_or_404(Club, slug=slug)
    others = selectors.variant_lists(club)
    variant = request.GET.get("variant") or "standard"
    if variant != "standard" and variant not in others:
        raise Http404
    rating_list = selectors.find_list(club, variant)
    page = Paginator(selectors.ranked_ratings(rating_list), 100).get_page(request.GET.get("page"))
    rows = [(page.start_index() + i, r) for i, r in enumerate(page.object_list)]
    tabs = [("standard", variant_name("standard"))] + [(k, variant_name(k)) for k in others]
    return render(
        request,
        "games/ratings_club.html",
        {
            "club": club,
            "rating_list": rating_list,
            "page": page,
            "rows": rows,
            "variant": variant,
            "tabs": tabs if others else [],
        },
    )


def player_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    player = get_object_or_404(Player, slug=slug)
    sections = []
    for rating_list in selectors.lists_of_player(player):
        history = list(selectors.player_history(rating_list, player))
        sections.append(
            {
                "list": rating_list,
                "history": history,
                "current": history[-1] if history else None,
                "chart": rating_chart(history),
            }
        )
    return render(request, "games/ratings_player.html", {"player": player, "sections": sections})
