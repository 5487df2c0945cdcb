"""A round's score links for the director: the matches of one round, on the games
app's link sheet (QR codes, copy, print as slips, email)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse

from games.models import Match
from games.pages.score_links import link_sheet_page

from .models import Round, Tournament


def round_label(round_: Round) -> str:
    """ "Main round 2", "Swiss round 3", "Round robin group 1 round 2"."""
    return str(round_)


def _table_order(match: Match) -> tuple[bool, int, str]:
    """Numbered tables first, in number order (``Match.table`` may not exist yet)."""
    table = match.table
    return (table is None, table if isinstance(table, int) else 0, str(table or ""))


@login_required
def round_links(request: HttpRequest, slug: str, round_id: int) -> HttpResponse:
    """Every match of the round in table order (then bracket order); only the club's
    directors get the sheet (others: 403)."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    round_ = get_object_or_404(
        Round.objects.select_related("stage"), pk=round_id, stage__tournament=tournament
    )
    matches = list(
        Match.objects.filter(tournament_pairing__round=round_)
        .select_related("club", "player1", "player2")
        .order_by("tournament_pairing__slot")
    )
    matches.sort(key=_table_order)  # stable: bracket order within equal tables
    heading = f"{tournament.name}, {round_label(round_)}"
    return link_sheet_page(
        request,
        club=tournament.club,
        matches=matches,
        heading=heading,
        back=("the director's page", reverse("tournament-director", args=[tournament.slug])),
        title=f"Score links: {heading}",
    )
