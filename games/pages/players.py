"""Director pages for players: a walk-in from the club page, and editing a player.

Thin views over ``games.services.player_addresses`` (the same services as the API: the
write through ``games.services.clubs``, then one link to a new address): the form reads
the text, the service decides, and a refusal comes back next to its field with
nothing written. The edit page says, per club, whether the player's address waits for
its owner's consent, with a button that sends the link again.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from core import access
from games import access as player_access
from games.forms import PlayerEditForm, WalkInForm, show_error
from games.models import Club, Player
from games.rules.errors import BoxcarsError
from games.selectors_addresses import CONFIRMED, NOT_ASKED, WAITING, address_states
from games.services import player_addresses
from games.services.actors import actor_for_user

STATE_WORDS = {
    CONFIRMED: gettext_lazy("confirmed: the club may mail it"),
    WAITING: gettext_lazy(
        "waiting for its owner to follow the link mailed to it: nothing else is mailed "
        "to it until then (hand them their slips)"
    ),
    NOT_ASKED: gettext_lazy(
        "not confirmed, and no link sent yet: send one, and hand them their slips meanwhile"
    ),
}


def tell_link(request: HttpRequest, link: player_addresses.Asked) -> None:
    """Say what became of a new address's link (nothing when there was none to send)."""
    if link.state == player_addresses.LINK_SENT:
        messages.info(request, link.detail)
    elif link.state in (player_addresses.LINK_HELD, player_addresses.LINK_FAILED):
        messages.warning(request, link.detail)


@login_required
def add_player(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a walk-in to the club: a new player and their membership, in one step."""
    club = get_object_or_404(Club, slug=slug)
    if not access.is_director(request.user, club):
        raise Http404
    form = WalkInForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            saved = player_addresses.add_walk_in(
                club=club,
                by=actor_for_user(request.user),
                site=request.build_absolute_uri("/"),
                **form.cleaned_data,
            )
        except BoxcarsError as error:
            show_error(form, error)
        else:
            player = saved.player
            tell_link(request, saved.link)
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
            saved = player_addresses.update_player(
                player=player,
                display_name=form.cleaned_data["display_name"],
                email=form.cleaned_data["email"],
                clubs=list(form.cleaned_data["clubs"]),
                public_results=form.cleaned_data["public_results"],
                by=actor_for_user(request.user),
                site=request.build_absolute_uri("/"),
            )
        except BoxcarsError as error:
            show_error(form, error)
        else:
            messages.success(request, gettext("Saved."))
            tell_link(request, saved.link)
            return redirect("player-detail", slug=player.slug)
    return render(
        request,
        "games/player_edit.html",
        {"player": player, "form": form, "addresses": _address_rows(player, clubs)},
    )


def _address_rows(player: Player, clubs: QuerySet[Club]) -> list[dict[str, object]]:
    """Per club of the player's that the viewer directs: the address's state in words."""
    if not player.email:
        return []
    rows = []
    for club in clubs.filter(memberships__player=player):
        state = address_states(club, [player])[player.pk]
        rows.append(
            {
                "club": club,
                "state": state,
                "words": STATE_WORDS[state],
                "resend": state != CONFIRMED,
            }
        )
    return rows


@require_POST
@login_required
def resend_address_link(request: HttpRequest, slug: str, club_slug: str) -> HttpResponse:
    """The director's button on the edit page: the club's link to the address again."""
    player = get_object_or_404(Player, slug=slug)
    club = get_object_or_404(Club, slug=club_slug)
    if not access.is_director(request.user, club):
        raise Http404
    try:
        asked = player_addresses.resend_link(
            actor=actor_for_user(request.user),
            club=club,
            player_id=player.pk,
            site=request.build_absolute_uri("/"),
        )
    except BoxcarsError as error:
        messages.error(request, str(error.message))
    else:
        tell_link(request, asked)
    return redirect("player-edit", slug=player.slug)
