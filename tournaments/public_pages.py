"""The public result pages: the events index (``/tournaments/``) and the sitemap of
published events. Results that stay: a finished event is found from the home page, its
club and its players, and search engines may index it."""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from tournaments import selectors_public
from tournaments.index_form import EventIndexForm
from tournaments.models import Tournament, TournamentStatus


def tournament_index(request: HttpRequest) -> HttpResponse:
    form = EventIndexForm(
        request.GET or None,
        clubs=selectors_public.index_clubs(),
        years=selectors_public.index_years(),
    )
    filters = form.filters() if form.is_bound else {}
    page = selectors_public.event_index(page=request.GET.get("page", 1), **filters)  # type: ignore[arg-type]
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "tournaments/index.html",
        {"form": form, "page": page, "query": query.urlencode()},
    )


class EventSitemap(Sitemap):
    """Running and finished events (their pages and results); upcoming ones change
    too often to be worth a crawler's visit."""

    changefreq = "daily"

    def items(self) -> list[Tournament]:
        return list(
            selectors_public.public_events()
            .filter(status__in=[TournamentStatus.RUNNING, TournamentStatus.FINISHED])
            .order_by("-id")[:50000]
        )


class IndexSitemap(Sitemap):
    """The events index, where a visitor who knows only the site finds every event."""

    changefreq = "daily"

    def items(self) -> list[str]:
        return ["tournament-index"]

    def location(self, item: str) -> str:
        return reverse(item)


SITEMAPS = {"events": EventSitemap, "index": IndexSitemap}
