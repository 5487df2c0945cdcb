"""Reads of the games app, shaped so that a page or a list costs a fixed number of queries."""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

from core.errors import ConflictError
from games.models import Confirmation, Game, Match, MatchStatus, Player


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


# --- can the next game be entered? (the one rule the API, the pages and the service use)


def next_game_open(match: Match) -> bool:
    """Does the match have a next game at all: it is scheduled or in progress, and was
    not recorded as a final score only (that one a director corrects instead)."""
    return match.status in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS) and not (
        match.final_score_only
    )


def next_game_refusal(match: Match, *, director: bool) -> ConflictError | None:
    """Why this writer may not enter the next game now (None: nothing in the match's
    state stops it; whether the game itself is possible is the scoring rules' say,
    e.g. ``game_after_match_end``)."""
    if match.final_score_only:
        return ConflictError(
            "final_score_recorded",
            "This match was recorded as a final score; a director corrects it.",
        )
    if match.confirmation == Confirmation.DISPUTED and not director:
        return ConflictError(
            "match_disputed", "The match is disputed: the club's directors must resolve it first."
        )
    return None


def can_enter_next_game(match: Match, *, director: bool) -> bool:
    """Offer the entry of the next game to a writer of the match (a player, a director)."""
    return next_game_open(match) and next_game_refusal(match, director=director) is None
