"""Issue 41 (7): every payout preset pays what its name promises, and the prize order and
payout tables are the director's to change until the first prize is handed over."""

from __future__ import annotations

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from money import rules, selectors, services
from money.models import Payment
from tournaments.models import Entry, Tournament
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db

# 8 players, the quarter-final losers play a consolation; the better seed always wins:
# main P01, P02, P03–P04 (semi-final losers); consolation P05, P06, P07–P08.
# Fee 100 each, no rake: 800 to pay, every share exact in whole euros.
PROMISES = {
    "winner_takes_all": {"P01": 800},
    "50_25_12.5_12.5": {"P01": 400, "P02": 200, "P03": 100, "P04": 100},
    # the name promises the consolation: its winner and runner-up, 22 % and 11 %
    "main_consolation_45_22_22_11": {"P01": 360, "P02": 176, "P05": 176, "P06": 88},
    # six places by the event's prize order: main 1, 2, 3–4, consolation 1, 2
    "30_20_15_15_10_10": {"P01": 240, "P02": 160, "P03": 120, "P04": 120, "P05": 80, "P06": 80},
}


@pytest.fixture
def directed(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def url(event, rest: str = "") -> str:
    return f"/api/v1/tournaments/{event.slug}/money/{rest}"


def paid_by_name(event) -> dict[str, int]:
    view = selectors.money_view(Tournament.objects.get(pk=event.pk))
    main = view.ledger.distributions["main"]
    return {view.party_name("main", p.person): p.amount // 100 for p in main.payments}


def test_the_promises_cover_every_preset():
    assert set(PROMISES) == set(rules.PRESETS)


def test_every_preset_pays_each_pool_its_name_promises(make_event, directed, win, actor, played):
    event = make_event(8, consolation_from=[1])
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    paid = {}
    for preset in PROMISES:  # the table may change after the finish, until prizes are paid
        answer = directed.put(
            url(event, "pools/main/"),
            {"name": "Main", "fee": "100", "preset": preset},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
        paid[preset] = paid_by_name(event)
    assert paid == PROMISES


def test_the_consolation_preset_pays_the_consolation_whatever_the_prize_order(
    make_event, directed, win, actor, played
):
    event = make_event(8, consolation_from=[1])
    directed.put(
        url(event, "prize-order/"), {"prize_order": ["main", "last_chance:2"]}, format="json"
    )
    directed.put(
        url(event, "pools/main/"),
        {"name": "Main", "fee": "100", "preset": "main_consolation_45_22_22_11"},
        format="json",
    )
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    assert paid_by_name(event) == PROMISES["main_consolation_45_22_22_11"]


def finished_with_a_payout(event, directed, win, actor, played) -> None:
    directed.put(
        url(event, "pools/main/"),
        {"name": "Main", "fee": "100", "preset": "50_25_12.5_12.5"},
        format="json",
    )
    directed.put(url(event, "calcutta/"), {"preset": "winner_takes_all"}, format="json")
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    first = Entry.objects.get(tournament=event, seed=1)
    services.record_payout(
        actor=actor,
        tournament=Tournament.objects.get(pk=event.pk),
        player_id=first.player_id,
        amount=Decimal("100.00"),
        method="cash",
    )


def test_the_prize_order_is_set_through_the_api_until_payouts_start(
    make_event, directed, win, actor, played
):
    event = make_event(8, consolation_from=[1])
    answer = directed.put(
        url(event, "prize-order/"), {"prize_order": ["main:2", "consolation:2"]}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    assert Tournament.objects.get(pk=event.pk).prize_order == ["main:2", "consolation:2"]
    bad = directed.put(
        url(event, "prize-order/"), {"prize_order": ["main", "bronze"]}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["field"] == "prize_order"

    finished_with_a_payout(event, directed, win, actor, played)
    refused = directed.put(url(event, "prize-order/"), {"prize_order": []}, format="json")
    assert refused.status_code == 409
    assert refused.json() == {
        "code": "payouts_started",
        "detail": "Prizes are being paid out: the prize order and the payout tables can no "
        "longer change.",
        "field": "prize_order",
    }
    assert Tournament.objects.get(pk=event.pk).prize_order == ["main:2", "consolation:2"]


def test_payout_tables_are_refused_once_payouts_start_naming_the_field(
    make_event, directed, win, actor, played
):
    event = make_event(8, consolation_from=[1])
    finished_with_a_payout(event, directed, win, actor, played)
    pool = directed.put(
        url(event, "pools/main/"),
        {"name": "Main", "fee": "100", "preset": "winner_takes_all"},
        format="json",
    )
    assert pool.status_code == 409
    assert (pool.json()["code"], pool.json()["field"]) == ("payouts_started", "table")
    renamed = directed.put(
        url(event, "pools/main/"),
        {"name": "Main pool", "fee": "100", "preset": "50_25_12.5_12.5"},
        format="json",
    )
    assert renamed.status_code == 200  # the name decides nothing: it may still change
    fee = directed.put(
        url(event, "pools/main/"),
        {"name": "Main", "fee": "90", "preset": "50_25_12.5_12.5"},
        format="json",
    )
    assert (fee.status_code, fee.json()["field"]) == (409, "fee")
    calcutta = directed.put(url(event, "calcutta/"), {"table": ["70", "30"]}, format="json")
    assert calcutta.status_code == 409 and calcutta.json()["field"] == "table"
    assert selectors.money_view(event).pools[0].table == ["50", "25", "12.5", "12.5"]


def test_a_payment_recorded_by_mistake_is_undone_and_a_payout_is_not(
    make_event, directed, win, actor, played
):
    event = make_event(8, consolation_from=[1])
    first = Entry.objects.get(tournament=event, seed=1)
    made = directed.post(
        url(event, "payments/"),
        {"player": first.player_id, "amount": "100.00", "method": "cash"},
        format="json",
    )
    assert made.status_code == 201
    payment = Payment.objects.get(player_id=first.player_id)
    undone = directed.delete(url(event, f"payments/{payment.pk}/"))
    assert undone.status_code == 200, undone.json()
    assert not Payment.objects.filter(pk=payment.pk).exists()
    assert payment.history.filter(history_type="-").exists()  # the history keeps it
    missing = directed.delete(url(event, f"payments/{payment.pk}/"))
    assert missing.status_code == 400 and missing.json()["field"] == "payment"

    finished_with_a_payout(event, directed, win, actor, played)
    payout = Payment.objects.get(amount__lt=0)
    kept = directed.delete(url(event, f"payments/{payout.pk}/"))
    assert kept.status_code == 409 and kept.json()["code"] == "payout_not_undone"
    assert Payment.objects.filter(pk=payout.pk).exists()


def test_a_stranger_cannot_undo_a_payment(make_event, directed, client_for, make_user):
    event = make_event(4)
    first = Entry.objects.filter(tournament=event).first()
    directed.post(
        url(event, "payments/"),
        {"player": first.player_id, "amount": "10.00", "method": "cash"},
        format="json",
    )
    payment = Payment.objects.get()
    answer = client_for(make_user("stranger")).delete(url(event, f"payments/{payment.pk}/"))
    assert answer.status_code == 403
    assert Payment.objects.filter(pk=payment.pk).exists()


def test_the_events_own_patch_cannot_change_the_prize_order_once_payouts_start(
    make_event, directed, win, actor, played
):
    """The prize order is also an option of the event (``PATCH /tournaments/{slug}/``,
    its settings page): money's guard refuses it there too, the same 409, nothing
    written; other options that may change any time still do."""
    event = make_event(8, consolation_from=[1])
    before = directed.patch(
        f"/api/v1/tournaments/{event.slug}/", {"prize_order": ["main:2"]}, format="json"
    )
    assert before.status_code == 200, before.json()
    finished_with_a_payout(event, directed, win, actor, played)
    version = Tournament.objects.get(pk=event.pk).version

    refused = directed.patch(
        f"/api/v1/tournaments/{event.slug}/", {"prize_order": ["consolation:2"]}, format="json"
    )
    assert refused.status_code == 409, refused.json()
    assert (refused.json()["code"], refused.json()["field"]) == ("payouts_started", "prize_order")
    after = Tournament.objects.get(pk=event.pk)
    assert (after.prize_order, after.version) == (["main:2"], version)

    same = directed.patch(
        f"/api/v1/tournaments/{event.slug}/",
        {"prize_order": ["main:2"], "name": "Renamed Open"},
        format="json",
    )
    assert same.status_code == 200, same.json()  # the order as it stands is no change
    assert Tournament.objects.get(pk=event.pk).name == "Renamed Open"
