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
from games.services import clocks, match_corrections, match_create
from games.services.actors import actor_for_user
from money import master_points
from money import services as money
from money.models import Payment
from tests.tournaments.conftest import play_out
from tests.tournaments.conftest import win as win
from tournaments.models import Entry
from tournaments.services import calls
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


@pytest.fixture
def moved_club(full_club, actor, win) -> Club:
    """The full club plus an event run as a director runs one to the end: the club's
    money settings, entry fees (one paid twice over), a pool taking buy-backs, a
    Calcutta lot sold in shares, a round called, a result entered by score link,
    disputed and ruled on, a round-one loser buying back, the prizes and the refund
    paid out (the money the app writes below zero, ``record_payout``), the club's
    master-points table and the event's points by it, and a corrected result."""
    from games.services import match_disputes, score_entry
    from games.services.actors import actor_for_score_link
    from money.selectors import money_view

    players = list(Player.objects.filter(clubs=full_club).order_by("pk")[4:8])
    event = event_services.create_tournament(
        actor=actor,
        club=full_club,
        name="Prize Cup",
        slug="prize-cup",
        format="single_elimination",
        seeding="manual",
        match_lengths={"default": 3},
    )
    for player in players:
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    money.save_pool(
        actor=actor,
        tournament=event,
        key="main",
        name="Main pool",
        fee=Decimal("15.50"),
        buy_back_fee=Decimal(10),
        buy_back_until_round=1,
    )
    for player in players:
        money.record_payment(
            actor=actor,
            tournament=event,
            player_id=player.pk,
            amount=Decimal("15.50"),
            method="cash",
        )
    money.record_payment(  # paid twice over: refunded below
        actor=actor,
        tournament=event,
        player_id=players[3].pk,
        amount=Decimal(20),
        method="transfer",
    )
    money.save_club_money(
        actor=actor,
        tournament=event,
        currency="DKK",
        payout_unit=Decimal(5),
        publish_payouts=False,
        publish_calcutta=True,
    )
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    event.refresh_from_db()
    money.configure_calcutta(actor=actor, tournament=event)
    first_entry = Entry.objects.filter(tournament=event).order_by("seed")[0]
    lot = money.add_lot(actor=actor, tournament=event, label="Top seed", entry_ids=[first_entry.pk])
    money.sell_lot(
        actor=actor,
        tournament=event,
        lot_id=lot.pk,
        price=Decimal("120.00"),
        buyers=[(players[1].pk, Decimal(60)), (players[2].pk, Decimal(40))],
    )
    first_round = event.pairings.filter(round__number=1).exclude(match=None).order_by("pk")
    calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)
    disputed = first_round[0].match
    p1, p2 = disputed.player1, disputed.player2
    score_entry.record_final_score(
        actor=actor_for_score_link(p1), match_id=disputed.pk, score=(disputed.length, 0)
    )
    match_disputes.dispute_match(
        actor=actor_for_score_link(p2), match_id=disputed.pk, reason="He moved my checkers."
    )
    match_disputes.resolve_dispute(
        actor=actor, match_id=disputed.pk, resolution="Seen by the room: the result stands."
    )
    play_out(event, win)
    loser = next(e for e in Entry.objects.filter(tournament=event) if e.player_id == p2.pk)
    money.record_buy_back(actor=actor, tournament=event, key="main", entry_id=loser.pk)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    event.refresh_from_db()
    for person in money_view(event).people:
        if person.player is not None and person.balance > 0:
            money.record_payout(
                actor=actor,
                tournament=event,
                player_id=person.player.pk,
                amount=Decimal(person.balance) / 100,
                method="cash",
            )
    assert Payment.objects.filter(event__tournament=event, amount__lt=0).count() >= 2
    table = [{"min_players": 4, "max_players": 15, "points": ["10", "6", "3", "3"]}]
    master_points.save_club_table(actor=actor, club=full_club, per_match_won="2", brackets=table)
    master_points.set_master_points(actor=actor, tournament=event, formula="club-table")
    corrected = match_create.create_match(
        actor=actor, club=full_club, player1=players[0], player2=players[1], length=5
    )
    score_entry.record_final_score(actor=actor, match_id=corrected.pk, score=(5, 2))
    match_corrections.correct_final_score(actor=actor, match_id=corrected.pk, score=(3, 5))
    return full_club
