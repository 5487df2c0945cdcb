"""What the money app shows on the pages ``games`` owns (see :mod:`core.panels`): a
link from the club page to the club's master-points leaderboard, which was reachable
only from an event's money page. Registered by ``money/wiring.py``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from core.panels import register_panel


def club_master_points_link(
    request: HttpRequest | None, club: Any, is_director: bool
) -> dict[str, Any]:
    """The leaderboard is public: every visitor of the club page gets the link."""
    return {"club": club}


def register() -> None:
    register_panel(
        "club.actions",
        "money.master_points",
        template="money/_club_master_points_link.html",
        provider=club_master_points_link,
        order=50,
    )
