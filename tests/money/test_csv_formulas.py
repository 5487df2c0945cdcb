"""Every CSV export neutralises formulas (issue 25, item 6): a player named
``=HYPERLINK("http://evil/")`` is text in the ledger (API and director's page) and the
club's master-points CSV, while the amounts we write, negative ones included, stay
numbers."""

from __future__ import annotations

import csv
import datetime
import io
from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Player
from money import master_points, services
from tournaments.models import Entry, Tournament
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("http://evil/")'
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cells(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"] == "text/csv"
    return list(csv.reader(io.StringIO(response.content.decode())))


def assert_no_live_formula(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            if cell.startswith(FORMULA_STARTS):
                Decimal(cell)  # only a number may start so (raises on anything else)


def name_first_seed(event, name: str) -> Player:
    player = Entry.objects.select_related("player").get(tournament=event, seed=1).player
    Player.objects.filter(pk=player.pk).update(display_name=name)
    return player


@pytest.fixture
def hostile_ledger(make_event, actor):
    """An event whose first seed and pool are named as formulas; everyone owes a fee."""
    event = make_event(4)
    name_first_seed(event, EVIL)
    services.save_pool(actor=actor, tournament=event, key="main", name="@SUM(A1:A9)", fee=25)
    return event


def test_the_ledger_csv_of_the_api_neutralises_formulas(hostile_ledger, director):
    client = APIClient()
    client.force_authenticate(director)
    rows = cells(client.get(f"/api/v1/tournaments/{hostile_ledger.slug}/money/ledger.csv"))
    flat = [cell for row in rows for cell in row]
    assert "'" + EVIL in flat and EVIL not in flat
    assert "'@SUM(A1:A9)" in flat  # the pool's name
    assert "-25.00" in flat  # a fee owed: our negative amount stays a number
    assert_no_live_formula(rows)


def test_the_directors_ledger_csv_neutralises_formulas(hostile_ledger, director):
    browser = Client()
    browser.force_login(director)
    rows = cells(browser.get(f"/tournaments/{hostile_ledger.slug}/director/money/ledger.csv"))
    flat = [cell for row in rows for cell in row]
    assert "'" + EVIL in flat and "-25.00" in flat
    assert_no_live_formula(rows)


def test_the_master_points_csv_neutralises_formulas(club, actor, make_event, played, win):
    master_points.save_club_table(
        actor=actor,
        club=club,
        per_match_won="1",
        brackets=[{"min_players": 2, "max_players": None, "points": ["10", "6", "3", "3"]}],
    )
    event = make_event(4, name="Open", match_lengths={"default": 5})
    name_first_seed(event, EVIL)
    master_points.set_master_points(actor=actor, tournament=event, formula="club-table")
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    Tournament.objects.filter(pk=event.pk).update(ends_on=datetime.date(2026, 3, 1))

    rows = cells(Client().get(f"/clubs/{club.slug}/master-points/?season=2026&format=csv"))

    assert rows[1] == ["2026", "1", "'" + EVIL, "10.00", "1"]
    assert_no_live_formula(rows)
