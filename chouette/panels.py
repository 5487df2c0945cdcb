"""What the chouette app shows on the pages ``games`` owns (see :mod:`core.panels`): the
club page's open sessions. Registered by ``ChouetteConfig.ready()``.

A panel rather than a context variable keeps the dependency one way: ``games`` views
and templates know nothing of chouettes.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from chouette.selectors import open_sessions_of
from chouette.services.common import can_open as can_open_session
from core.panels import register_panel
from games.services.actors import actor_for_user


def open_chouettes(request: HttpRequest | None, club: Any) -> dict[str, Any]:
    """The club's open chouette sessions, newest first, and a link to open one for
    those who may (the club's directors and its players with an account)."""
    user = getattr(request, "user", None)
    can_open = bool(user and user.is_authenticated) and can_open_session(actor_for_user(user), club)
    return {
        "club": club,
        "can_open": can_open,
        "sessions": list(open_sessions_of(club).order_by("-played_on", "-id")[:20]),
    }


def register() -> None:
    register_panel(
        "club.below_players",
        "chouette.open_sessions",
        template="chouette/_club_sessions.html",
        provider=open_chouettes,
    )
