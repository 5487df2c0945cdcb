"""The one write shape (money.api.writing): the order of its checks and the inputs'
names, which the serializers map onto the services' parameters."""

from __future__ import annotations

import pytest

from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def directed(client_for, director):
    return client_for(director)


@pytest.fixture
def stranger(client_for, make_user):
    return client_for(make_user("stranger"))


def test_errors_name_the_json_field_not_the_service_parameter(make_event, directed):
    event = make_event(4)
    url = f"/api/v1/tournaments/{event.slug}/money/"
    bad = directed.post(url + "splits/", {"entries": [0]}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "entries[0]"
    payment = {"player": 0, "amount": "1", "method": "cash"}
    bad = directed.post(url + "payments/", payment, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "player"
    directed.put(url + "calcutta/", {"preset": "winner_takes_all"}, format="json")
    entries = list(Entry.objects.filter(tournament=event).order_by("pk"))
    lot = directed.post(url + "calcutta/lots/", {"entries": [entries[0].pk]}, format="json")
    assert lot.status_code == 201
    lot_id = lot.json()["calcutta"]["lots"][0]["id"]
    bad = directed.put(
        url + f"calcutta/lots/{lot_id}/sale/",
        {"price": "10", "buyers": [{"player": 0, "percent": "100"}]},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["field"] == "buyers[0].player"
    sold = directed.put(
        url + f"calcutta/lots/{lot_id}/sale/",
        {"price": "10", "buyers": [{"player": entries[1].player_id, "percent": "100"}]},
        format="json",
    )
    assert sold.status_code == 200
    assert sold.json()["calcutta"]["lots"][0]["owners"] == [{"name": "P02", "percent": "100.00"}]


def test_club_points_writes_refuse_a_stranger_before_reading_the_body(club, stranger):
    for rest, body in (("table/", {"brackets": "x"}), ("season/", {})):
        answer = stranger.put(
            f"/api/v1/clubs/{club.slug}/master-points/{rest}", body, format="json"
        )
        assert answer.status_code == 403 and answer.json()["code"] == "directors_only"


def test_which_writes_read_if_match(make_event, directed):
    event = make_event(4)
    url = f"/api/v1/tournaments/{event.slug}/money/"
    club_money = {
        "currency": "EUR",
        "payout_unit": "1.00",
        "publish_payouts": True,
        "publish_calcutta": True,
    }
    # the club's money settings have no version: any well-formed If-Match passes ...
    ok = directed.put(url + "club/", club_money, format="json", HTTP_IF_MATCH='"77"')
    assert ok.status_code == 200
    # ... but a malformed one is refused, as on every event-money write
    bad = directed.put(url + "club/", club_money, format="json", HTTP_IF_MATCH="garbage")
    assert bad.status_code == 412 and bad.json()["code"] == "if_match_invalid"
    # an event's master-points setting does not read the header at all
    points = {"formula": "usbgf-2019", "event_weight": "1"}
    answer = directed.put(url + "master-points/", points, format="json", HTTP_IF_MATCH="garbage")
    assert answer.status_code == 200 and answer.json()["formula"] == "usbgf-2019"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("splits/", {"entries": [2**70]}, "entries[0]"),
        ("payments/", {"player": 2**70, "amount": "1", "method": "cash"}, "player"),
        ("pools/main/buy-backs/", {"entry": 191323133710981070848}, "entry"),
    ],
)
def test_an_id_beyond_any_row_is_a_400_naming_the_field(make_event, directed, path, body, field):
    """An id too large for the database's integer was a 500 on SQLite (found by the API
    fuzz): every money id is bounded like the match API's (``limits.MAX_ID``)."""
    event = make_event(4)
    bad = directed.post(f"/api/v1/tournaments/{event.slug}/money/{path}", body, format="json")
    assert bad.status_code == 400, bad.content
    assert bad.json()["field"] == field
