"""The club's room and an event's reserved tables, as pages for directors.

Thin doors over ``tournaments.services.tables`` (the API calls the same services):
the form checks the field's bounds, the service the rules; a refusal is shown next to
the field it names, and nothing is saved.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from core import access
from games.forms import show_error
from games.models import Club
from games.rules.errors import BoxcarsError
from games.services.actors import actor_for_user

from .models import Tournament, TournamentStatus
from .services import tables
from .table_forms import RoomForm, TableRangeForm


@login_required
def room_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's room: its name, its number of tables and the events' reservations."""
    club = get_object_or_404(Club, slug=club_slug)
    if not access.is_director(request.user, club):
        raise Http404
    room = tables.room_of(club)
    form = RoomForm(request.POST or None, initial={"name": room.name, "tables": room.tables})
    if request.method == "POST" and form.is_valid():
        try:
            room = tables.set_room(
                actor=actor_for_user(request.user),
                club=club,
                name=form.cleaned_data["name"],
                tables=form.cleaned_data["tables"],
            )
        except BoxcarsError as error:
            show_error(form, error)
        else:
            messages.success(request, _room_said(room))
            return redirect("tournament-room", club_slug=club.slug)
    events = (
        Tournament.objects.filter(club=club)
        .exclude(status=TournamentStatus.FINISHED)
        .order_by("table_first", "name")
    )
    return render(
        request,
        "tournaments/room.html",
        {"club": club, "room": room, "form": form, "events": events},
    )


def _room_said(room) -> str:
    if room.tables is None:
        return gettext("The room is saved: tables are not limited.")
    return gettext("The room is saved: %(tables)s tables.") % {"tables": room.tables}


@login_required
def reserved_tables(request: HttpRequest, slug: str) -> HttpResponse:
    """The tables reserved for the event (its new matches take them first)."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    if not access.is_director(request.user, tournament.club):
        raise Http404
    form = TableRangeForm(
        request.POST or None,
        initial={"table_first": tournament.table_first, "table_last": tournament.table_last},
    )
    if request.method == "POST" and form.is_valid():
        try:
            saved = tables.reserve_tables(
                actor=actor_for_user(request.user),
                tournament_id=tournament.pk,
                first=form.cleaned_data["table_first"],
                last=form.cleaned_data["table_last"],
            )
        except BoxcarsError as error:
            show_error(form, error)
        else:
            if saved.table_first is None:
                said = gettext("%(event)s reserves no tables: it takes the shared ones.")
            else:
                said = gettext("Tables %(first)s to %(last)s are reserved for %(event)s.")
            messages.success(
                request,
                said % {"event": saved.name, "first": saved.table_first, "last": saved.table_last},
            )
            return redirect("tournament-director", slug=slug)
    return render(
        request,
        "tournaments/reserved_tables.html",
        {"tournament": tournament, "room": tables.room_of(tournament.club), "form": form},
    )
