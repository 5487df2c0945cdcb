"""Demo content of the games app: a few finished rated matches, so the demo club's
rating list and the players' charts have something to show. Idempotent: matches are
labelled and entered only once, through the match services (so the rating jobs run
exactly as they would for a director entering results)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Club, Match, Player
from games.services import match_create, score_entry
from games.services.actors import actor_for_user

LABEL = "Demo rated match"
#: (winner, loser, length, loser's score)
RESULTS = [
    ("Alice Archer", "Bruno Bianchi", 5, 3),
    ("Chen Wei", "Dana Doyle", 7, 4),
    ("Alice Archer", "Chen Wei", 5, 4),
    ("Emre Yilmaz", "Freya Falk", 3, 1),
    ("Dana Doyle", "Bruno Bianchi", 5, 2),
    ("Alice Archer", "Emre Yilmaz", 7, 6),
    ("Freya Falk", "Chen Wei", 5, 0),
    ("Bruno Bianchi", "Alice Archer", 3, 2),
    ("Gus Grant", "Hana Sato", 5, 4),
    ("Hana Sato", "Dana Doyle", 9, 7),
    ("Alice Archer", "Freya Falk", 5, 1),
    ("Chen Wei", "Emre Yilmaz", 7, 5),
]


def seed(*, club: Club, director: Any, stdout: Any = None) -> None:
    actor = actor_for_user(director)
    players = {p.display_name: p for p in Player.objects.filter(clubs=club)}
    created = 0
    for number, (winner, loser, length, loser_score) in enumerate(RESULTS, start=1):
        label = f"{LABEL} {number}"
        if winner not in players or loser not in players:
            continue
        if Match.objects.filter(club=club, label=label).exists():
            continue
        with transaction.atomic():
            match = match_create.create_match(
                actor=actor,
                club=club,
                player1=players[winner],
                player2=players[loser],
                length=length,
                label=label,
            )
            score_entry.record_final_score(
                actor=actor, match_id=match.pk, score=(length, loser_score)
            )
        created += 1
    if stdout is not None and created:
        stdout.write(f"Entered {created} rated demo matches (ratings follow on commit).")
