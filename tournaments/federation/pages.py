"""The director's federation page: each export's preview, download and send, and the
club's addresses (docs/federations.md). Thin over :mod:`.services`, as the API is;
a refusal comes back as a message (send) or next to its field (addresses)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from core import access
from games.forms import show_error
from games.rules.errors import BoxcarsError
from games.services.actors import actor_for_user

from ..models import Tournament, TournamentStatus
from . import services
from .models import FederationExport
from .rules import abt, matches


class AddressesForm(forms.Form):
    """One address per export; empty clears it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, label in FederationExport.choices:
            self.fields[key] = forms.EmailField(label=label, required=False, max_length=254)


DIVISION_LABELS = {
    "open": gettext_lazy("Open (highest division, factor 1)"),
    "intermediate": gettext_lazy("Intermediate (second division, factor 0.5)"),
    "novice": gettext_lazy("Novice (lower divisions, factor 0.25)"),
}


REASONS = {
    matches.NOT_FINISHED: gettext_lazy("not finished"),
    matches.FORFEIT: gettext_lazy("walkover or forfeit"),
    matches.UNRATED: gettext_lazy("friendly (unrated)"),
    matches.UNLIMITED: gettext_lazy("unlimited session"),
    matches.NO_TRANSCRIPT: gettext_lazy("no match file (a final score only)"),
    matches.TOO_SHORT: gettext_lazy("shorter than 7 points"),
}
"""Why a match is left out, in words (the API answers the codes)."""


def _director_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    if not access.is_director(request.user, tournament.club):
        raise Http404
    return tournament


def _exports(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """Every export's preview (the ABT one with the division asked for)."""
    actor = actor_for_user(request.user)
    chosen = services.options_from(request.GET)
    built: dict[str, Any] = {}
    for key in FederationExport.values:
        built[key] = services.build_export(
            actor=actor, tournament=tournament, export=key, options=chosen
        )
        for row in built[key].summary.get("excluded", []):
            row["reason_text"] = REASONS.get(row["reason"], row["reason"])
    return {"exports": built, "options": chosen}


@login_required
def federation_page(
    request: HttpRequest, slug: str, form: AddressesForm | None = None
) -> HttpResponse:
    tournament = _director_tournament(request, slug)
    addresses = services.addresses_of(tournament.club)
    context: dict[str, Any] = {
        "tournament": tournament,
        "addresses": addresses,
        "confirmed_keys": [k for k, yes in services.confirmed_of(tournament.club).items() if yes],
        "form": form or AddressesForm(initial=addresses),
        "labels": dict(FederationExport.choices),
        "divisions": [(key, DIVISION_LABELS[key]) for key in abt.DIVISIONS],
        "finished": tournament.status == TournamentStatus.FINISHED,
    }
    if context["finished"]:
        try:
            context.update(_exports(request, tournament))
        except BoxcarsError as error:  # a bad division or places in the query string
            messages.error(request, error.message)
            return redirect("tournament-federation", slug=slug)
    status = 400 if form is not None and form.errors else 200
    return render(request, "tournaments/federation.html", context, status=status)


@login_required
def federation_file(request: HttpRequest, slug: str, export: str) -> HttpResponse:
    tournament = _director_tournament(request, slug)
    try:
        built = services.build_export(
            actor=actor_for_user(request.user),
            tournament=tournament,
            export=export,
            options=services.options_from(request.GET),
        )
    except BoxcarsError as error:
        messages.error(request, error.message)
        return redirect("tournament-federation", slug=slug)
    response = HttpResponse(built.content, content_type=built.content_type)
    response["Content-Disposition"] = f'attachment; filename="{built.filename}"'
    return response


@login_required
@require_POST
def federation_send(request: HttpRequest, slug: str, export: str) -> HttpResponse:
    tournament = _director_tournament(request, slug)
    try:
        sent = services.send_export(
            actor=actor_for_user(request.user),
            tournament=tournament,
            export=export,
            options=services.options_from(request.POST),
        )
    except BoxcarsError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            gettext("%(file)s sent to %(address)s.")
            % {"file": sent.export.filename, "address": sent.to},
        )
    return redirect("tournament-federation", slug=slug)


@login_required
@require_POST
def federation_addresses(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _director_tournament(request, slug)
    form = AddressesForm(request.POST)
    if form.is_valid():
        try:
            services.set_addresses(
                actor=actor_for_user(request.user),
                club=tournament.club,
                addresses={key: form.cleaned_data[key] for key in FederationExport.values},
                site=request.build_absolute_uri("/"),
            )
        except BoxcarsError as error:
            show_error(form, error)
        else:
            messages.success(request, gettext("Saved."))
            return redirect("tournament-federation", slug=slug)
    return federation_page(request, slug, form=form)
