"""Seed a fresh database for the PostgreSQL restart test; run as a subprocess.

``python -m tests.faults.score_world N`` (with ``DATABASE_URL`` set) creates a director
with an API token, a club and N unlimited sessions (length 0, so they never finish),
and prints them as JSON: one session per load client, so clients never contend.
"""

from __future__ import annotations

import json
import os
import sys


def main(sessions: int) -> dict:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.contrib.auth import get_user_model

    from games.services import clubs as club_services
    from games.services import match_create
    from games.services.actors import actor_for_user
    from tests.factories import token_for

    director = get_user_model().objects.create_user("restart-director", password="pw-faults-1")
    club = club_services.create_club(created_by=director, name="Restart Club")
    actor = actor_for_user(director)
    matches = []
    for i in range(sessions):
        a = club_services.create_player(display_name=f"R{i}a", clubs=[club])
        b = club_services.create_player(display_name=f"R{i}b", clubs=[club])
        match = match_create.create_match(actor=actor, club=club, player1=a, player2=b, length=0)
        matches.append({"id": match.pk, "winner": a.pk})
    _, token = token_for(director)
    return {"token": token, "matches": matches}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]))))
