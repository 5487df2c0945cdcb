"""Template tags other apps' pages use to show chouettes (the club page's open sessions).

A tag rather than a context variable keeps the dependency one way: ``games`` views
know nothing of chouettes; only the template asks.
"""

from __future__ import annotations

from typing import Any

from django import template

from chouette.selectors import open_sessions_of

register = template.Library()


@register.inclusion_tag("chouette/_club_sessions.html")
def open_chouettes(club: Any) -> dict[str, Any]:
    """The club's open chouette sessions, newest first (one query)."""
    return {"sessions": list(open_sessions_of(club).order_by("-played_on", "-id")[:20])}
