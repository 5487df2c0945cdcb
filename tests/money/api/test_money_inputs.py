"""Money inputs a stranger can get wrong (issue #25 item 8c and 8e).

* ``"١٢"`` (Arabic-Indic digits) was recorded as a payment of 12.00: Python's
  ``Decimal`` reads every script's digits. Amounts are ASCII digits only: 400 naming
  the field, code ``ascii_digits_only``.
* On an event nobody had written money for, ``GET .../money/`` answered ``ETag: "0"``
  and the first ``PATCH`` with ``If-Match: "0"`` got 412 ("now 1"): the first write
  created the row at version 1 and compared against that. The read now answers the
  version the row starts with.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from money.models import EventMoney, Payment
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def directed(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def url(event, rest: str = "") -> str:
    return f"/api/v1/tournaments/{event.slug}/money/{rest}"


@pytest.mark.parametrize("value", ["١٢", "１２", "۱۲.۵۰", "12\u0660"])
def test_a_payment_in_digits_other_than_ascii_is_a_400_naming_amount(make_event, directed, value):
    event = make_event(4)
    player = Entry.objects.filter(tournament=event, seed=1).get().player_id
    answer = directed.post(
        url(event, "payments/"),
        {"player": player, "amount": value, "method": "cash"},
        format="json",
    )
    assert answer.status_code == 400, answer.content
    assert (answer.json()["code"], answer.json()["field"]) == ("ascii_digits_only", "amount")
    assert not Payment.objects.exists()


def test_ascii_amounts_as_text_or_number_are_still_read(make_event, directed):
    event = make_event(4)
    player = Entry.objects.filter(tournament=event, seed=1).get().player_id
    for amount in ("12.50", " 7 ", 3):
        answer = directed.post(
            url(event, "payments/"),
            {"player": player, "amount": amount, "method": "cash"},
            format="json",
        )
        assert answer.status_code == 201, answer.content
    assert sorted(str(p.amount) for p in Payment.objects.all()) == ["12.50", "3.00", "7.00"]


def test_a_pool_fee_in_other_digits_is_a_400_naming_fee(make_event, directed):
    event = make_event(4)
    answer = directed.put(
        url(event, "pools/main/"),
        {"name": "Main", "fee": "٢٥", "preset": "winner_takes_all"},
        format="json",
    )
    assert answer.status_code == 400, answer.content
    assert (answer.json()["code"], answer.json()["field"]) == ("ascii_digits_only", "fee")


def test_the_first_money_write_after_reading_a_fresh_event_succeeds(make_event, directed):
    event = make_event(4)
    assert not EventMoney.objects.filter(tournament=event).exists()
    read = directed.get(url(event))
    assert read.json()["version"] == int(read["ETag"].strip('"'))
    first = directed.patch(
        url(event), {"registration_fee": "5"}, format="json", HTTP_IF_MATCH=read["ETag"]
    )
    assert first.status_code == 200, first.content
    assert first["ETag"] != read["ETag"]
    stale = directed.patch(
        url(event), {"registration_fee": "6"}, format="json", HTTP_IF_MATCH=read["ETag"]
    )
    assert stale.status_code == 412 and stale.json()["code"] == "stale_version"
    assert directed.get(url(event)).json()["registration_fee"] == "5.00"
