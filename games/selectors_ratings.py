"""Reads of the rating lists: a list page, a player's history, a preview. Each costs a
fixed number of queries, whatever the size of the list or the history."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from games.models import Club, Player, Rating, RatingChange, RatingList, RatingListKind
from games.rules import fibs, variants


def find_list(club: Club | None, variant: str = "standard") -> RatingList | None:
    """The club's list of ``variant`` (the English game's by default), or the site list
    without a club; None if nothing was rated yet."""
    if club is None:
        return RatingList.objects.filter(kind=RatingListKind.SITE).first()
    return RatingList.objects.select_related("club").filter(club=club, variant=variant).first()


def variant_lists(club: Club) -> list[str]:
    """The variants the club keeps a list of besides the English game's, in the
    registry's order: the ratings page offers each."""
    rated = set(club.rated_variants or [])
    return [key for key, _ in variants.match_choices() if key in rated]


def ranked_ratings(rating_list: RatingList | None) -> QuerySet[Rating]:
    """The list's ratings, best first (ties by name), with the player joined."""
    if rating_list is None:
        return Rating.objects.none()
    return (
        Rating.objects.filter(rating_list=rating_list)
        .select_related("player")
        .order_by("-rating", "player__display_name", "player_id")
    )


def player_history(rating_list: RatingList | None, player: Player) -> QuerySet[RatingChange]:
    """Every change of the player's rating on the list, oldest first, with the opponent."""
    if rating_list is None:
        return RatingChange.objects.none()
    return (
        RatingChange.objects.filter(rating_list=rating_list, player=player)
        .select_related("opponent")
        .order_by("at", "match_id")
    )


def lists_of_player(player: Player) -> list[RatingList]:
    """The lists the player has a rating on: the site list first, then clubs by name."""
    lists = list(
        RatingList.objects.filter(ratings__player=player).select_related("club").distinct()
    )
    return sorted(lists, key=lambda rl: (rl.club_id is not None, str(rl)))


@dataclass(frozen=True)
class Standing:
    rating: float
    experience: int


def standing_of(rating_list: RatingList | None, player: Player, initial: float) -> Standing:
    rating = (
        Rating.objects.filter(rating_list=rating_list, player=player).first()
        if rating_list is not None
        else None
    )
    if rating is None:
        return Standing(rating=initial, experience=0)
    return Standing(rating=rating.rating, experience=rating.experience)


@dataclass(frozen=True)
class Preview:
    """Each player's chance to win and what each outcome would do to both ratings."""

    a: Standing
    b: Standing
    p_a: float
    p_b: float
    if_a_wins: fibs.RatingChange
    if_b_wins: fibs.RatingChange


def preview(*, a: Standing, b: Standing, length: int, policy: str) -> Preview:
    p_a, p_b = fibs.win_probabilities(a.rating, b.rating, length)
    boost = fibs.BoostPolicy(policy)
    return Preview(
        a=a,
        b=b,
        p_a=p_a,
        p_b=p_b,
        if_a_wins=fibs.rating_change(
            winner_rating=a.rating,
            loser_rating=b.rating,
            winner_experience=a.experience,
            loser_experience=b.experience,
            length=length,
            policy=boost,
        ),
        if_b_wins=fibs.rating_change(
            winner_rating=b.rating,
            loser_rating=a.rating,
            winner_experience=b.experience,
            loser_experience=a.experience,
            length=length,
            policy=boost,
        ),
    )
