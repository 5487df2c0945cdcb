"""What the money endpoints answer: the event's money as far as the reader may see it
(payouts, people, the Calcutta, the pools' settings) and the ledger as CSV."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request

from money import selectors
from money.models import EventMoney
from money.renderings import calcutta_data, money
from tournaments.models import Tournament

from .common import is_director

FRESH_VERSION: int = EventMoney._meta.get_field("version").default
"""The version of an event's money before its first write (the row's starting version)."""


def payouts_data(view: selectors.MoneyView) -> list[dict[str, Any]]:
    """Each pool's money in, rake, payouts by place and rounding remainder."""
    rows = []
    for pool in view.pool_summary():
        if pool["key"] == "registration":
            continue
        distribution = pool["distribution"]
        payments = [
            {"position": p["position"], "name": p["name"], "amount": money(p["amount"])}
            for p in pool["payouts"]
        ]
        rows.append(
            {
                "pool": pool["key"],
                "name": pool["name"],
                "money_in": money(pool["money_in"]),
                "rake": money(pool["rake"]),
                "paid_out": money(pool["paid_out"]),
                "rounding_remainder": money(distribution.remainder if distribution else 0),
                "remainder_kept_by_club": money(pool["remainder"]),
                "held": money(pool["held"]),
                "payouts": payments,
            }
        )
    return rows


def person_data(person: selectors.PersonMoney, view: selectors.MoneyView) -> dict[str, Any]:
    return {
        "player": person.player.pk if person.player else None,
        "name": person.name,
        "net": money(person.net),
        "paid": money(person.paid),
        "balance": money(person.balance),
        "marked_owing": person.owing_marked,
        "lines": [
            {
                "pool": line.pool,
                "pool_name": view.pool_name(line.pool),
                "kind": line.kind,
                "amount": money(line.amount),
                "note": line.note,
            }
            for line in person.lines
        ],
    }


def pool_config(pool: Any) -> dict[str, Any]:
    return {
        "key": pool.key,
        "name": pool.name,
        "side": pool.side,
        "paid_by": pool.paid_by,
        "fee": str(pool.fee),
        "added": str(pool.added),
        "rake_percent": str(pool.rake_percent),
        "rake_fixed": str(pool.rake_fixed),
        "table": pool.table,
        "remainder": pool.remainder,
        "buy_back_fee": None if pool.buy_back_fee is None else str(pool.buy_back_fee),
        "buy_back_until_round": pool.buy_back_until_round,
        "entrants": [e.pk for e in pool.entrants.all()] if pool.side else None,
        "award_order": pool.award_order,
    }


def money_data(request: Request, tournament: Tournament) -> tuple[dict[str, Any], str]:
    """What this reader may see of the event's money, and the ETag."""
    view = selectors.money_view(tournament)
    # An event nobody has written money for has no row yet; its version is the one the
    # row starts with when the first write creates it (issue #25: answering "0" made the
    # first If-Match after a read always 412, the write comparing against the new row's 1).
    version = view.event.version if view.event else FRESH_VERSION
    etag = f'"{version}"'
    director = is_director(request, tournament)
    data: dict[str, Any] = {
        "currency": view.currency,
        "payout_unit": str(view.club.payout_unit),
        "finished": view.finished,
        "version": version,
    }
    if director or view.club.publish_payouts:
        data["registration_fee"] = str(view.event.registration_fee) if view.event else "0.00"
        data["pools"] = [pool_config(p) for p in view.pools]
        data["payouts"] = payouts_data(view)
    if director or view.club.publish_calcutta:
        data["calcutta"] = calcutta_data(view)
    if director:
        data["people"] = [person_data(p, view) for p in view.people]
        data["settlement"] = [
            {"payer": payer, "payee": payee, "amount": money(amount)}
            for payer, payee, amount in view.transfers
        ]
        data["splits"] = view.event.splits if view.event else []
    elif request.user.is_authenticated:
        mine = [p for p in view.people if p.player and p.player.user_id == request.user.pk]
        data["mine"] = person_data(mine[0], view) if mine else None
    return data, etag
