"""Which games pages belong to a club, for the club's time zone (core/club_zones.py)."""

from __future__ import annotations

from typing import Any

from core.club_zones import register_club_pages
from games.models import Club, Match


def zone_of_club(kwargs: dict[str, Any]) -> str | None:
    """The zone of the club named by the page's ``slug`` (or ``club_slug``)."""
    slug = kwargs.get("club_slug") or kwargs.get("slug")
    return Club.objects.filter(slug=slug).values_list("time_zone", flat=True).first()


def zone_of_match(kwargs: dict[str, Any]) -> str | None:
    """The zone of the club a match (``pk``) was played in."""
    return Match.objects.filter(pk=kwargs["pk"]).values_list("club__time_zone", flat=True).first()


def register() -> None:
    register_club_pages(
        ["club-detail", "club-add-player", "club-ratings", "club-settings"], zone_of_club
    )
    register_club_pages(
        [
            "match-detail",
            "match-entry",
            "match-live",
            "match-dispute",
            "match-resolve",
            "match-card",
            "match-links",
            "match-correct",
        ],
        zone_of_match,
    )
