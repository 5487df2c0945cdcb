"""A finished 32-player event built through the services, as the demo plays one.

Round 1 has a forfeit (a walkover), a match played game by game on a clock, and one
played game by game without a clock; every other match is a final score (no ``.mat``).
The club keeps the event's money: a €30 registration fee and a €25 main pool (€55).
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.core import mail
from django.test import Client

from games.models import Match, MatchStatus
from games.rules.clock import Preset
from games.services import clocks, match_records, score_entry
from money import services as money_services
from tests.tournaments.conftest import play_out
from tournaments.models import PairingStatus, Tournament
from tournaments.services import events as event_services
from tournaments.services import results


def play_games(actor, match_id: int, winner_id: int) -> Match:
    """Play the match out one single game at a time, ``winner_id`` winning each."""
    while True:
        match = Match.objects.get(pk=match_id)
        if match.status not in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS):
            return match
        score_entry.record_game(
            actor=actor, match_id=match_id, game=match_records.GameInput(winner_id=winner_id)
        )


def build_finished(
    make_event, win, actor, *, n: int = 32, fee: str = "30", pool: str = "25", **config
):
    config.setdefault("match_lengths", {"default": 9})
    event = make_event(n, name=config.pop("name", "Nordic Open"), **config)
    ready = list(
        event.pairings.filter(status=PairingStatus.READY)
        .exclude(match=None)
        .select_related("entry1", "entry2", "match")
        .order_by("slot")
    )
    forfeited, clocked, plain = ready[0], ready[1], ready[2]
    better = min((forfeited.entry1, forfeited.entry2), key=lambda e: e.seed)
    results.forfeit_pairing(
        actor=actor, tournament_id=event.pk, key=forfeited.key, winner_entry_id=better.pk
    )
    clocks.start_clock(
        actor=actor, match_id=clocked.match_id, request=clocks.ClockRequest(preset=Preset.USBGF)
    )
    for pairing in (clocked, plain):
        better = min((pairing.entry1, pairing.entry2), key=lambda e: e.seed)
        play_games(actor, pairing.match_id, better.player_id)
    play_out(event, win)
    if fee:
        money_services.set_registration_fee(
            actor=actor, tournament=event, registration_fee=Decimal(fee)
        )
    if pool:
        money_services.save_pool(
            actor=actor, tournament=event, key="main", name="Main", fee=Decimal(pool)
        )
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    event.refresh_from_db()
    return event, {
        "forfeit": forfeited.match_id,
        "clocked": clocked.match_id,
        "plain": plain.match_id,
    }


@pytest.fixture
def finished(make_event, win, actor) -> tuple[Tournament, dict[str, int]]:
    return build_finished(make_event, win, actor)


CONFIRM_LINK = re.compile(r"https?://[^/\s]+(/addresses/confirm/[^\s]+/)")


def agree_to_links() -> list[str]:
    """The owners of the addresses follow the links mailed to them (and the outbox is
    emptied): a federation's address gets only that link until its owner agrees."""
    paths = [m[1] for message in mail.outbox for m in CONFIRM_LINK.finditer(str(message.body))]
    for path in paths:
        assert Client().post(path).status_code == 200
    mail.outbox.clear()
    return paths
