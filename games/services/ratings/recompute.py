"""Recomputing a list: all of it (``from_match_id`` None) or from one changed match on.

A recomputation reads the list's matches in one ordered stream, replays them with
the pure rules (``games.rules.rating_replay``, no database) in batches, and writes
the history as it goes. A full recomputation writes into a fresh partition swapped
in at the end (``history.FreshPartition``), so a million-match list costs a bulk
``COPY`` and four index builds, not two million deletes and index updates. All of
it happens in one transaction under the list's lock: readers see the old list or
the new one, and an incremental update waiting on the lock applies its match to the
new list afterwards (see ``apply.apply_match``), as a serial order would.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.models import Club, Match, Rating, RatingChange, RatingList
from games.rules.rating_replay import MatchRow, Standing, replay

from .history import ListHistory, write_standings
from .lists import (
    OrderKey,
    club_list,
    is_rated,
    lists_of_match,
    lock_list,
    matches_of_list,
    site_list,
)

Progress = Callable[[int, int, str], None]

#: Matches per batch: read, replayed and written together.
BATCH = 20_000
DRIFT_TOLERANCE = 1e-6


@dataclass
class RecomputeReport:
    rating_list_id: int
    label: str
    from_scratch: bool
    matches: int = 0
    players: int = 0
    drifted_players: int = 0
    max_drift: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "list": self.rating_list_id,
            "label": self.label,
            "from_scratch": self.from_scratch,
            "matches": self.matches,
            "players": self.players,
            "drifted_players": self.drifted_players,
            "max_drift": round(self.max_drift, 6),
        }


def _after(key: OrderKey) -> Q:
    at, match_id = key
    return Q(at__gt=at) | Q(at=at, match_id__gte=match_id)


def _cut_for(rating_list: RatingList, match_id: int) -> OrderKey | None:
    """Where a changed match's effect begins: its earliest place on the list, before or
    after the change (a match undone and finished again has moved to the end)."""
    keys: list[OrderKey] = []
    first = (
        RatingChange.objects.filter(rating_list=rating_list, match_id=match_id)
        .values_list("at", "match_id")
        .first()
    )
    if first is not None:
        keys.append(first)
    match = Match.objects.filter(pk=match_id).first()
    if match is not None and is_rated(match):
        keys.append((match.finished_at, match.pk))  # type: ignore[arg-type]
    return min(keys) if keys else None


def _standings_at(rating_list: RatingList, cut: OrderKey) -> tuple[dict[int, Standing], set[int]]:
    """Every player's standing just before ``cut``, from the stored ratings and the
    history rows at or after it (which carry the rating and experience before)."""
    standings = {
        r.player_id: Standing(
            rating=r.rating,
            experience=r.experience,
            matches=r.matches_played,
            last_change=r.last_change,
            last_played_at=r.last_played_at,
        )
        for r in Rating.objects.filter(rating_list=rating_list)
    }
    later = RatingChange.objects.filter(_after(cut), rating_list=rating_list).order_by(
        "player_id", "at", "match_id"
    )
    affected: dict[int, int] = {}
    for player_id, before, exp_before in later.values_list(
        "player_id", "rating_before", "experience_before"
    ):
        if player_id not in affected:
            affected[player_id] = 0
            standings[player_id].rating = before
            standings[player_id].experience = exp_before
        affected[player_id] += 1
    if affected:
        earlier = {}
        for players in _batches(list(affected)):
            for player_id, change, at in (
                RatingChange.objects.filter(rating_list=rating_list, player_id__in=players)
                .exclude(_after(cut))
                .order_by("player_id", "at", "match_id")
                .values_list("player_id", "change", "at")
            ):
                earlier[player_id] = (change, at)
        for player_id, count in affected.items():
            s = standings[player_id]
            s.matches -= count
            s.last_change, s.last_played_at = earlier.get(player_id, (0.0, None))
            if s.matches == 0:
                del standings[player_id]  # starts again from the list's initial rating
    return standings, set(affected)


@transaction.atomic
def recompute_list(
    *,
    rating_list_id: int,
    from_match_id: int | None = None,
    progress: Progress | None = None,
) -> RecomputeReport:
    """Replay a list's rated matches in order: all of them (``from_match_id`` None,
    reporting any drift from the stored ratings), or from one changed match on.

    One transaction under the list's lock: readers see the old list or the new one.
    """
    rating_list = lock_list(rating_list_id)
    report = RecomputeReport(
        rating_list_id=rating_list.pk, label=str(rating_list), from_scratch=from_match_id is None
    )
    matches = matches_of_list(rating_list)
    if from_match_id is None:
        stored = dict(
            Rating.objects.filter(rating_list=rating_list).values_list("player_id", "rating")
        )
        history = ListHistory.for_list(rating_list.pk)
        history.start()
        standings: dict[int, Standing] = {}
        touched: set[int] = set()
    else:
        cut = _cut_for(rating_list, from_match_id)
        if cut is None:
            return report
        standings, touched = _standings_at(rating_list, cut)
        RatingChange.objects.filter(_after(cut), rating_list=rating_list).delete()
        history = ListHistory(rating_list.pk)  # appends after the cut, in place
        matches = matches.filter(Q(finished_at__gt=cut[0]) | Q(finished_at=cut[0], pk__gte=cut[1]))
    total = matches.count()
    with paused_cyclic_gc():
        done, last_key = _replay_and_write(
            rating_list, matches, history, standings, touched, total, progress
        )
    if from_match_id is None:
        history.finish()
        Rating.objects.filter(rating_list=rating_list).delete()
        write_standings(rating_list, standings)
        drifts = [
            abs(standings[p].rating - stored.get(p, rating_list.initial_rating))
            if p in standings
            else abs(stored[p] - rating_list.initial_rating)
            for p in set(stored) | set(standings)
        ]
        drifts = [d for d in drifts if d > DRIFT_TOLERANCE]
        report.drifted_players = len(drifts)
        report.max_drift = max(drifts, default=0.0)
    else:
        for players in _batches(list(touched)):
            Rating.objects.filter(rating_list=rating_list, player_id__in=players).delete()
        write_standings(rating_list, {p: standings[p] for p in touched if p in standings})
    if last_key is None:
        last_key = (
            RatingChange.objects.filter(rating_list=rating_list)
            .order_by("-at", "-match_id")
            .values_list("at", "match_id")
            .first()
        )
    RatingList.objects.filter(pk=rating_list.pk).update(
        applied_at=last_key[0] if last_key else None,
        applied_match_id=last_key[1] if last_key else None,
        recomputed_at=timezone.now(),
    )
    report.matches = done
    report.players = sum(1 for s in standings.values() if s.matches > 0)
    if progress is not None:
        progress(done, total, f"{done} matches replayed")
    return report


def match_batches(matches: QuerySet[Match], size: int = BATCH) -> Iterator[list[MatchRow]]:
    """The replay's input in list order, in lists of ``size`` matches.

    On PostgreSQL the rows come from a server-side cursor in binary format, read
    straight by psycopg (Django's own iterator loads each finish time through a
    Python-level time zone loader, which cost more than the FIBS arithmetic), and for
    a club's list from the partial index that holds them in this order with every
    column read (``match_rated_in_list_order``: no sort of a million rows, no heap
    visits once the table is vacuumed); the caller must be in a transaction, as the
    recomputation is.
    """
    ordered = matches.order_by("finished_at", "pk").values_list(
        "pk", "player1_id", "player2_id", "winner_id", "length", "finished_at"
    )
    if connection.vendor != "postgresql":
        yield from batches(ordered.iterator(chunk_size=size), size)
        return
    sql, params = ordered.query.sql_with_params()
    connection.ensure_connection()
    with connection.connection.cursor(name="rating_replay_matches", binary=True) as cursor:
        cursor.itersize = size
        cursor.execute(sql, params)
        while batch := cursor.fetchmany(size):
            yield batch


def batches(rows: Iterable[MatchRow], size: int = BATCH) -> Iterator[list[MatchRow]]:
    """An ordered match stream cut into lists of ``size``."""
    batch: list[MatchRow] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _replay_and_write(
    rating_list: RatingList,
    matches: QuerySet[Match],
    history: ListHistory,
    standings: dict[int, Standing],
    touched: set[int],
    total: int,
    progress: Progress | None,
) -> tuple[int, OrderKey | None]:
    """Stream the matches through ``replay`` and write the history batch by batch."""
    last_key: OrderKey | None = None
    done = 0
    initial, policy = rating_list.initial_rating, rating_list.boost
    for batch in match_batches(matches):
        for row in batch:
            touched.add(row[1])
            touched.add(row[2])
        changes = replay(
            batch, standings, rating_list_id=rating_list.pk, initial=initial, policy=policy
        )
        history.write(changes)
        done += len(batch)
        last_key = (batch[-1][5], batch[-1][0])
        if progress is not None:
            progress(done, total, f"{done} of {total} matches replayed")
    return done, last_key


@contextlib.contextmanager
def paused_cyclic_gc() -> Iterator[None]:
    """Replaying a big list allocates millions of small tuples and no cycles; Python's
    cyclic collector would rescan them all again and again (it tripled the time of a
    million-match replay). Reference counting still frees everything."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def recompute_after_change(*, match_id: int, progress: Progress | None = None) -> list[dict]:
    """A result changed (corrected, voided, undone): replay each of its lists from it."""
    match = Match.objects.filter(pk=match_id).select_related("club").first()
    if match is None:
        return []
    reports = []
    for list_id in lists_of_match(match):
        reports.append(
            recompute_list(rating_list_id=list_id, from_match_id=match_id, progress=progress)
        )
    return [r.as_dict() for r in reports]


def recompute_all_lists(*, progress: Progress | None = None) -> list[dict]:
    """Every list from scratch, each in its own transaction; the reports carry drift."""
    for club in Club.objects.filter(matches__isnull=False).distinct():
        club_list(club)
        for variant in club.rated_variants or []:
            club_list(club, variant)
    site_list()
    reports = []
    ids = list(RatingList.objects.order_by("pk").values_list("pk", flat=True))
    for index, list_id in enumerate(ids, start=1):
        reports.append(recompute_list(rating_list_id=list_id).as_dict())
        if progress is not None:
            progress(index, len(ids), f"{index} of {len(ids)} lists recomputed")
    return reports


IN_BATCH = 20_000
"""Keys per ``IN (...)`` list: the server binds each as a parameter (settings'
prepared statements), and a statement takes at most 65,535."""


def _batches(keys: list[int]) -> list[list[int]]:
    return [keys[i : i + IN_BATCH] for i in range(0, len(keys), IN_BATCH)]
