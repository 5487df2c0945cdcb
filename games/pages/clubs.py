"""Server-rendered pages: thin views over selectors."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core import access, panels
from games.forms import WalkInForm
from games.models import Club, Player
from games.rules.errors import BoxcarsError
from games.selectors import head_to_head, matches_of_player, open_disputes
from games.selectors_home import player_home
from games.services import tenancy
from games.services.actors import actor_for_user


def home(request: HttpRequest) -> HttpResponse:
    """The clubs; and for a signed-in player, first every match they have to play now,
    then their check-ins, events, chouette seat and ratings."""
    clubs = Club.objects.annotate(player_count=Count("memberships")).order_by("name")
    me = player_home(request.user)
    if me is not None:
        # each card names its event: one query for all the cards, not one each
        panels.prefetch("match.where", [ym.match for ym in me.your_matches])
    return render(request, "games/home.html", {"clubs": clubs, "me": me})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    players = club.players.order_by("display_name")
    is_director = access.is_director(request.user, club)
    me = Player.objects.filter(user=request.user).first() if request.user.is_authenticated else None
    return render(
        request,
        "games/club_detail.html",
        {
            "club": club,
            "players": players,
            "is_director": is_director,
            # a signed-in person not in the club may join it themself
            "may_join": me is not None and not club.memberships.filter(player=me).exists(),
            "form": WalkInForm() if is_director else None,
            # the reasons are between the players and the directors
            "open_disputes": open_disputes(club=club) if is_director else [],
        },
    )


@login_required
@require_POST
def join_club(request: HttpRequest, slug: str) -> HttpResponse:
    """The signed-in person joins the club themself: their consent to its directors
    entering them in its events (``games.services.tenancy``)."""
    club = get_object_or_404(Club, slug=slug)
    try:
        tenancy.join_club(actor=actor_for_user(request.user), club=club)
    except BoxcarsError as error:
        messages.error(request, str(error.message))
    else:
        messages.success(request, gettext("You are a member of %(name)s.") % {"name": club.name})
    return redirect("club-detail", slug=club.slug)


def player_detail(request: HttpRequest, slug: str) -> HttpResponse:
    player = get_object_or_404(Player.objects.prefetch_related("clubs"), slug=slug)
    matches = list(
        matches_of_player(player)
        .select_related(None)
        .select_related("club", "player1", "player2", "winner")
        .prefetch_related(None)
        .order_by("-created_at", "-id")[:50]
    )
    return render(
        request,
        "games/player_detail.html",
        {"player": player, "matches": matches, "head_to_head": head_to_head(player)},
    )
