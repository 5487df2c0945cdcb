"""What the chouette app shows on the pages ``games`` owns (see :mod:`core.panels`): the
club page's open sessions and, on a player's home, the chouettes they sit in.
Registered by ``chouette/wiring.py``.

A panel rather than a context variable keeps the dependency one way: ``games`` views
and templates know nothing of chouettes.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from chouette.models import SessionStatus
from chouette.selectors import open_sessions_of, sessions_queryset
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


def my_seats(request: HttpRequest | None, player: Any) -> dict[str, Any] | None:
    """The open chouettes the player sits in (and has not left): their seat is something
    to do now, as a match is. One query; nothing when they sit in none."""
    sessions = list(
        sessions_queryset()
        .filter(status=SessionStatus.OPEN, seats__player=player, seats__left_at__isnull=True)
        .order_by("-played_on", "-id")
    )
    return {"sessions": sessions} if sessions else None


def register() -> None:
    register_panel(
        "home.side",
        "chouette.my_seat",
        template="chouette/_home_seat.html",
        provider=my_seats,
        order=7,
    )
    register_panel(
        "club.below_players",
        "chouette.open_sessions",
        template="chouette/_club_sessions.html",
        provider=open_chouettes,
    )
