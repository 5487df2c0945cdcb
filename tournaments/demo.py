"""Demo tournaments for ``seed_demo`` (idempotent): a bracket and a Swiss in progress.

Their matches are unrated so the demo rating list stays the ratings demo's own.
"""

from __future__ import annotations

import random
from typing import Any

from games.models import MatchStatus, Player
from games.services import match_records, score_entry
from games.services.actors import actor_for_user

from .models import Pairing, PairingStatus, Tournament
from .services import entries as entry_services
from .services import events as event_services
from .services import rounds as round_services

BRACKET_SLUG = "demo-friday-bracket"
SWISS_SLUG = "demo-tuesday-swiss"


def _play_ready(tournament: Tournament, actor, rng: random.Random, limit: int) -> int:
    """Play up to ``limit`` ready matches, game by game (Crawford applies)."""
    played = 0
    for pairing in Pairing.objects.filter(tournament=tournament, status=PairingStatus.READY):
        if played >= limit or pairing.match_id is None:
            break
        while True:
            from games.models import Match

            match = Match.objects.get(pk=pairing.match_id)
            if match.status not in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS):
                break
            winner = match.player1_id if rng.random() < 0.5 else match.player2_id
            score_entry.record_game(
                actor=actor, match_id=match.pk, game=match_records.GameInput(winner_id=winner)
            )
        played += 1
    return played


def seed(*, club: Any, director: Any, stdout: Any) -> None:
    actor = actor_for_user(director)
    rng = random.Random(13)
    players = list(Player.objects.filter(clubs=club).order_by("pk")[:13])
    if len(players) < 4:
        return
    if not Tournament.objects.filter(slug=BRACKET_SLUG).exists():
        event = event_services.create_tournament(
            actor=actor,
            club=club,
            name="Friday Night Bracket",
            slug=BRACKET_SLUG,
            format="single_elimination",
            consolation_from=[1, 2],
            last_chance_from=[1],
            seeding="random",
            random_seed=13,
            match_lengths={"default": 5, "rounds": {"main": {"-2": 7, "-1": 9}}},
            rated=False,
        )
        for player in players:
            entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
        entry_services.start_tournament(actor=actor, tournament_id=event.pk)
        for _ in range(2):
            _play_ready(event, actor, rng, limit=4)
        stdout.write(f"Tournament: /tournaments/{BRACKET_SLUG}/ (13 players, partly played)")
    if not Tournament.objects.filter(slug=SWISS_SLUG).exists():
        event = event_services.create_tournament(
            actor=actor,
            club=club,
            name="Tuesday Swiss",
            slug=SWISS_SLUG,
            format="swiss",
            swiss_rounds=4,
            match_lengths={"default": 3},
            rated=False,
        )
        for player in players[:9]:
            entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
        entry_services.start_tournament(actor=actor, tournament_id=event.pk)
        _play_ready(event, actor, rng, limit=99)
        round_services.pair_next_round(actor=actor, tournament_id=event.pk)
        _play_ready(event, actor, rng, limit=99)
        round_services.pair_next_round(actor=actor, tournament_id=event.pk)
        stdout.write(f"Tournament: /tournaments/{SWISS_SLUG}/ (Swiss, round 3 of 4 paired)")
