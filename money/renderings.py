"""An event's money in the plain shapes both doors hand out: amounts as text, the
Calcutta as JSON-ready data and the ledger as CSV.

The API answers them and the director's pages show them; each door imports this, not
the other door.
"""

from __future__ import annotations

import io
from collections.abc import Hashable
from decimal import Decimal
from typing import Any

from core import csv_files
from money import rules, selectors


def money(cents: int) -> str:
    """An amount in cents as the decimal text the answers and the CSV show."""
    return str(rules.from_cents(cents))


def calcutta_data(view: selectors.MoneyView) -> dict[str, Any] | None:
    if view.calcutta is None:
        return None
    calcutta = view.calcutta
    lots = []
    for lot in calcutta.lots.all():
        shares = list(lot.shares.all())
        owners = (
            rules.Sale(
                lot=str(lot.pk),
                price=rules.to_cents(lot.price or Decimal(0), field="price"),
                buyers=tuple(
                    (s.player_id, rules.to_percent(s.percent, field="percent") / 100)
                    for s in shares
                    if not s.buy_back
                ),
                buy_backs=tuple(
                    (s.player_id, rules.to_percent(s.percent, field="percent") / 100)
                    for s in shares
                    if s.buy_back
                ),
            ).owners
            if lot.price is not None
            else ()
        )
        names: dict[Hashable, str] = {s.player_id: s.player.display_name for s in shares}
        lots.append(
            {
                "id": lot.pk,
                "label": lot.label,
                "players": [e.player.display_name for e in lot.entries.all()],
                "price": str(lot.price) if lot.price is not None else None,
                "owners": [
                    {"name": names[p], "percent": f"{float(share * 100):.2f}"}
                    for p, share in owners
                ],
            }
        )
    return {
        "set_up": True,
        "table": calcutta.table,
        "rake_percent": str(calcutta.rake_percent),
        "rake_fixed": str(calcutta.rake_fixed),
        "buy_back_limit": str(calcutta.buy_back_limit),
        "pool": money(
            sum(
                rules.to_cents(lot.price, field="price")
                for lot in calcutta.lots.all()
                if lot.price is not None
            )
        ),
        "lots": lots,
    }


def ledger_csv(view: selectors.MoneyView) -> str:
    """Every line of the ledger, one row each, with each person's totals after."""
    out = io.StringIO()
    writer = csv_files.writer(out)  # no cell is a live formula
    writer.writerow(["person", "pool", "kind", "amount", "note", "currency"])
    for person in view.people:
        for line in person.lines:
            writer.writerow(
                [
                    person.name,
                    view.pool_name(line.pool),
                    line.kind,
                    money(line.amount),
                    line.note,
                    view.currency,
                ]
            )
    writer.writerow([])
    writer.writerow(["person", "net", "paid", "balance"])
    for person in view.people:
        writer.writerow([person.name, money(person.net), money(person.paid), money(person.balance)])
    writer.writerow([])
    writer.writerow(["payer", "payee", "amount"])
    for payer, payee, amount in view.transfers:
        writer.writerow([payer, payee, money(amount)])
    return out.getvalue()
