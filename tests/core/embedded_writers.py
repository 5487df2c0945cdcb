"""Concurrent writers on the embedded default, in a process of their own.

``python -m tests.core.embedded_writers DB_PATH THREADS`` (run by
``test_embedded_sqlite.py`` with the environment of ``make run``: a SQLite file, eager
tasks): migrates the file, then ``THREADS`` threads at once each finish two one-point
matches through the API (Django's test client: the WSGI handler, the middleware, the
view; a thread its own connection, as runserver's threads have), waits for the
follow-ups, and prints a JSON summary: every answer's status and the outbox's counts.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import uuid


def main(threads: int) -> dict:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import setup_test_environment
    from rest_framework.test import APIClient

    from core.models import DomainEvent
    from games.services import clubs as club_services
    from games.services import match_create
    from games.services.actors import actor_for_user

    setup_test_environment()  # the test client's host, locmem email
    call_command("migrate", verbosity=0, interactive=False)
    director = get_user_model().objects.create_user(username="director")
    club = club_services.create_club(created_by=director, name="Night", slug="night")
    actor = actor_for_user(director)
    work = []
    for t in range(threads):
        a = club_services.create_player(display_name=f"A{t}", clubs=[club])
        b = club_services.create_player(display_name=f"B{t}", clubs=[club])
        work.append(
            [
                (
                    match_create.create_match(
                        actor=actor, club=club, player1=a, player2=b, length=1
                    ).pk,
                    a.pk,
                )
                for _ in range(2)
            ]
        )
    connection.close()
    statuses: list[int] = []
    start = threading.Barrier(threads)

    def writer(matches: list[tuple[int, int]]) -> None:
        client = APIClient()
        client.force_authenticate(director)
        start.wait()
        try:
            for match_id, winner in matches:
                response = client.post(
                    f"/api/v1/matches/{match_id}/games/",
                    {"winner": winner, "number": 1},
                    format="json",
                    HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
                )
                statuses.append(response.status_code)
        finally:
            connection.close()

    pool = [threading.Thread(target=writer, args=(w,)) for w in work]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    deadline = time.monotonic() + 60
    while DomainEvent.objects.filter(handled_at__isnull=True).exists():
        if time.monotonic() > deadline:
            break
        time.sleep(0.5)
    events = DomainEvent.objects.filter(kind="match.finished")
    return {
        "statuses": sorted(statuses),
        "events": events.count(),
        "handled": events.filter(handled_at__isnull=False).count(),
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[2]))))
