"""Benchmark: recompute a club's rating list of 1,000,000 matches among 10,000 players.

End to end on PostgreSQL with the service the app uses
(``games.services.ratings.recompute_list``: read the matches in list order from their
covering index on a twin connection, replay them with the FIBS rules in batches while
one binary ``COPY`` sends two history rows per match into a fresh table, build its
indexes and swap it in as the list's partition, write the ratings), measured beside
the pure replay
(``games.rules.rating_replay.replay``, no database) over the same matches in the
same batches in the same run; the ratio is what the database costs. Then the
incremental update of one finished match (``apply_match``, both lists), p50/p95 over
200 matches. Targets: end to end at most 20 s, incremental p95 under 20 ms.

The generated matches are kept in the bench database (club ``bench-ratings-<n>``)
and reused by later runs; ``--quick`` uses 20,000 matches among 1,000 players.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import UTC, datetime, timedelta

from bench.server import setup_django

GENERATED = "bench-gen"
INCREMENTAL = "bench-inc"
LENGTHS = (1, 3, 5, 5, 7, 7, 9, 11)


def _with_defaults(model, given: list[str]) -> tuple[str, tuple]:
    """The COPY's column list: ``given``, then every other required column at its model
    default, so a column added to the model later (a player's language, a match's
    variant) never breaks the bench."""
    rest = [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and not f.null and f.has_default() and f.column not in given
    ]
    return ", ".join(given + [f.column for f in rest]), tuple(f.get_default() for f in rest)


def _generate(club, players: int, matches: int) -> None:
    """Players and finished rated matches, bulk-inserted with COPY (fast, not timed)."""
    from django.db import connection, transaction

    from games.models import Match, Membership, Player

    rng = random.Random(20240517)
    now = datetime.now(UTC)
    with transaction.atomic():
        existing = list(
            Player.objects.filter(slug__startswith=f"{club.slug}-p").values_list("pk", flat=True)
        )
        if len(existing) < players:
            with connection.cursor() as cursor:
                table = Player._meta.db_table
                columns, rest = _with_defaults(
                    Player, ["display_name", "slug", "email", "language", "created_at"]
                )
                sql = f'COPY "{table}" ({columns}) FROM STDIN'
                with cursor.cursor.copy(sql) as copy:
                    for i in range(len(existing), players):
                        copy.write_row(
                            (f"Bench {i:05}", f"{club.slug}-p{i:05}", "", "", now, *rest)
                        )
            ids = list(
                Player.objects.filter(slug__startswith=f"{club.slug}-p")
                .order_by("pk")
                .values_list("pk", flat=True)
            )
            Membership.objects.bulk_create(
                [Membership(club=club, player_id=pid) for pid in ids],
                batch_size=5000,
                ignore_conflicts=True,
            )
        else:
            ids = sorted(existing)
        strength = {pid: rng.gauss(0, 1) for pid in ids}
        start = now - timedelta(seconds=matches + 1000)
        table = Match._meta.db_table
        columns, rest = _with_defaults(
            Match,
            [
                "club_id",
                "player1_id",
                "player2_id",
                "length",
                "crawford",
                "rated",
                "status",
                "source",
                "score1",
                "score2",
                "winner_id",
                "final_score_only",
                "confirmation",
                "version",
                "label",
                "created_at",
                "finished_at",
                "transcript",
                "transcript_hash",
            ],
        )
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f'COPY "{table}" ({columns}) FROM STDIN') as copy,
        ):
            for i in range(matches):
                p1, p2 = rng.sample(ids, 2)
                length = rng.choice(LENGTHS)
                edge = (strength[p1] - strength[p2]) * length**0.5 * 0.2
                winner = p1 if rng.random() < 1 / (1 + 10**-edge) else p2
                at = start + timedelta(seconds=i)
                copy.write_row(
                    (club.pk, p1, p2, length, True, True, "finished", "imported",
                     length if winner == p1 else 0, length if winner == p2 else 0,
                     winner, True, "confirmed", 1, GENERATED, at, at, "", "", *rest)
                )  # fmt: skip


def _vacuum_matches() -> None:
    """What autovacuum does soon after a bulk load: statistics for the planner and the
    visibility map that lets the replay's read come from the index alone."""
    from django.db import connection

    from games.models import Match

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f'VACUUM ANALYZE "{Match._meta.db_table}"')


def _setup(players: int, matches: int):
    from django.contrib.auth import get_user_model

    from games.models import Club, Match
    from games.services.clubs import create_club

    slug = f"bench-ratings-{matches}"
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        user, _ = get_user_model().objects.get_or_create(username="bench")
        club = create_club(created_by=user, name=f"Bench ratings {matches}", slug=slug)
    Match.objects.filter(club=club, label=INCREMENTAL).delete()
    count = Match.objects.filter(club=club, label=GENERATED).count()
    if count != matches:
        if count:
            raise RuntimeError(f"club {slug} has {count} generated matches, not {matches}")
        started = time.perf_counter()
        _generate(club, players, matches)
        _vacuum_matches()
        return club, time.perf_counter() - started
    return club, 0.0


def _incremental(club, samples: int) -> list[float]:
    """Finish ``samples`` new matches and time applying each to both lists."""
    from django.utils import timezone

    from games.models import Match, Player
    from games.services import ratings as rating_services

    ids = list(Player.objects.filter(clubs=club).values_list("pk", flat=True)[:500])
    rng = random.Random(5)
    timings = []
    for _ in range(samples):
        p1, p2 = rng.sample(ids, 2)
        match = Match.objects.create(
            club=club,
            player1_id=p1,
            player2_id=p2,
            length=5,
            status="finished",
            score1=5,
            score2=0,
            winner_id=p1,
            final_score_only=True,
            label=INCREMENTAL,
            finished_at=timezone.now(),
        )
        started = time.perf_counter()
        report = rating_services.apply_match(match_id=match.pk)
        timings.append(time.perf_counter() - started)
        assert len(report.applied) == 2, report
    return timings


def _replay_only(batches, rating_list, rating_services) -> int:
    """The pure replay over the same matches, in the same batches as the service."""
    written = 0
    standings: dict = {}
    for batch in batches:
        written += len(
            rating_services.replay(
                batch,
                standings,
                rating_list_id=rating_list.pk,
                initial=rating_list.initial_rating,
                policy=rating_list.boost,
            )
        )
    return written


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    setup_django()
    from django.db import connection, transaction

    from games.models import RatingChange
    from games.services import ratings as rating_services

    players, matches = (1_000, 20_000) if quick else (10_000, 1_000_000)
    club, generate_seconds = _setup(players, matches)
    rating_list = rating_services.club_list(club)

    # The same matches, in the same order and batches, in memory for the pure replay
    # (not timed).
    with transaction.atomic():
        batches = list(rating_services.match_batches(rating_services.matches_of_list(rating_list)))
    started = time.perf_counter()
    written = 0
    with rating_services.paused_cyclic_gc():  # as the recomputation does
        written = _replay_only(batches, rating_list, rating_services)
    pure = time.perf_counter() - started
    del batches

    replaced = RatingChange.objects.filter(rating_list=rating_list).count()
    started = time.perf_counter()
    report = rating_services.recompute_list(rating_list_id=rating_list.pk)
    end_to_end = time.perf_counter() - started
    assert report.matches == matches and written == 2 * matches

    timings = _incremental(club, 50 if quick else 200)
    timings.sort()
    connection.close()
    return {
        "players": players,
        "matches": matches,
        "generated_seconds": round(generate_seconds, 1),
        "replaced_history_rows": replaced,
        "pure_seconds": round(pure, 2),
        "end_to_end_seconds": round(end_to_end, 2),
        "ratio_end_to_end_to_pure": round(end_to_end / pure, 2),
        "history_rows_written": 2 * report.matches,
        "rated_players": report.players,
        "incremental_p50_ms": round(statistics.median(timings) * 1000, 2),
        "incremental_p95_ms": round(timings[int(0.95 * (len(timings) - 1))] * 1000, 2),
        "target": "end to end <= 20 s; incremental p95 < 20 ms",
    }
