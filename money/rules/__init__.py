"""Event money in pure Python (no Django): pools, payout tables, the Calcutta, the ledger.

Amounts are whole cents inside (:mod:`.amounts`); payout tables and rounding
(:mod:`.payouts`); pools with fees, added money and rake (:mod:`.pools`); the Calcutta
auction (:mod:`.calcutta`); the event's ledger, its balance check and the settlement
(:mod:`.ledger`, reusing :mod:`core.settlement`). ``docs/money.md`` explains them for
directors.
"""

from .amounts import from_cents, split_exactly, to_cents, to_percent
from .calcutta import Sale, check_sale, lot_places
from .ledger import (
    CALCUTTA,
    HOUSE,
    CalcuttaSpec,
    EventLedger,
    Line,
    check_balanced,
    event_ledger,
    settle,
    settlement_balances,
)
from .payouts import (
    COMBINED_PLACES,
    PRESET_PAID_BY,
    PRESETS,
    Distribution,
    Payment,
    Remainder,
    check_table,
    combine_places,
    distribute,
)
from .pools import PoolSpec, check_pool, pool_places, rake

__all__ = [
    "CALCUTTA",
    "COMBINED_PLACES",
    "HOUSE",
    "PRESETS",
    "PRESET_PAID_BY",
    "CalcuttaSpec",
    "Distribution",
    "EventLedger",
    "Line",
    "Payment",
    "PoolSpec",
    "Remainder",
    "Sale",
    "check_balanced",
    "check_pool",
    "check_sale",
    "check_table",
    "combine_places",
    "distribute",
    "event_ledger",
    "from_cents",
    "lot_places",
    "pool_places",
    "rake",
    "settle",
    "settlement_balances",
    "split_exactly",
    "to_cents",
    "to_percent",
]
