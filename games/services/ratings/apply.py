"""Applying one finished match to its lists: incremental, exactly once per list.

Order. Every list applies its matches in one order: by ``finished_at``, then by match
id. An incremental update that would break that order (a match that finished before
the last one applied, e.g. two matches finishing together and their tasks running in
the other order) is turned into a recomputation from that match on, so the list is
always what a serial replay of its matches would give.

Exactly once. All writes to a list happen under a lock on its ``RatingList`` row
(lists taken in primary-key order), and ``RatingChange`` has a unique constraint on
(list, match, player): a task delivered twice finds the match applied and does
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from games.models import Match, Rating, RatingChange, RatingList
from games.rules.rating_replay import HISTORY_COLUMNS, MatchRow, Standing, replay

from .lists import OrderKey, applied_key, is_rated, lock_lists_of_match
from .recompute import recompute_list


@dataclass
class ApplyReport:
    match_id: int
    applied: list[int] = field(default_factory=list)  # list ids
    already_applied: list[int] = field(default_factory=list)
    replayed: list[int] = field(default_factory=list)  # out of order: recomputed from it
    rated: bool = True


@transaction.atomic
def apply_match(*, match_id: int) -> ApplyReport:
    """Apply one finished match to its club's list and the site list, once.

    Safe to call any number of times: a list that has the match does nothing; a match
    no longer rated (voided meanwhile) is skipped; a match older than the last one
    applied triggers an in-order recomputation of that list from it. The common case
    (the newest match) costs a fixed handful of queries for both lists together.
    """
    report = ApplyReport(match_id=match_id)
    if not Match.objects.filter(pk=match_id, rated=True).exists():
        # an unrated match (a friendly event's) never counts: no list is locked for it.
        # ``rated`` is fixed when a match is made, so reading it unlocked is safe; the
        # site list's lock serialises every club's rated results, and a championship
        # that rates nothing should not queue behind it
        report.rated = False
        return report
    locked = lock_lists_of_match(match_id)
    match = Match.objects.filter(pk=match_id).first()  # read under the locks
    if match is None or not is_rated(match):
        report.rated = False
        return report
    key: OrderKey = (match.finished_at, match.pk)  # type: ignore[assignment]
    appendable = []
    for rating_list in locked:
        applied = applied_key(rating_list)
        if applied is not None and key <= applied:
            if RatingChange.objects.filter(rating_list=rating_list, match_id=match.pk).exists():
                report.already_applied.append(rating_list.pk)
            else:
                recompute_list(rating_list_id=rating_list.pk, from_match_id=match.pk)
                report.replayed.append(rating_list.pk)
            continue
        appendable.append(rating_list)
    if appendable:
        _append(appendable, match)
        report.applied.extend(rl.pk for rl in appendable)
    return report


def _append(lists: list[RatingList], match: Match) -> None:
    """The common case: the match is the newest on these lists; two ratings move on each."""
    players = (match.player1_id, match.player2_id)
    rows = {
        (r.rating_list_id, r.player_id): r
        for r in Rating.objects.filter(rating_list__in=lists, player_id__in=players)
    }
    row: MatchRow = (
        match.pk,
        match.player1_id,
        match.player2_id,
        match.winner_id,  # type: ignore[assignment]
        match.length,
        match.finished_at,
    )
    changes: list[tuple] = []
    ratings: list[Rating] = []
    for rating_list in lists:
        standings = {
            pid: Standing(
                rating=r.rating,
                experience=r.experience,
                matches=r.matches_played,
                last_change=r.last_change,
                last_played_at=r.last_played_at,
            )
            for (list_id, pid), r in rows.items()
            if list_id == rating_list.pk
        }
        changes.extend(
            replay(
                [row],
                standings,
                rating_list_id=rating_list.pk,
                initial=rating_list.initial_rating,
                policy=rating_list.boost,
            )
        )
        ratings.extend(
            Rating(
                rating_list_id=rating_list.pk,
                player_id=pid,
                rating=s.rating,
                experience=s.experience,
                matches_played=s.matches,
                last_change=s.last_change,
                last_played_at=s.last_played_at,
            )
            for pid, s in standings.items()
        )
    RatingChange.objects.bulk_create(
        [RatingChange(**dict(zip(HISTORY_COLUMNS, c, strict=True))) for c in changes]
    )
    Rating.objects.bulk_create(
        ratings,
        update_conflicts=True,
        unique_fields=["rating_list", "player"],
        update_fields=["rating", "experience", "matches_played", "last_change", "last_played_at"],
    )
    RatingList.objects.filter(pk__in=[rl.pk for rl in lists]).update(
        applied_at=match.finished_at, applied_match_id=match.pk
    )
