"""What is rated, and the rating lists a match counts on (found, created and locked).

A match of the English game counts on its club's standard list and the site list; a
match of another variant counts only on its club's list of that variant, and only if
the club rates the variant (``Club.rated_variants``; unrated by default). So no
variant's result ever reaches a standard list.

Every write to a list happens under a lock on its ``RatingList`` row; code that needs
several lists takes them in primary-key order, so two writers never wait on each
other crosswise.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet

from games.models import Club, Match, MatchStatus, RatingList, RatingListKind
from games.rules.variants import DEFAULT as STANDARD

#: A list's order: (finished_at, match id).
OrderKey = tuple[datetime, int]


def rated_matches() -> QuerySet[Match]:
    """Finished, rated matches of 1 point or more. Forfeits and voids have their own
    status; unlimited sessions have length 0; chouettes are not matches at all."""
    return Match.objects.filter(
        status=MatchStatus.FINISHED,
        rated=True,
        length__gte=1,
        winner__isnull=False,
        finished_at__isnull=False,
    )


def is_rated(match: Match) -> bool:
    """The same test as ``rated_matches`` for a match already in memory."""
    return (
        match.status == MatchStatus.FINISHED
        and match.rated
        and match.length >= 1
        and match.winner_id is not None
        and match.finished_at is not None
    )


def matches_of_list(rating_list: RatingList) -> QuerySet[Match]:
    """The rated matches a list counts: those of its variant, its club's or (the site
    list, the English game's) every club's."""
    matches = rated_matches().filter(variant=rating_list.variant)
    if rating_list.club_id is not None:
        matches = matches.filter(club_id=rating_list.club_id)
    return matches


def site_list() -> RatingList:
    rating_list, _ = RatingList.objects.get_or_create(
        kind=RatingListKind.SITE, club=None, variant=STANDARD
    )
    return rating_list


def club_list(club: Club, variant: str = STANDARD) -> RatingList:
    rating_list, _ = RatingList.objects.get_or_create(
        kind=RatingListKind.CLUB, club=club, variant=variant
    )
    return rating_list


def rates(club: Club, variant: str) -> bool:
    """Does the club rate matches of ``variant``? The English game always; another
    variant only if the club keeps a list of it."""
    return variant == STANDARD or variant in (club.rated_variants or [])


def lists_of_match(match: Match) -> list[int]:
    """The ids of the lists ``match`` counts on (created the first time), in lock
    order: the club's standard list and the site list for the English game, the
    club's list of the variant if it rates it, else none."""
    if match.variant == STANDARD:
        return sorted([club_list(match.club).pk, site_list().pk])
    if rates(match.club, match.variant):
        return [club_list(match.club, match.variant).pk]
    return []


def lists_of_club(club_id: int) -> list[int]:
    """The ids of the lists a standard match of this club counts on, in lock order."""
    club = Club.objects.get(pk=club_id)
    return sorted([club_list(club).pk, site_list().pk])


def lock_list(rating_list_id: int) -> RatingList:
    """Lock one list's row for the rest of the transaction (and read it fresh)."""
    return (
        RatingList.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=rating_list_id)
    )


def lock_lists_of_match(match_id: int) -> list[RatingList]:
    """Lock the lists the match counts on (creating them the first time), in
    primary-key order so that two updates never wait on each other crosswise: the
    club's standard list and the site list for the English game, the club's list of
    the variant for a variant the club rates, none otherwise."""
    match = Match.objects.filter(pk=match_id).select_related("club").first()
    if match is None:
        return []
    if match.variant == STANDARD:
        wanted = Q(kind=RatingListKind.SITE) | Q(club_id=match.club_id, variant=STANDARD)
        expected = 2
    elif rates(match.club, match.variant):
        wanted = Q(club_id=match.club_id, variant=match.variant)
        expected = 1
    else:
        return []
    locked = list(
        RatingList.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(wanted)
        .order_by("pk")
    )
    if len(locked) < expected:
        lists_of_match(match)
        locked = list(
            RatingList.objects.select_for_update(of=("self",))
            .select_related("club")
            .filter(wanted)
            .order_by("pk")
        )
    return locked


def applied_key(rating_list: RatingList) -> OrderKey | None:
    """The place of the last match applied to the list, or None for an empty list."""
    if rating_list.applied_at is None or rating_list.applied_match_id is None:
        return None
    return (rating_list.applied_at, rating_list.applied_match_id)
