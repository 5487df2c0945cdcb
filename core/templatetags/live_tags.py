"""Template tags of the live pages (docs/live.md, ``static/js/live.js``).

``{% live_root "tournament" tournament.pk %}`` gives a live root's attributes (the
stream of those channels, the polling period), ``{% live_part "bracket-live" %}`` a
live part's (refetch this page and swap in the element of that id, on a notice or a
poll), and ``{% live_badge %}`` the "offline" notice shown while polling.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from core import live

register = template.Library()

#: Seconds between two polls while the live connection is down.
POLL_SECONDS = 5


@register.simple_tag
def live_root(*kinds_and_ids: Any) -> SafeString:
    """Attributes of the element holding the live connection: pairs of a channel kind
    and an object id (``"tournament", 5, "club", 2``)."""
    pairs = zip(kinds_and_ids[::2], kinds_and_ids[1::2], strict=True)
    query = urlencode([("channel", live.channel(str(k), int(pk))) for k, pk in pairs])
    return format_html(
        'data-live-root data-live-state="connecting" hx-ext="sse" sse-connect="{}?{}" '
        'data-live-poll="{}"',
        reverse("live-stream"),
        query,
        POLL_SECONDS,
    )


@register.simple_tag(takes_context=True)
def live_part(context: dict[str, Any], element_id: str) -> SafeString:
    """Attributes of a part that refetches the page it is on and swaps itself in.

    ``hx-disinherit`` keeps the part's request attributes off the htmx elements
    inside it (the odds panel has its own)."""
    request = context["request"]
    return format_html(
        'id="{}" data-live-part hx-get="{}" hx-trigger="sse:changed, live:poll" '
        'hx-select="#{}" hx-swap="outerHTML" hx-disinherit="*"',
        element_id,
        request.get_full_path(),
        element_id,
    )


@register.simple_tag
def live_badge() -> str:
    """The notice shown while the page polls instead of listening."""
    return render_to_string("_live_badge.html", {"seconds": POLL_SECONDS})
