"""The odds drawn: bars of each entrant's chance to win, and the leaders' chances over time.

Geometry only (numbers for the templates ``_odds_live.html``), like
:mod:`tournaments.bracket_svg`: the line chart is a step line per leader (odds hold
between two computations), x = the time of each computation, y = the chance to win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from tournaments.selectors import EntryRow
from tournaments.selectors_odds import HistoryPoint, OddsRow, percent

COLOURS = ("#8a1c1c", "#1f5fa8", "#2e7d32", "#b06000", "#6a3d9a")
"""The leaders' lines, in order (distinct in colour and, for print, in dash)."""
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2")

WIDTH, HEIGHT = 400, 200
LEFT, RIGHT, TOP, BOTTOM = 38, 8, 10, 24


BAR_ROW, BAR_X, BAR_W = 13, 128, 130
"""Bars: the height of a row, where the bar starts and its full length (viewBox units)."""


@dataclass(frozen=True)
class Bar:
    name: str
    seed: int | None
    percent: str
    y: int
    width: float  # BAR_W for a certain winner
    final: str | None

    @property
    def label_x(self) -> float:
        return BAR_X + self.width + 4


@dataclass(frozen=True)
class Bars:
    bars: list[Bar]
    height: int
    x: int = BAR_X


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    dash: str
    points: str
    last_x: float
    last_y: float
    percent: str


@dataclass
class Chart:
    width: int = WIDTH
    height: int = HEIGHT
    lines: list[Line] = field(default_factory=list)
    y_ticks: list[tuple[float, str]] = field(default_factory=list)
    x_ticks: list[tuple[float, str]] = field(default_factory=list)
    plot: tuple[int, int, int, int] = (LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM)


def bars(rows: Sequence[OddsRow], limit: int = 12) -> Bars | None:
    """The best ``limit`` chances to win, longest bar first (entrants with none left out)."""
    shown = [row for row in rows[:limit] if row.win > 0]
    if not shown:
        return None
    return Bars(
        bars=[
            Bar(
                name=row.entry.display_name,
                seed=row.entry.seed,
                percent=row.win_percent,
                y=index * BAR_ROW,
                width=round(row.win * BAR_W, 1),
                final=None if row.final is None else percent(row.final),
            )
            for index, row in enumerate(shown)
        ],
        height=len(shown) * BAR_ROW + 2,
    )


def line_chart(history: Sequence[HistoryPoint], leaders: Sequence[EntryRow]) -> Chart | None:
    """The leaders' chance to win through the evening; None before two computations."""
    if len(history) < 2 or not leaders:
        return None
    chart = Chart()
    x0, y0, x1, y1 = chart.plot
    start, end = history[0].computed_at, history[-1].computed_at
    span = max((end - start).total_seconds(), 1.0)

    def x_of(when: datetime) -> float:
        return round(x0 + (x1 - x0) * (when - start).total_seconds() / span, 1)

    def y_of(p: float) -> float:
        return round(y1 - (y1 - y0) * p, 1)

    top = max((max(h.win.values(), default=0.0) for h in history), default=0.0)
    ceiling = 1.0 if top > 0.5 else 0.5 if top > 0.25 else 0.25

    def scaled(p: float) -> float:
        return y_of(p / ceiling)

    chart.y_ticks = [(scaled(f * ceiling), f"{round(f * ceiling * 100)}%") for f in (0, 0.5, 1.0)]
    local = [timezone.localtime(h.computed_at) for h in (history[0], history[-1])]
    chart.x_ticks = [(x0, local[0].strftime("%H:%M")), (x1, local[1].strftime("%H:%M"))]
    for index, entry in enumerate(leaders):
        points: list[tuple[float, float]] = []
        for point in history:
            if entry.pk not in point.win:
                continue
            x, y = x_of(point.computed_at), scaled(point.win[entry.pk])
            if points:
                points.append((x, points[-1][1]))  # the odds held until now
            points.append((x, y))
        if not points:
            continue
        chart.lines.append(
            Line(
                name=entry.display_name,
                colour=COLOURS[index % len(COLOURS)],
                dash=DASHES[index % len(DASHES)],
                points=" ".join(f"{x},{y}" for x, y in points),
                last_x=points[-1][0],
                last_y=points[-1][1],
                percent=percent(history[-1].win.get(entry.pk, 0.0)),
            )
        )
    return chart
