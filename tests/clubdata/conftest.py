"""The demo club the archive tests export: the demo builder's club (rated matches and
their rating list, a chouette, two events in progress) plus a finished event with
money (a pool, payments, a split, a Calcutta lot) and a match with a running clock."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games.models import Club, Match, Player
from games.rules.clock import Preset
from games.services import clocks, match_create
from games.services.actors import actor_for_user
from money import services as money
from tests.tournaments.conftest import play_out
from tests.tournaments.conftest import win as win
from tournaments.models import Entry
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services


@pytest.fixture
def demo_club(director) -> Club:
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get(slug="demo")
    club.directors.add(director)
    return club


@pytest.fixture
def actor(director):
    return actor_for_user(director)


@pytest.fixture
def full_club(demo_club, actor, win) -> Club:
    """The demo club with a finished event with money and a clocked match."""
    players = list(Player.objects.filter(clubs=demo_club).order_by("pk")[:4])
    event = event_services.create_tournament(
        actor=actor,
        club=demo_club,
        name="Saturday Cup",
        slug="saturday-cup",
        format="single_elimination",
        seeding="manual",
        match_lengths={"default": 5},
    )
    for player in players:
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    money.save_pool(actor=actor, tournament=event, key="main", name="Main pool", fee=Decimal(20))
    for player in players:
        money.record_payment(
            actor=actor, tournament=event, player_id=player.pk, amount=Decimal(20), method="cash"
        )
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    event.refresh_from_db()
    entries = list(Entry.objects.filter(tournament=event).order_by("seed"))
    money.configure_calcutta(actor=actor, tournament=event)
    money.add_lot(actor=actor, tournament=event, label="", entry_ids=[entries[0].pk])
    play_out(event, win)
    money.record_split(actor=actor, tournament=event, entry_ids=[entries[0].pk, entries[1].pk])
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    match = match_create.create_match(
        actor=actor,
        club=demo_club,
        player1=players[0],
        player2=players[1],
        length=7,
        label="Clocked",
    )
    clocks.start_clock(actor=actor, match_id=match.pk, request=clocks.ClockRequest(Preset.USBGF))
    clocks.report_turn(actor=actor, match_id=match.pk, seq=1, side=0, used_ms=12_000)
    assert Match.objects.filter(club=demo_club).count() > 5
    return demo_club


@pytest.fixture
def director_client(director) -> APIClient:
    client = APIClient()
    client.force_authenticate(director)
    return client
