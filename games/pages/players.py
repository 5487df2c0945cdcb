"""Director pages for players: a walk-in from the club page, and editing a player.

Thin views over ``games.services.clubs`` (the same services as the API): the form reads
the text, the service decides, and a refusal comes back next to its field with
nothing written.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from core import access
from games import access as player_access
from games.forms import PlayerEditForm, WalkInForm, show_error
from games.models import Club, Player
from games.rules.errors import BoxcarsError
from games.services import clubs as club_services
from games.services.actors import actor_for_user


@login_required
def add_player(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a walk-in to the club: a new player and their membership, in one step."""
    club = get_object_or_404(Club, slug=slug)
    if not access.is_director(request.user, club):
        raise Http404
    form = WalkInForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = club_services.add_walk_in(
                club=club, by=actor_for_user(request.user), **form.cleaned_data
            )
        except BoxcarsError as error:
            show_error(form, error)
        else:
            messages.success(
                request,
                gettext("%(display_name)s is now a member of %(name)s.")
                % {"display_name": player.display_name, "name": club.name},
            )
            return redirect("club-detail", slug=club.slug)
    return render(request, "games/player_add.html", {"club": club, "form": form})


def _managed_clubs(user: User) -> QuerySet[Club]:
    if access.is_site_admin(user):
        return Club.objects.order_by("name")
    return Club.objects.filter(directors=user).order_by("name")


@login_required
def edit_player(request: HttpRequest, slug: str) -> HttpResponse:
    """The person changes their name and e-mail; a director their club's membership
    (and the name and e-mail of a walk-in the club keeps: ``games.access``). The
    person's fields are shown read-only to a director who does not keep them."""
    assert request.user.is_authenticated  # @login_required
    player = get_object_or_404(Player.objects.select_related("user"), slug=slug)
    if not player_access.can_edit_player(request.user, player):
        raise Http404
    clubs = _managed_clubs(request.user)
    initial = {
        "display_name": player.display_name,
        "email": player.email,
        "clubs": list(player.clubs.filter(pk__in=clubs)),
        "public_results": player.public_results,
    }
    form = PlayerEditForm(
        request.POST or None,
        initial=initial,
        clubs=clubs,
        person=player_access.can_edit_person(request.user, player),
    )
    if request.method == "POST" and form.is_valid():
        try:
            club_services.update_player(
                player=player,
                display_name=form.cleaned_data["display_name"],
                email=form.cleaned_data["email"],
                clubs=list(form.cleaned_data["clubs"]),
                public_results=form.cleaned_data["public_results"],
                by=actor_for_user(request.user),
            )
        except BoxcarsError as error:
            show_error(form, error)
        else:
            messages.success(request, gettext("Saved."))
            return redirect("player-detail", slug=player.slug)
    return render(request, "games/player_edit.html", {"player": player, "form": form})
