"""Fixtures for tournament tests: events built through the services."""

from __future__ import annotations

import pytest

from games.models import Match
from games.services import clubs as club_services
from games.services import match_corrections, score_entry
from games.services.actors import actor_for_user
from tournaments.models import Pairing, PairingStatus
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services


@pytest.fixture
def actor(director):
    return actor_for_user(director)


@pytest.fixture
def make_event(club, actor):
    """An event with ``n`` players seeded in registration order (P01 is seed 1)."""

    def make(n: int, *, start: bool = True, **config):
        config.setdefault("format", "single_elimination")
        tournament = event_services.create_tournament(
            actor=actor,
            club=club,
            name=config.pop("name", "Club Night"),
            seeding="manual",
            **config,
        )
        for i in range(n):
            player = club_services.create_player(display_name=f"P{i + 1:02d}", clubs=[club])
            entry_services.register_entry(
                actor=actor, tournament_id=tournament.pk, player_id=player.pk
            )
        if start:
            entry_services.start_tournament(actor=actor, tournament_id=tournament.pk)
        tournament.refresh_from_db()
        return tournament

    return make


@pytest.fixture
def win(actor):
    """Record pairing ``key``'s match as won by the entry seeded ``seed``."""

    def play(tournament, key: str, seed: int) -> Match:
        pairing = Pairing.objects.select_related("match", "entry1__player", "entry2__player").get(
            tournament=tournament, key=key
        )
        winner = pairing.entry1 if pairing.entry1.seed == seed else pairing.entry2
        assert winner.seed == seed, f"seed {seed} is not in {key}"
        match = pairing.match
        score = (match.length, 0) if match.player1_id == winner.player_id else (0, match.length)
        if match.final_score_only:
            return match_corrections.correct_final_score(
                actor=actor, match_id=match.pk, score=score
            )
        return score_entry.record_final_score(actor=actor, match_id=match.pk, score=score)

    return play


def pairing(tournament, key: str) -> Pairing:
    return Pairing.objects.select_related("match", "entry1", "entry2", "winner").get(
        tournament=tournament, key=key
    )


def play_out(event, win) -> None:
    """The better seed wins every match, through the match services."""
    while True:
        ready = list(
            event.pairings.filter(status=PairingStatus.READY, stale=False)
            .exclude(match=None)
            .select_related("entry1", "entry2")
        )
        if not ready:
            return
        for p in ready:
            win(event, p.key, min(p.entry1.seed, p.entry2.seed))
