"""The event's settings page: capacity and waitlist, required check-in, and the clock
policy for the event and per round, after the event was created.

A thin door over ``events.configure_tournament`` (the API's PATCH): only the settings
that changed are sent, so the clocks can still change once the event runs while the
capacity and check-in stay as the service allows (it refuses them after the start, and
the refusal is shown next to the field; nothing is written).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from core import access
from games.rules.errors import BoxcarsError
from games.services.actors import actor_for_user

from .event_settings_form import EventSettingsForm, settings_summary
from .models import Tournament
from .services import events


def created_message(tournament: Tournament) -> str:
    """The create page's result in words: the event and the settings it runs with."""
    return gettext("%(event)s is created (a draft): %(settings)s.") % {
        "event": tournament.name,
        "settings": settings_summary(tournament),
    }


@login_required
def event_settings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    if not access.is_director(request.user, tournament.club):
        raise Http404
    form = EventSettingsForm.for_event(tournament, request.POST or None)
    if request.method == "POST" and form.is_valid():
        changes = form.changes(tournament)
        try:
            if changes:
                tournament = events.configure_tournament(
                    actor=actor_for_user(request.user), tournament_id=tournament.pk, **changes
                )
        except BoxcarsError as error:
            form.add_error(form.field_for(error.field), error.message)
        else:
            if changes:
                done = gettext("Settings of %(event)s saved: %(settings)s.")
            else:
                done = gettext("Nothing changed in %(event)s: %(settings)s.")
            messages.success(
                request, done % {"event": tournament.name, "settings": settings_summary(tournament)}
            )
            return redirect("tournament-director", slug=tournament.slug)
    status = 400 if form.errors else 200
    return render(
        request,
        "tournaments/settings.html",
        {"tournament": tournament, "settings_form": form},
        status=status,
    )
