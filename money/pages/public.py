"""The public payouts page of an event (what the club chose to publish)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core import access
from money import selectors

from .common import event_lots


def public_money(request: HttpRequest, slug: str) -> HttpResponse:
    """Payouts and the Calcutta's lots, prices and owners, as far as the club publishes."""
    tournament = selectors.event_by_slug(slug)
    view = selectors.money_view(tournament)
    director = access.is_site_admin(request.user) or access.is_director(
        request.user, tournament.club
    )
    user = request.user
    mine = next(
        (
            p
            for p in view.people
            if p.player is not None and user.is_authenticated and p.player.user_id == user.pk
        ),
        None,
    )
    return render(
        request,
        "money/public.html",
        {
            "tournament": tournament,
            "view": view,
            "summary": view.pool_summary() if (director or view.club.publish_payouts) else None,
            "lots": event_lots(view) if (director or view.club.publish_calcutta) else None,
            "is_director": director,
            "mine": mine,
        },
    )
