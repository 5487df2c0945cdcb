"""A director's club settings page: the club's time zone and language (docs/languages.md)
and the variants it rates (docs/ratings.md).

Thin over ``games.services.clubs.update_club`` (the API's service too): the form reads
the text, the service checks the zone and the language, and a refusal comes back next to its field.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from core import access
from core.club_zones import canonical_time_zones
from games.forms import ClubSettingsForm, show_error
from games.models import Club
from games.rules.errors import BoxcarsError
from games.services import clubs as club_services


@login_required
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's directors set its time zone and language; everyone else is told there
    is no page."""
    club = get_object_or_404(Club, slug=slug)
    if not access.is_director(request.user, club):
        raise Http404
    form = ClubSettingsForm(
        request.POST or None,
        initial={
            "time_zone": club.time_zone,
            "language": club.language,
            "rated_variants": club.rated_variants,
            "rated_variants_sent": True,
        },
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club_services.update_club(
                club=club,
                time_zone=data["time_zone"],
                language=data["language"] or None,
                rated_variants=data["rated_variants"] if data["rated_variants_sent"] else None,
            )
        except BoxcarsError as error:
            show_error(form, error)
        else:
            messages.success(request, gettext("Saved."))
            return redirect("club-detail", slug=club.slug)
    zones = sorted(canonical_time_zones())
    status = 400 if form.errors else 200
    context = {"club": club, "form": form, "zones": zones}
    return render(request, "games/club_settings.html", context, status=status)
