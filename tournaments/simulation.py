"""Simulating a whole event through the real services (the ``simulate_event`` command).

Builds a temporary club, its director and ``players`` players with random ratings,
runs the event through the same services a director uses (create, register, seed,
start, pair rounds, finish), and plays every match game by game with the winner of
each game drawn by the FIBS win probability of a 1-point game, so the match rules
(Crawford included) apply as in real play.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import MatchStatus
from games.services import clubs as club_services
from games.services import match_records, score_entry
from games.services.actors import actor_for_user
from tournaments.formats import registry as format_registry
from tournaments.models import Pairing, PairingStatus, Tournament

from .selectors import pairings_queryset, standings
from .services import entries as entry_services
from .services import events as event_services
from .services import rounds as round_services
from .services.brackets import bracket_champion


class _Rollback(Exception):
    """Raised to undo the whole simulation when the event is not kept."""


@dataclass(frozen=True)
class SimulationOptions:
    format: str
    players: int
    rounds: int | None = None
    consolation: bool = False
    last_chance: bool = False
    seed: int = 1
    keep: bool = False
    match_length: int = 3


def _win_probability(rating_a: float, rating_b: float) -> float:
    """FIBS probability that a wins a 1-point game (docs/rules.md, "Ratings", N = 1)."""
    return 1.0 / (10 ** ((rating_b - rating_a) / 2000.0) + 1)


def simulate_event(options: SimulationOptions) -> dict[str, Any]:
    """Run the event; returns the report the command prints."""
    if options.format not in format_registry.format_keys():
        raise ValueError(f"format must be one of {', '.join(format_registry.format_keys())}")
    started = time.perf_counter()
    report: dict[str, Any] = {}
    try:
        with transaction.atomic():
            report = _run(options)
            if not options.keep:
                raise _Rollback
    except _Rollback:
        pass
    report["seconds"] = round(time.perf_counter() - started, 3)
    return report


def _run(options: SimulationOptions) -> dict[str, Any]:
    rng = random.Random(options.seed)
    tag = f"sim-{options.seed}-{rng.randrange(10**9)}"
    user = get_user_model().objects.create_user(username=tag)
    actor = actor_for_user(user)
    club = club_services.create_club(created_by=user, name=f"Simulation {tag}", slug=tag)
    players = [
        club_services.create_player(
            display_name=f"Sim {i + 1}", clubs=[club], slug=f"{tag}-{i + 1}"
        )
        for i in range(options.players)
    ]
    rating = {p.pk: rng.gauss(1500, 200) for p in players}
    format_spec = format_registry.spec(options.format)
    # the format's usual options, as the create page gives them when left blank
    config: dict[str, Any] = {
        **format_spec.option_defaults,
        "match_lengths": {"default": options.match_length},
    }
    if "swiss_rounds" in format_spec.options:
        config["swiss_rounds"] = options.rounds or max(1, math.ceil(math.log2(options.players)))
    if options.consolation and "consolation_from" in format_spec.options:
        config["consolation_from"] = [1, 2] if options.players > 4 else [1]
    if options.last_chance and "last_chance_from" in format_spec.options:
        config["last_chance_from"] = [1]
    tournament = event_services.create_tournament(
        actor=actor,
        club=club,
        name=f"Simulated {options.format}",
        format=options.format,
        seeding="manual",
        **config,
    )
    for player in players:
        entry_services.register_entry(actor=actor, tournament_id=tournament.pk, player_id=player.pk)
    by_rating = sorted(tournament.entries.all(), key=lambda e: -rating[e.player_id])
    entry_services.seed_entries(
        actor=actor, tournament_id=tournament.pk, method="manual", order=[e.pk for e in by_rating]
    )
    entry_services.start_tournament(actor=actor, tournament_id=tournament.pk)
    while True:
        ready = list(
            Pairing.objects.filter(tournament=tournament, status=PairingStatus.READY, stale=False)
            .exclude(match=None)
            .select_related("match")
        )
        if ready:
            for pairing in ready:
                assert pairing.match_id is not None  # .exclude(match=None)
                _play_match(actor, pairing.match_id, rating, rng)
            continue
        tournament.refresh_from_db()
        if round_services.more_rounds_due(tournament):
            round_services.pair_next_round(actor=actor, tournament_id=tournament.pk)
            continue
        break
    event_services.finish_tournament(actor=actor, tournament_id=tournament.pk)
    return _report(Tournament.objects.get(pk=tournament.pk), options)


def _play_match(actor, match_id: int, rating: dict[int, float], rng: random.Random) -> None:
    while True:
        from games.models import Match

        match = Match.objects.get(pk=match_id)
        if match.status != MatchStatus.SCHEDULED and match.status != MatchStatus.IN_PROGRESS:
            return
        p = _win_probability(rating[match.player1_id], rating[match.player2_id])
        winner = match.player1_id if rng.random() < p else match.player2_id
        score_entry.record_game(
            actor=actor, match_id=match_id, game=match_records.GameInput(winner_id=winner)
        )


def _report(tournament: Tournament, options: SimulationOptions) -> dict[str, Any]:
    matches: list[dict[str, Any]] = []
    met: Counter[frozenset[int]] = Counter()
    byes = 0
    rounds_seen: set[tuple[str, int, int]] = set()
    for p in pairings_queryset(tournament):
        if p.status not in (PairingStatus.PLAYED, PairingStatus.BYE):
            continue
        bye = p.status == PairingStatus.BYE
        one = p.entry1 or p.entry2
        other = p.entry2 if p.entry1 is not None else None
        if one is None:
            continue
        winner = None
        if p.winner_id is not None:
            winner = one.player_id if p.winner_id == one.pk else other.player_id  # type: ignore[union-attr]
        matches.append(
            {
                "stage": p.round.stage.kind,
                "round": p.round.number,
                "player1": one.player_id,
                "player2": None if bye or other is None else other.player_id,
                "winner": winner,
                "bye": bye,
            }
        )
        rounds_seen.add((p.round.stage.kind, p.round.stage.group, p.round.number))
        if bye:
            byes += 1
        elif other is not None and not p.key.startswith("grand_final-r2"):
            met[frozenset((one.player_id, other.player_id))] += 1
    if tournament.is_elimination:
        champion_entry = bracket_champion(tournament)
        champion = tournament.entries.get(pk=champion_entry).player_id if champion_entry else None
    else:
        table = standings(tournament)
        champion = table[0].entry.player_id if table else None
    playoff = [m for m in matches if m["stage"] == "playoff"]
    if playoff:  # the rounds were followed by a playoff: its winner is the champion
        champion = playoff[-1]["winner"]
    return {
        "format": options.format,
        "players": options.players,
        "matches": matches,
        "champion": champion,
        "rematches": sum(count - 1 for count in met.values()),
        "byes": byes,
        "rounds": len({(stage, group, number) for stage, group, number in rounds_seen}),
    }
