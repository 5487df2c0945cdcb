"""Pools: create, change or remove one, its side-pool entrants, the director's award
order, buy-backs into it."""

from __future__ import annotations

from money import services

from .common import MoneyAPIView
from .serializers import AwardInput, EntrantsInput, MoneyEntryInput, PoolInput
from .writing import EVENT_MONEY, endpoint


class PoolView(MoneyAPIView):
    """PUT: create or change the pool ``key``; DELETE: remove it."""

    put = endpoint(EVENT_MONEY, services.save_pool, PoolInput)
    delete = endpoint(EVENT_MONEY, services.delete_pool)


class PoolEntrantsView(MoneyAPIView):
    """PUT: a side pool's entrants (entry ids)."""

    put = endpoint(EVENT_MONEY, services.set_side_pool_entrants, EntrantsInput)


class PoolAwardView(MoneyAPIView):
    """PUT: the director's decision on who a pool pays, best first (null: by places)."""

    put = endpoint(EVENT_MONEY, services.set_award_order, AwardInput)


class BuyBackView(MoneyAPIView):
    """POST: a knocked-out player buys into the pool (201)."""

    post = endpoint(
        EVENT_MONEY, services.record_buy_back, MoneyEntryInput, created=True, idempotent=True
    )
