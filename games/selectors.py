"""Reads of the games app, shaped so that a page or a list costs a fixed number of queries."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from core.errors import N_, ConflictError
from games.models import Club, Confirmation, Dispute, Game, Match, MatchClock, MatchStatus, Player


def matches_queryset() -> QuerySet[Match]:
    """Matches with everything a list or the API detail shows, in a constant number of
    queries (the API reads a match's games as plain values itself)."""
    return Match.objects.select_related("club", "player1", "player2", "winner", "awaiting", "clock")


def clock_of(match: Match) -> MatchClock | None:
    """The match's clock: the one its query brought (``select_related("clock")``), or
    one query."""
    try:
        return match.clock
    except MatchClock.DoesNotExist:
        return None


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
            N_("This match was recorded as a final score; a director corrects it."),
        )
    if match.confirmation == Confirmation.DISPUTED and not director:
        return ConflictError(
            "match_disputed",
            N_("The match is disputed: the club's directors must resolve it first."),
        )
    return None


def can_enter_next_game(match: Match, *, director: bool) -> bool:
    """Offer the entry of the next game to a writer of the match (a player, a director)."""
    return next_game_open(match) and next_game_refusal(match, director=director) is None


def open_disputes(*, club: Club | None = None, match_ids: Any = None) -> list[Dispute]:
    """Open disputes, oldest first, with their match, players and club: one query.

    The pages list them for the directors (the club page, an event's dashboard). An
    event names its matches by ``match_ids`` (ids, or a query of them that runs as a
    subquery), so ``games`` knows nothing of what groups them.
    """
    disputes = Dispute.objects.filter(status=Dispute.Status.OPEN).select_related(
        "raised_by", "match__club", "match__player1", "match__player2"
    )
    if club is not None:
        disputes = disputes.filter(match__club=club)
    if match_ids is not None:
        disputes = disputes.filter(match_id__in=match_ids)
    return list(disputes.order_by("created_at", "id"))


def match_disputes(match: Match) -> list[Dispute]:
    """A match's disputes, newest first, with who raised and who resolved each."""
    return list(
        Dispute.objects.filter(match=match)
        .select_related("raised_by", "resolved_by")
        .order_by("-created_at", "-id")
    )


def disputed_match_ids(match_ids: Iterable[int | None]) -> set[int]:
    """Which of these matches have an open dispute (one query; for the bracket)."""
    ids = [pk for pk in match_ids if pk is not None]
    if not ids:
        return set()
    return set(
        Dispute.objects.filter(status=Dispute.Status.OPEN, match_id__in=ids).values_list(
            "match_id", flat=True
        )
    )


def can_undo_final_score(match: Match, side: int | None) -> bool:
    """Whether the player on ``side`` (0, 1; None: not a player) may take back the final
    score they entered: a score-only result still awaiting the opponent's confirmation
    (the service, ``score_entry.undo_last_game``, checks the same under the lock)."""
    return bool(
        match.final_score_only
        and match.confirmation == Confirmation.PENDING
        and side is not None
        and match.awaiting_id == (match.player1_id, match.player2_id)[1 - side]
    )
