"""What clubdata shows on the pages ``games`` owns (see :mod:`core.panels`): on the
club settings page, the way to the club's data (export, import, spreadsheets)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from core.panels import register_panel


def club_data_link(request: HttpRequest | None, club: Any) -> dict[str, Any]:
    """The settings page is its directors' only, so is the link."""
    return {"club": club}


def register() -> None:
    register_panel(
        "club.settings",
        "clubdata.club_data",
        template="clubdata/_club_data_link.html",
        provider=club_data_link,
    )
