"""Keeping the rating lists: apply a finished match, recompute a list, import a history.

Order. Every list applies its matches in one order: by ``finished_at``, then by match
id. An incremental update that would break that order (a match that finished before
the last one applied, e.g. two matches finishing together and their tasks running in
the other order) is turned into a recomputation from that match on, so the list is
always what a serial replay of its matches would give.

Exactly once. All writes to a list happen under a lock on its ``RatingList`` row
(lists taken in primary-key order), and ``RatingChange`` has a unique constraint on
(list, match, player): a task delivered twice finds the match applied and does
nothing.

Scale. A recomputation reads the list's matches in one ordered stream, replays them
with the pure FIBS rules (``replay``, no database), and writes the history in
batches (``COPY`` on PostgreSQL), so the full recomputation of a million matches is
bounded by the database's bulk speed, not by per-row queries.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from typing import Any

from django.db import connection, transaction
from django.db.models import CharField, Q, QuerySet
from django.db.models.functions import Cast
from django.utils import timezone

from games import access
from games.models import (
    Club,
    Match,
    MatchSource,
    MatchStatus,
    Player,
    Rating,
    RatingChange,
    RatingList,
    RatingListKind,
)
from games.rules import fibs
from games.rules.errors import NotAllowed
from games.rules.results_file import parse_results

Progress = Callable[[int, int, str], None]
OrderKey = tuple[datetime, int]
#: (match id, player1, player2, winner, length, finished_at)
MatchRow = tuple[int, int, int, int, int, datetime]

BATCH = 20_000
CHANGE_COLUMNS = (
    "rating_list_id",
    "player_id",
    "match_id",
    "opponent_id",
    "won",
    "length",
    "at",
    "rating_before",
    "rating_after",
    "change",
    "experience_before",
    "experience_after",
)
DRIFT_TOLERANCE = 1e-6


# --- what is rated ------------------------------------------------------------------------


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
    return (
        match.status == MatchStatus.FINISHED
        and match.rated
        and match.length >= 1
        and match.winner_id is not None
        and match.finished_at is not None
    )


def matches_of_list(rating_list: RatingList) -> QuerySet[Match]:
    matches = rated_matches()
    if rating_list.club_id is not None:
        matches = matches.filter(club_id=rating_list.club_id)
    return matches


def site_list() -> RatingList:
    rating_list, _ = RatingList.objects.get_or_create(kind=RatingListKind.SITE, club=None)
    return rating_list


def club_list(club: Club) -> RatingList:
    rating_list, _ = RatingList.objects.get_or_create(kind=RatingListKind.CLUB, club=club)
    return rating_list


def lists_of_club(club_id: int) -> list[int]:
    """The ids of the lists a match of this club counts on, in lock order."""
    club = Club.objects.get(pk=club_id)
    return sorted([club_list(club).pk, site_list().pk])


def _lock_list(rating_list_id: int) -> RatingList:
    return (
        RatingList.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=rating_list_id)
    )


# --- the pure replay ------------------------------------------------------------------------


@dataclass(slots=True)
class Standing:
    """A player's state on a list while matches are replayed."""

    rating: float
    experience: int = 0
    matches: int = 0
    last_change: float = 0.0
    last_played_at: datetime | None = None


def replay(
    matches: Iterable[MatchRow],
    standings: dict[int, Standing],
    *,
    rating_list_id: int,
    initial: float,
    policy: str,
) -> Iterator[tuple]:
    """Apply the FIBS rules to ``matches`` in the order given, updating ``standings``
    in place, and yield one history row per player per match (``CHANGE_COLUMNS``).

    Pure: no database. The benchmark times it alone to show what the database costs.
    """
    boost = fibs.BoostPolicy(policy)
    for match_id, player1, player2, winner, length, at in matches:
        loser = player2 if winner == player1 else player1
        w = standings.get(winner)
        if w is None:
            w = standings[winner] = Standing(rating=initial)
        lo = standings.get(loser)
        if lo is None:
            lo = standings[loser] = Standing(rating=initial)
        outcome = fibs.rating_change(
            winner_rating=w.rating,
            loser_rating=lo.rating,
            winner_experience=w.experience,
            loser_experience=lo.experience,
            length=length,
            policy=boost,
        )
        for player, opponent, standing, delta, won in (
            (winner, loser, w, outcome.winner_delta, True),
            (loser, winner, lo, outcome.loser_delta, False),
        ):
            before, exp_before = standing.rating, standing.experience
            standing.rating = before + delta
            standing.experience = exp_before + length
            standing.matches += 1
            standing.last_change = delta
            standing.last_played_at = at
            yield (
                rating_list_id,
                player,
                match_id,
                opponent,
                won,
                length,
                at,
                before,
                standing.rating,
                delta,
                exp_before,
                standing.experience,
            )


# --- writing in bulk --------------------------------------------------------------------------


def _insert_changes(rows: list[tuple]) -> None:
    """Write history rows: ``COPY`` on PostgreSQL (the bulk path), ``bulk_create`` elsewhere."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        table = RatingChange._meta.db_table
        columns = ", ".join(f'"{c}"' for c in CHANGE_COLUMNS)
        sql = f'COPY "{table}" ({columns}) FROM STDIN'
        with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
            copy.write("".join(_copy_lines(rows)))
        return
    RatingChange.objects.bulk_create(
        [RatingChange(**dict(zip(CHANGE_COLUMNS, row, strict=True))) for row in rows],
        batch_size=500,
    )


def _copy_lines(rows: list[tuple]) -> Iterator[str]:
    """COPY's text format, built by hand: several times faster than per-value adaptation.
    Every value is a number, a boolean or an aware datetime (no escaping needed)."""
    stamps: dict[datetime, str] = {}
    for lst, player, match, opp, won, length, at, before, after, delta, eb, ea in rows:
        stamp = stamps.get(at)
        if stamp is None:
            stamp = stamps[at] = at if isinstance(at, str) else at.isoformat()
        yield (
            f"{lst}\t{player}\t{match}\t{opp}\t{'t' if won else 'f'}\t{length}\t{stamp}\t"
            f"{before!r}\t{after!r}\t{delta!r}\t{eb}\t{ea}\n"
        )


def _write_standings(rating_list: RatingList, standings: dict[int, Standing]) -> None:
    Rating.objects.bulk_create(
        [
            Rating(
                rating_list=rating_list,
                player_id=player_id,
                rating=s.rating,
                experience=s.experience,
                matches_played=s.matches,
                last_change=s.last_change,
                last_played_at=s.last_played_at,
            )
            for player_id, s in standings.items()
            if s.matches > 0
        ],
        batch_size=2000,
    )


# --- incremental update ------------------------------------------------------------------------


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
    locked = _lock_lists_of_match(match_id)
    match = Match.objects.filter(pk=match_id).first()  # read under the locks
    if match is None or not is_rated(match):
        report.rated = False
        return report
    key: OrderKey = (match.finished_at, match.pk)  # type: ignore[assignment]
    appendable = []
    for rating_list in locked:
        applied = _applied_key(rating_list)
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


def _lock_lists_of_match(match_id: int) -> list[RatingList]:
    """Lock the match's club list and the site list (creating them the first time), in
    primary-key order so that two updates never wait on each other crosswise."""
    club_id = Match.objects.filter(pk=match_id).values("club_id")[:1]
    wanted = Q(kind=RatingListKind.SITE) | Q(club_id__in=club_id)
    locked = list(
        RatingList.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(wanted)
        .order_by("pk")
    )
    if len(locked) < 2:
        match = Match.objects.filter(pk=match_id).select_related("club").first()
        if match is None:
            return []
        club_list(match.club)
        site_list()
        locked = list(
            RatingList.objects.select_for_update(of=("self",))
            .select_related("club")
            .filter(wanted)
            .order_by("pk")
        )
    return locked


def _applied_key(rating_list: RatingList) -> OrderKey | None:
    if rating_list.applied_at is None or rating_list.applied_match_id is None:
        return None
    return (rating_list.applied_at, rating_list.applied_match_id)


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
        match.finished_at,  # type: ignore[assignment]
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
        [RatingChange(**dict(zip(CHANGE_COLUMNS, c, strict=True))) for c in changes]
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


# --- recomputation ------------------------------------------------------------------------------


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
        for player_id, change, at in (
            RatingChange.objects.filter(rating_list=rating_list, player_id__in=list(affected))
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
    rating_list = _lock_list(rating_list_id)
    report = RecomputeReport(
        rating_list_id=rating_list.pk, label=str(rating_list), from_scratch=from_match_id is None
    )
    matches = matches_of_list(rating_list)
    if from_match_id is None:
        stored = dict(
            Rating.objects.filter(rating_list=rating_list).values_list("player_id", "rating")
        )
        RatingChange.objects.filter(rating_list=rating_list).delete()
        Rating.objects.filter(rating_list=rating_list).delete()
        standings: dict[int, Standing] = {}
        touched: set[int] = set()
    else:
        cut = _cut_for(rating_list, from_match_id)
        if cut is None:
            return report
        standings, touched = _standings_at(rating_list, cut)
        RatingChange.objects.filter(_after(cut), rating_list=rating_list).delete()
        matches = matches.filter(Q(finished_at__gt=cut[0]) | Q(finished_at=cut[0], pk__gte=cut[1]))
    total = matches.count()
    rows = match_rows(matches)
    with paused_cyclic_gc():
        done, last_key = _replay_and_write(rating_list, rows, standings, touched, total, progress)
    if from_match_id is None:
        _write_standings(rating_list, standings)
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
        Rating.objects.filter(rating_list=rating_list, player_id__in=list(touched)).delete()
        _write_standings(rating_list, {p: standings[p] for p in touched if p in standings})
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


def match_rows(matches: QuerySet[Match]) -> QuerySet:
    """The replay's input, in list order. On PostgreSQL the finish time is read as
    text: it is only copied back into the history, and Django's Python-level
    timestamp parsing would cost more than the FIBS arithmetic."""
    at: Any = "finished_at"
    if connection.vendor == "postgresql":
        matches = matches.annotate(at_text=Cast("finished_at", CharField()))
        at = "at_text"
    return matches.order_by("finished_at", "pk").values_list(
        "pk", "player1_id", "player2_id", "winner_id", "length", at
    )


def _replay_and_write(
    rating_list: RatingList,
    rows: QuerySet,
    standings: dict[int, Standing],
    touched: set[int],
    total: int,
    progress: Progress | None,
) -> tuple[int, OrderKey | None]:
    """Stream the matches through ``replay`` and write the history in batches."""
    last_key: OrderKey | None = None
    buffer: list[tuple] = []
    done = 0
    for change in replay(
        _tracking(rows.iterator(chunk_size=BATCH), touched),
        standings,
        rating_list_id=rating_list.pk,
        initial=rating_list.initial_rating,
        policy=rating_list.boost,
    ):
        buffer.append(change)
        if len(buffer) >= 2 * BATCH:
            done += len(buffer) // 2
            last_key = (buffer[-1][6], buffer[-1][2])
            _insert_changes(buffer)
            buffer = []
            if progress is not None:
                progress(done, total, f"{done} of {total} matches replayed")
    if buffer:
        done += len(buffer) // 2
        last_key = (buffer[-1][6], buffer[-1][2])
        _insert_changes(buffer)
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


def _tracking(rows: Iterable[MatchRow], touched: set[int]) -> Iterator[MatchRow]:
    """Note every player a replayed match touches (their rating rows are rewritten)."""
    for row in rows:
        touched.add(row[1])
        touched.add(row[2])
        yield row


def recompute_after_change(*, match_id: int, progress: Progress | None = None) -> list[dict]:
    """A result changed (corrected, voided, undone): replay each of its lists from it."""
    match = Match.objects.filter(pk=match_id).only("club_id").first()
    if match is None:
        return []
    reports = []
    for list_id in lists_of_club(match.club_id):
        reports.append(
            recompute_list(rating_list_id=list_id, from_match_id=match_id, progress=progress)
        )
    return [r.as_dict() for r in reports]


def recompute_all_lists(*, progress: Progress | None = None) -> list[dict]:
    """Every list from scratch, each in its own transaction; the reports carry drift."""
    for club in Club.objects.filter(matches__isnull=False).distinct():
        club_list(club)
    site_list()
    reports = []
    ids = list(RatingList.objects.order_by("pk").values_list("pk", flat=True))
    for index, list_id in enumerate(ids, start=1):
        reports.append(recompute_list(rating_list_id=list_id).as_dict())
        if progress is not None:
            progress(index, len(ids), f"{index} of {len(ids)} lists recomputed")
    return reports


# --- history import ------------------------------------------------------------------------


@dataclass
class ImportReport:
    matches: int
    players_created: int
    first_date: str
    last_date: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "players_created": self.players_created,
            "first_date": self.first_date,
            "last_date": self.last_date,
        }


@transaction.atomic
def import_results(*, user: Any, club: Club, text: str) -> ImportReport:
    """Record a club's past results as finished rated matches and bring its ratings
    (and the site list) up to date. The whole file or nothing: any unreadable row
    raises ``ResultsFileInvalid`` with every bad line, before anything is written.

    Players are matched to the club's members by name (case-insensitive) and created
    when new. Each match is dated at noon UTC of its date; matches of the same day are
    ordered as in the file (by id), so the list replays them in file order.
    """
    from simple_history.utils import bulk_create_with_history

    from games.services import clubs as club_services

    if user is None or not access.is_director(user, club):
        raise NotAllowed("directors_only", "Only the club's directors import its results.")
    rows = parse_results(text)
    members = {p.display_name.casefold(): p for p in Player.objects.filter(clubs=club)}
    created = 0
    for name in dict.fromkeys(n for r in rows for n in (r.winner, r.loser)):
        if name.casefold() not in members:
            members[name.casefold()] = club_services.create_player(display_name=name, clubs=[club])
            created += 1
    matches = []
    for row in rows:
        winner, loser = members[row.winner.casefold()], members[row.loser.casefold()]
        matches.append(
            Match(
                club=club,
                player1=winner,
                player2=loser,
                length=row.length,
                rated=True,
                status=MatchStatus.FINISHED,
                source=MatchSource.IMPORTED,
                score1=row.length,
                score2=0,
                winner=winner,
                final_score_only=True,
                confirmation="confirmed",
                played_on=row.played_on,
                finished_at=datetime.combine(row.played_on, time(12, 0), tzinfo=UTC),
                created_by=user,
                label=f"Imported (line {row.line})",
            )
        )
    created_matches = bulk_create_with_history(matches, Match, batch_size=1000)
    earliest = min(created_matches, key=lambda m: (m.finished_at, m.pk))
    for list_id in lists_of_club(club.pk):
        recompute_list(rating_list_id=list_id, from_match_id=earliest.pk)
    return ImportReport(
        matches=len(created_matches),
        players_created=created,
        first_date=min(r.played_on for r in rows).isoformat(),
        last_date=max(r.played_on for r in rows).isoformat(),
    )


def request_recompute(*, user: Any, club: Club) -> tuple[Any, bool]:
    """A director asks for the club's list to be recomputed from scratch: a long job.
    Asking again while one is queued or running returns that job."""
    from games import jobs
    from games.models import Job, JobStatus

    if user is None or not access.is_director(user, club):
        raise NotAllowed("directors_only", "Only the club's directors recompute its ratings.")
    rating_list = club_list(club)
    pending = (
        Job.objects.filter(
            kind="ratings.recompute",
            params__list=rating_list.pk,
            status__in=[JobStatus.QUEUED, JobStatus.RUNNING],
        )
        .order_by("-pk")
        .first()
    )
    if pending is not None:
        return pending, False
    return jobs.start_job(
        kind="ratings.recompute", params={"list": rating_list.pk}, club=club, created_by=user
    )
