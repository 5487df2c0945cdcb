"""``chouette``: how recording a chouette game costs as the evening grows.

Every write replays the whole session from its records (corrections re-derive, never
patch: ``docs/rules.md``, "The chouette"), so a write's cost grows with the number of games before
it. This measures, on the PostgreSQL bench database and in-process (services, no
HTTP): milliseconds per recorded game at several points of a long session of 6
players with joins and leaves, the SQL queries of one write, and the cost of reading
the sheet (ledger, totals, settlement) at the end. ``quick`` plays a shorter session.
"""

from __future__ import annotations

import random
import statistics
import time

from .server import setup_django


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    setup_django()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from chouette.records import GameInput, MemberInput
    from chouette.selectors import session_sheet
    from chouette.services import recording as recording_services
    from chouette.services import seats as seat_services
    from chouette.services import sessions as session_services
    from games.models import Club, Player
    from games.services import clubs as club_services
    from games.services.actors import actor_for_user

    games = 60 if quick else 300
    checkpoints = sorted({1, 10, 50, 100, 200, games} & set(range(1, games + 1)))
    rng = random.Random(7)
    User = get_user_model()
    director, _ = User.objects.get_or_create(username="bench-director")
    club = Club.objects.filter(slug="bench-chouette").first() or club_services.create_club(
        created_by=director, name="Bench Chouette", slug="bench-chouette"
    )
    players = list(Player.objects.filter(clubs=club).order_by("id")[:7])
    while len(players) < 7:
        players.append(
            club_services.create_player(display_name=f"Chouette {len(players)}", clubs=[club])
        )
    actor = actor_for_user(director)
    session = session_services.open_session(
        actor=actor, club=club, stake="0.50", players=[p.pk for p in players[:6]]
    )
    spare = players[6]
    per_game_ms: dict[int, list[float]] = {}
    queries: dict[int, int] = {}
    for number in range(1, games + 1):
        session.refresh_from_db()
        if number % 25 == 0:  # someone leaves, then comes back
            seated = [p for p in players if p.pk in session.lineup[1:]]
            if spare.pk in session.lineup:
                seat_services.leave_session(actor=actor, session_id=session.pk, player=spare)
            else:
                leaver = rng.choice(seated)
                seat_services.leave_session(actor=actor, session_id=session.pk, player=leaver)
                seat_services.join_session(actor=actor, session_id=session.pk, player=spare)
                spare = leaver
            session.refresh_from_db()
        members = tuple(
            MemberInput(pk, cube=rng.choice([1, 1, 2, 4]), action="played")
            for pk in session.lineup[1:]
        )
        game = GameInput(members=members, winner=rng.choice(["box", "team"]))
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            recording_services.record_game(actor=actor, session_id=session.pk, game=game)
            elapsed = (time.perf_counter() - started) * 1000
        bucket = next(c for c in checkpoints if number <= c)
        per_game_ms.setdefault(bucket, []).append(elapsed)
        if number in checkpoints:
            queries[number] = len(captured.captured_queries)
    with CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        sheet = session_sheet(session.pk)
        read_ms = (time.perf_counter() - started) * 1000
    assert sum(sheet.totals.values()) == 0
    return {
        "games": games,
        "write_ms_median_by_games_so_far": {
            f"<={bucket}": round(statistics.median(times), 2)
            for bucket, times in sorted(per_game_ms.items())
        },
        "queries_per_write_at_game": queries,
        "sheet_read_ms": round(read_ms, 2),
        "sheet_read_queries": len(captured.captured_queries),
        "transfers": len(sheet.transfers),
    }
