"""Reads of the games app, shaped so that a page or a list costs a fixed number of queries."""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

from games.models import Game, Match, Player


def matches_queryset() -> QuerySet[Match]:
    """Matches with everything a list or detail shows, in a constant number of queries."""
    return Match.objects.select_related(
        "club", "player1", "player2", "winner", "awaiting"
    ).prefetch_related(
        Prefetch("games", queryset=Game.objects.select_related("winner").order_by("number"))
    )


def matches_of_player(player: Player) -> QuerySet[Match]:
    return matches_queryset().filter(Q(player1=player) | Q(player2=player))
