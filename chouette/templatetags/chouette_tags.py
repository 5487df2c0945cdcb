"""Template tags other apps' pages use to show chouettes (the club page's open sessions).

A tag rather than a context variable keeps the dependency one way: ``games`` views
know nothing of chouettes; only the template asks.
"""

from __future__ import annotations

from typing import Any

from django import template

from chouette.selectors import open_sessions_of
from chouette.services.common import can_open as can_open_session
from games.services.actors import actor_for_user

register = template.Library()


@register.inclusion_tag("chouette/_club_sessions.html", takes_context=True)
def open_chouettes(context: dict[str, Any], club: Any) -> dict[str, Any]:
    """The club's open chouette sessions, newest first, and a link to open one for
    those who may (the club's directors and its players with an account)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    can_open = bool(user and user.is_authenticated) and can_open_session(actor_for_user(user), club)
    return {
        "club": club,
        "can_open": can_open,
        "sessions": list(open_sessions_of(club).order_by("-played_on", "-id")[:20]),
    }
