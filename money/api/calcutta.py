"""The Calcutta auction: set it up, its lots, winning bids and players' buy-backs."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from money import services

from .answers import money_data
from .common import MoneyAPIView, get_tournament
from .serializers import CalcuttaInput, LotBuyBackInput, LotInput, SaleInput
from .shapes import CalcuttaSerializer
from .writing import EVENT_MONEY, endpoint

LOT = {"lot": "lot_id"}
"""The route's lot is the services' ``lot_id``."""


class CalcuttaView(MoneyAPIView):
    """GET: the lots, prices and owners (public if the club publishes them); PUT: set up."""

    @extend_schema(responses=CalcuttaSerializer)
    def get(self, request: Request, slug: str) -> Response:
        data, _ = money_data(request, get_tournament(slug))
        if "calcutta" not in data:
            return Response(
                {
                    "code": "not_published",
                    "detail": "The club does not publish its Calcutta.",
                    "field": None,
                },
                status=status.HTTP_403_FORBIDDEN,
            )
        return Response(data["calcutta"] or {"set_up": False, "lots": []})

    put = endpoint(EVENT_MONEY, services.configure_calcutta, CalcuttaInput)


class LotsView(MoneyAPIView):
    """POST: a lot (one entry, or a group such as "the field") (201)."""

    post = endpoint(EVENT_MONEY, services.add_lot, LotInput, created=True, idempotent=True)


class SaleView(MoneyAPIView):
    """PUT: the winning bid of a lot: its price and buyer (or syndicate shares, in %)."""

    put = endpoint(EVENT_MONEY, services.sell_lot, SaleInput, url=LOT)


class LotBuyBackView(MoneyAPIView):
    """PUT: a player of the lot buys back a share of themselves."""

    put = endpoint(EVENT_MONEY, services.buy_back_lot, LotBuyBackInput, url=LOT)
