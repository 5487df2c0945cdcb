"""Club seasons: the calendar year by default, or a year from the club's own start day.

A season is named by the year it starts in; a season starting on 1 September 2026 runs
to 31 August 2027 and is labelled "2026-27", a calendar-year season is "2026".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from core.errors import RuleViolation


@dataclass(frozen=True)
class SeasonStart:
    """The day every season starts (day at most 28, so every year has it)."""

    month: int = 1
    day: int = 1

    def __post_init__(self) -> None:
        if not (isinstance(self.month, int) and 1 <= self.month <= 12):
            raise RuleViolation("invalid_season_start", "A month is 1 to 12.", "season_start_month")
        if not (isinstance(self.day, int) and 1 <= self.day <= 28):
            raise RuleViolation(
                "invalid_season_start",
                "A season starts on day 1 to 28 of its month (every year has it).",
                "season_start_day",
            )


def season_of(start: SeasonStart, day: date) -> int:
    """The season (its starting year) ``day`` falls in."""
    return day.year if (day.month, day.day) >= (start.month, start.day) else day.year - 1


def season_bounds(start: SeasonStart, season: int) -> tuple[date, date]:
    """The first and last day of ``season``."""
    first = date(season, start.month, start.day)
    return first, date(season + 1, start.month, start.day) - timedelta(days=1)


def season_label(start: SeasonStart, season: int) -> str:
    """ "2026" for a calendar-year season, "2026-27" for one that spans two years."""
    if (start.month, start.day) == (1, 1):
        return str(season)
    return f"{season}-{(season + 1) % 100:02d}"
