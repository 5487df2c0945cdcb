"""The event money API: permissions, the error shape, versions, CSV, the schema."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from money import services
from tournaments.models import Entry
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def directed(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def url(event, rest: str = "") -> str:
    return f"/api/v1/tournaments/{event.slug}/money/{rest}"


def test_director_sets_up_pools_and_reads_the_ledger(make_event, directed, win, actor, played):
    event = make_event(4)
    answer = directed.put(
        url(event, "pools/main/"),
        {"name": "Main", "fee": "25.00", "rake_percent": "10", "preset": "winner_takes_all"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    version = answer["ETag"]
    stale = directed.patch(
        url(event), {"registration_fee": "5"}, format="json", HTTP_IF_MATCH='"0"'
    )
    assert stale.status_code == 412 and stale.json()["code"] == "stale_version"
    ok = directed.patch(url(event), {"registration_fee": "5"}, format="json", HTTP_IF_MATCH=version)
    assert ok.status_code == 200
    first = Entry.objects.filter(tournament=event).select_related("player").first()
    paid = directed.post(
        url(event, "payments/"),
        {"player": first.player_id, "amount": "30.00", "method": "cash"},
        format="json",
    )
    assert paid.status_code == 201
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    data = directed.get(url(event)).json()
    main = next(p for p in data["payouts"] if p["pool"] == "main")
    assert main["money_in"] == "100.00" and main["rake"] == "10.00"
    assert main["payouts"] == [{"position": 1, "name": "P01", "amount": "90.00"}]
    people = {p["name"]: p for p in data["people"]}
    assert people["P01"]["net"] == "60.00" and people["P01"]["balance"] == "90.00"
    assert people["Club"]["net"] == "30.00"
    moved = {(t["payer"], t["payee"]): t["amount"] for t in data["settlement"]}
    assert sum(float(a) for a in moved.values()) > 0
    sheet = directed.get(url(event, "ledger.csv"))
    assert sheet.status_code == 200 and sheet["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(sheet.content.decode())))
    assert ["P01", "Main", "payout", "90.00", "1", "EUR"] in rows


def test_bad_input_names_the_field(make_event, directed):
    event = make_event(4)
    answer = directed.put(
        url(event, "pools/main/"), {"name": "Main", "table": ["60", "30"]}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "payout_table_not_100" and answer.json()["field"] == "table"
    answer = directed.put(
        url(event, "pools/main/"),
        {"name": "Main", "fee": "1.005", "preset": "winner_takes_all"},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["field"] == "fee"
    assert directed.get(url(event)).json()["pools"] == []


def test_strangers_cannot_write_and_the_public_sees_what_is_published(make_event, make_user, actor):
    event = make_event(4)
    services.save_pool(actor=actor, tournament=event, key="main", name="Main", fee=25)
    stranger = APIClient()
    stranger.force_authenticate(make_user("stranger"))
    answer = stranger.put(
        url(event, "pools/side/"),
        {"name": "Side", "side": True, "preset": "winner_takes_all"},
        format="json",
    )
    assert answer.status_code == 403 and answer.json()["code"] == "directors_only"
    anonymous = APIClient()
    assert anonymous.put(url(event, "pools/side/"), {}, format="json").status_code in (401, 403)
    public = anonymous.get(url(event)).json()
    assert "payouts" in public and "people" not in public
    assert anonymous.get(url(event, "ledger.csv")).status_code in (401, 403)
    services.save_club_money(
        actor=actor,
        tournament=event,
        currency="chf",
        payout_unit=5,
        publish_payouts=False,
        publish_calcutta=False,
    )
    hidden = anonymous.get(url(event)).json()
    assert hidden["currency"] == "CHF" and "payouts" not in hidden
    assert anonymous.get(url(event, "calcutta/")).status_code == 403


def test_a_player_sees_their_own_money(make_event, make_user, actor):
    event = make_event(4)
    services.save_pool(actor=actor, tournament=event, key="main", name="Main", fee=25)
    entry = Entry.objects.filter(tournament=event).select_related("player").first()
    user = make_user("p1")
    entry.player.user = user
    entry.player.save()
    client = APIClient()
    client.force_authenticate(user)
    data = client.get(url(event)).json()
    assert data["mine"]["net"] == "-25.00" and "people" not in data


def test_the_schema_lists_the_money_endpoints(api_client):
    schema = api_client.get("/api/schema/?format=json").json()
    assert "/api/v1/tournaments/{slug}/money/pools/{key}/" in schema["paths"]
    assert "/api/v1/tournaments/{slug}/money/calcutta/lots/{lot}/sale/" in schema["paths"]
