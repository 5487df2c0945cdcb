"""Which analysis pages belong to a club, for the club's time zone (core/club_zones.py)."""

from __future__ import annotations

from core.club_zones import register_club_pages
from games.club_zones import zone_of_club, zone_of_match


def register() -> None:
    register_club_pages(["match-analysis-page"], zone_of_match)
    register_club_pages(["club-pr"], zone_of_club)
