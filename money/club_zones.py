"""Which money pages belong to a club, for the club's time zone (core/club_zones.py)."""

from __future__ import annotations

from core.club_zones import register_club_pages
from games.club_zones import zone_of_club
from tournaments.club_zones import zone_of_event


def register() -> None:
    register_club_pages(
        [
            "money-public",
            "money-director",
            "money-auction",
            "money-payout-sheet",
            "money-ledger-csv",
            "money-master-points",
            "money-action",
            "money-door",
            "money-door-pay",
            "money-door-undo",
        ],
        zone_of_event,
    )
    register_club_pages(["money-club-master-points"], zone_of_club)
