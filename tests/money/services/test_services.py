"""Event money through the services: pools, buy-backs, splits, the Calcutta, the ledger."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.errors import NotAllowed, RuleViolation, StaleVersionError
from games.services.actors import actor_for_user
from money import selectors, services
from money.rules import CALCUTTA, HOUSE
from tournaments.models import Entry
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db

D = Decimal


def entries(event) -> dict[int, Entry]:
    return {e.seed: e for e in Entry.objects.filter(tournament=event).select_related("player")}


def test_main_pool_pays_the_places_and_balances(make_event, win, actor, played):
    event = make_event(8)
    services.set_registration_fee(actor=actor, tournament=event, registration_fee=D("5"))
    services.save_pool(
        actor=actor,
        tournament=event,
        key="main",
        name="Main",
        fee=D("20"),
        added=D("40"),
        rake_percent=D("10"),
        table="50_25_12.5_12.5",
    )
    view = selectors.money_view(event)
    assert view.ledger.pool_totals("main")["held"] == 8 * 2000 + 4000 - 1600
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    event.refresh_from_db()
    view = selectors.money_view(event)
    by_seed = entries(event)
    net = 8 * 2000 + 4000 - 1600  # 184.00
    paid = {p.person: p.amount for p in view.ledger.distributions["main"].payments}
    # 1 and 2 by the final, 3-4 the semi-final losers share 12.5 + 12.5
    assert paid[by_seed[1].player_id] == net // 2
    assert paid[by_seed[2].player_id] == net // 4
    assert paid[by_seed[3].player_id] == paid[by_seed[4].player_id] == net // 8
    assert sum(p.net for p in view.people) == 0
    house = next(p for p in view.people if p.player is None)
    assert house.net == 8 * 500 + 1600 - 4000  # registrations + rake - added money


def test_buy_backs_side_pool_split_and_calcutta(make_event, win, actor, played):
    event = make_event(8, consolation_from=[1])
    seeds = entries(event)
    services.save_pool(actor=actor, tournament=event, key="main", name="Main", fee=D("10"))
    services.save_pool(
        actor=actor,
        tournament=event,
        key="consolation",
        name="Consolation",
        paid_by="consolation",
        table="winner_takes_all",
        buy_back_fee=D("7.50"),
        buy_back_until_round=1,
    )
    services.save_pool(
        actor=actor, tournament=event, key="side", name="Side", side=True, fee=D("3")
    )
    services.set_side_pool_entrants(
        actor=actor, tournament=event, key="side", entry_ids=[seeds[5].pk, seeds[6].pk, seeds[7].pk]
    )
    with pytest.raises(RuleViolation) as error:
        services.record_buy_back(
            actor=actor, tournament=event, key="consolation", entry_id=seeds[8].pk
        )
    assert error.value.code == "not_knocked_out"
    # round one: the better seed wins; seeds 5-8 go out and may buy back
    for p in event.pairings.filter(key__startswith="main-r1"):
        win(event, p.key, min(p.entry1.seed, p.entry2.seed))
    services.record_buy_back(actor=actor, tournament=event, key="consolation", entry_id=seeds[5].pk)
    services.record_buy_back(actor=actor, tournament=event, key="consolation", entry_id=seeds[8].pk)
    with pytest.raises(Exception) as again:
        services.record_buy_back(
            actor=actor, tournament=event, key="consolation", entry_id=seeds[5].pk
        )
    assert getattr(again.value, "code", None) == "already_bought_back"
    services.configure_calcutta(actor=actor, tournament=event, table=[70, 30], rake_percent=D("5"))
    lots = [
        services.add_lot(actor=actor, tournament=event, label="", entry_ids=[seeds[i].pk])
        for i in range(1, 5)
    ]
    field = services.add_lot(
        actor=actor,
        tournament=event,
        label="The field",
        entry_ids=[seeds[i].pk for i in range(5, 9)],
    )
    buyer_a, buyer_b = seeds[7].player_id, seeds[8].player_id
    services.sell_lot(
        actor=actor,
        tournament=event,
        lot_id=lots[0].pk,
        price=D("100"),
        buyers=[(buyer_a, D(60)), (buyer_b, D(40))],
    )
    services.sell_lot(
        actor=actor,
        tournament=event,
        lot_id=lots[1].pk,
        price=D("33.33"),
        buyers=[(buyer_a, D(100))],
    )
    services.sell_lot(
        actor=actor, tournament=event, lot_id=field.pk, price=D("20"), buyers=[(buyer_b, D(100))]
    )
    services.buy_back_lot(
        actor=actor, tournament=event, lot_id=lots[0].pk, entry_id=seeds[1].pk, percent=D(25)
    )
    with pytest.raises(RuleViolation) as error:
        services.buy_back_lot(
            actor=actor, tournament=event, lot_id=lots[1].pk, entry_id=seeds[2].pk, percent=D(60)
        )
    assert error.value.code == "buy_back_over_limit"
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    event.refresh_from_db()
    services.record_split(actor=actor, tournament=event, entry_ids=[seeds[1].pk, seeds[2].pk])
    view = selectors.money_view(event)
    main = {p.person: p.amount for p in view.ledger.distributions["main"].payments}
    assert main[seeds[1].player_id] == main[seeds[2].player_id] == 4000  # 80.00 split
    consolation = view.ledger.distributions["consolation"]
    assert consolation.net == 1500 and consolation.payments[0].person == seeds[5].player_id
    side = view.ledger.distributions["side"].payments
    assert side[0].person == seeds[5].player_id and side[0].amount == 900  # went furthest
    calcutta = view.ledger.pool_totals(CALCUTTA)
    assert calcutta["bid"] == -15333
    assert calcutta["rake"] == 766
    assert calcutta["winnings"] == 15333 - 766
    won = {
        line.party: line.amount
        for line in view.ledger.lines
        if line.kind == "winnings" and line.note == str(lots[0].pk)
    }
    # net 145.67: P01's lot (first) 70 % = 101.969 -> 101, P02's (second) 30 % = 43.70 -> 43,
    # the remainder 1.67 to the first: 102.67, owned 45 / 30 / 25 after P01's buy-back
    assert won == {buyer_a: 4620, buyer_b: 3080, seeds[1].player_id: 2567}
    assert sum(p.net for p in view.people) == 0
    balances = {p.name: p.balance for p in view.people}
    after = dict(balances)
    for payer, payee, amount in view.transfers:
        after[payer] += amount
        after[payee] -= amount
    assert set(after.values()) == {0}


def test_strangers_cannot_write_and_versions_are_checked(make_event, make_user):
    event = make_event(4)
    stranger = actor_for_user(make_user("stranger"))
    with pytest.raises(NotAllowed):
        services.set_registration_fee(actor=stranger, tournament=event, registration_fee=D(1))


def test_stale_version_is_refused(make_event, actor):
    event = make_event(4)
    money = services.set_registration_fee(actor=actor, tournament=event, registration_fee=D(1))
    with pytest.raises(StaleVersionError):
        services.set_registration_fee(
            actor=actor, tournament=event, registration_fee=D(2), expected_version=money.version - 1
        )


def test_rake_above_the_fees_is_refused_and_nothing_is_written(make_event, actor):
    event = make_event(4)
    with pytest.raises(RuleViolation) as error:
        services.save_pool(actor=actor, tournament=event, key="main", name="Main", table=[60, 30])
    assert error.value.code == "payout_table_not_100" and error.value.field == "table"
    assert not selectors.money_view(event).pools


def test_house_is_the_club(make_event, actor):
    event = make_event(4)
    services.save_pool(
        actor=actor, tournament=event, key="main", name="Main", fee=D(10), rake_fixed=D(5)
    )
    view = selectors.money_view(event)
    assert any(line.party is HOUSE and line.kind == "rake" for line in view.ledger.lines)
