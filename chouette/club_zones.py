"""Which chouette pages belong to a club, for the club's time zone (core/club_zones.py)."""

from __future__ import annotations

from typing import Any

from chouette.models import Session
from core.club_zones import register_club_pages
from games.club_zones import zone_of_club

SESSION_PAGES = ["session", "record", "join", "leave", "undo", "close", "settlement", "print"]


def zone_of_session(kwargs: dict[str, Any]) -> str | None:
    """The zone of the club a chouette session (``pk``) is played in."""
    return Session.objects.filter(pk=kwargs["pk"]).values_list("club__time_zone", flat=True).first()


def register() -> None:
    register_club_pages([f"chouette:{name}" for name in SESSION_PAGES], zone_of_session)
    register_club_pages(["chouette:open"], zone_of_club)
