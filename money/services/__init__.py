"""Writes of event money: one keyword-only function per use case, one transaction each.

Each write locks the event's :class:`~money.models.EventMoney` row (created on the
first write), checks the actor is a director of the club (403 before a stale version's
412), checks ``expected_version`` (the ``If-Match`` the client read), validates the
input with :mod:`money.rules`, writes, then **rebuilds the ledger** from the rows as
they now stand and refuses (rolling everything back) if it does not balance: money in
equals money out plus rake is checked on every write, not just in tests. Then the
version is bumped (the new ETag).

One module a family of use cases (:mod:`.money_settings`, :mod:`.pools`,
:mod:`.payments`, :mod:`.calcutta`, :mod:`.prize_order`) over :mod:`.common`, which
holds the one write helper every use case goes through
(:func:`~money.services.common.event_money_write`).
Callers import every use case from here.
"""

from __future__ import annotations

from .calcutta import add_lot, buy_back_lot, configure_calcutta, sell_lot
from .common import directors_only, event_money_write, require_director
from .money_settings import save_club_money, set_registration_fee
from .payments import (
    knocked_out_in,
    record_buy_back,
    record_payment,
    record_payout,
    undo_payment,
)
from .pools import (
    clear_splits,
    delete_pool,
    record_split,
    save_pool,
    set_award_order,
    set_side_pool_entrants,
)
from .prize_order import set_prize_order

__all__ = [
    "add_lot",
    "buy_back_lot",
    "clear_splits",
    "configure_calcutta",
    "delete_pool",
    "directors_only",
    "event_money_write",
    "knocked_out_in",
    "record_buy_back",
    "record_payment",
    "record_payout",
    "record_split",
    "require_director",
    "save_club_money",
    "save_pool",
    "sell_lot",
    "set_award_order",
    "set_prize_order",
    "set_registration_fee",
    "set_side_pool_entrants",
    "undo_payment",
]
