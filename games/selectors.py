"""Reads of the games app, shaped so that a page or a list costs a fixed number of queries."""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

from games.models import Game, Match, Player


def matches_queryset() -> QuerySet[Match]:
    """Matches with everything a list or the API detail shows, in a constant number of
    queries (the API reads a match's games as plain values itself)."""
    return Match.objects.select_related("club", "player1", "player2", "winner", "awaiting")


def match_sheet_queryset() -> QuerySet[Match]:
    """Matches with their games as models, for the score sheet pages."""
    return matches_queryset().prefetch_related(
        Prefetch("games", queryset=Game.objects.select_related("winner").order_by("number"))
    )


def matches_of_player(player: Player) -> QuerySet[Match]:
    return matches_queryset().filter(Q(player1=player) | Q(player2=player))


def head_to_head(player: Player) -> list[dict]:
    """Finished matches against each opponent: played, won, lost (one query)."""
    from collections import defaultdict

    from games.models import MatchStatus

    rows = (
        Match.objects.filter(Q(player1=player) | Q(player2=player), status=MatchStatus.FINISHED)
        .select_related("player1", "player2")
        .only(
            "player1",
            "player2",
            "winner_id",
            "player1__display_name",
            "player1__slug",
            "player2__display_name",
            "player2__slug",
        )
    )
    table: dict[int, dict] = defaultdict(lambda: {"played": 0, "won": 0, "lost": 0})
    for match in rows:
        opponent = match.player2 if match.player1_id == player.pk else match.player1
        entry = table[opponent.pk]
        entry["opponent"] = opponent
        entry["played"] += 1
        if match.winner_id == player.pk:
            entry["won"] += 1
        else:
            entry["lost"] += 1
    return sorted(table.values(), key=lambda e: (-e["played"], e["opponent"].display_name))
