"""What a signed-in player's home page shows about them, in a fixed number of queries:
every match they have to play now (in every event and outside events), and their
ratings. (Whatever other apps add, such as the player's events, check-ins and chouette
seat, comes from the panels they register in :mod:`core.panels`.)"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Case, IntegerField, Q, Value, When

from games.models import Confirmation, Match, MatchStatus, Player, Rating
from games.selectors import matches_queryset


@dataclass(frozen=True)
class YourMatch:
    """The match to show first, from the player's side of the board."""

    match: Match
    opponent: Player
    my_score: int
    their_score: int
    to_confirm: bool  # finished, and the opponent waits for this player's confirmation

    @property
    def table(self) -> object:
        # ``Match.table`` arrives with the table numbers; until then there is none.
        return self.match.table


@dataclass(frozen=True)
class PlayerHome:
    player: Player
    your_matches: list[YourMatch]
    ratings: list[Rating]


def your_matches(player: Player) -> list[YourMatch]:
    """Every open match of the player, in one query: a player in a Swiss and a club
    night at once has a match in each, and both must show. The live ones first (in
    progress, or awaiting this player's confirmation), then the scheduled ones, oldest
    first (the one the evening is waiting for)."""
    now = Q(status=MatchStatus.IN_PROGRESS) | Q(confirmation=Confirmation.PENDING, awaiting=player)
    matches = (
        matches_queryset()
        .filter(Q(player1=player) | Q(player2=player))
        .filter(now | Q(status=MatchStatus.SCHEDULED))
        .annotate(
            live=Case(When(now, then=Value(0)), default=Value(1), output_field=IntegerField())
        )
        .order_by("live", "created_at", "id")
    )
    return [_from_my_side(match, player) for match in matches]


def _from_my_side(match: Match, player: Player) -> YourMatch:
    mine = match.side_of(player) == 0
    return YourMatch(
        match=match,
        opponent=match.player2 if mine else match.player1,
        my_score=match.score1 if mine else match.score2,
        their_score=match.score2 if mine else match.score1,
        to_confirm=match.confirmation == Confirmation.PENDING and match.awaiting_id == player.pk,
    )


def player_home(user: User | AnonymousUser) -> PlayerHome | None:
    """None for a visitor or an account that plays as nobody (the page stays as it is)."""
    if not user.is_authenticated:
        return None
    player = Player.objects.filter(user_id=user.pk).first()
    if player is None:
        return None
    ratings = list(
        Rating.objects.filter(player=player)
        .select_related("rating_list__club")
        .order_by("rating_list__club__name", "rating_list_id")
    )
    return PlayerHome(player=player, your_matches=your_matches(player), ratings=ratings)
