"""Which tournament pages belong to a club, for the club's time zone (core/club_zones.py)."""

from __future__ import annotations

from typing import Any

from core.club_zones import register_club_pages
from games.club_zones import zone_of_club
from tournaments.models import Tournament

EVENT_PAGES = [
    "tournament-detail",
    "tournament-bracket",
    "tournament-standings",
    "tournament-odds",
    "tournament-odds-live",
    "tournament-screen",
    "tournament-screen-live",
    "tournament-round-cards",
    "tournament-director",
    "tournament-walk-in",
    "tournament-register-players",
    "tournament-round-links",
    "tournament-director-action",
]


def zone_of_event(kwargs: dict[str, Any]) -> str | None:
    """The zone of the club running the event named by the page's ``slug``."""
    return (
        Tournament.objects.filter(slug=kwargs.get("slug"))
        .values_list("club__time_zone", flat=True)
        .first()
    )


def register() -> None:
    register_club_pages(EVENT_PAGES, zone_of_event)
    register_club_pages(["tournament-new"], zone_of_club)
