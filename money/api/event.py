"""The event's money as a whole: read it, its registration fee, payments, splits, the
club's money settings and the ledger CSV."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core import api_headers
from core.api_fields import AsciiDecimalField
from money import selectors, services
from money.renderings import ledger_csv

from .common import AMOUNT, MoneyAPIView, get_tournament, request_actor
from .serializers import ClubMoneyInput, EntrantsInput, PaymentInput, PrizeOrderInput
from .shapes import EventMoneySerializer
from .writing import EVENT_MONEY, endpoint, money_response


class MoneyView(MoneyAPIView):
    """GET: the event's money (as much as the reader may see); PATCH: registration fee."""

    class Input(serializers.Serializer):
        registration_fee = AsciiDecimalField(**AMOUNT)

    @extend_schema(responses=EventMoneySerializer, parameters=[api_headers.ETAG])
    def get(self, request: Request, slug: str) -> Response:
        return money_response(request, get_tournament(slug))

    patch = endpoint(EVENT_MONEY, services.set_registration_fee, Input)


class PaymentsView(MoneyAPIView):
    """POST: record who paid what and how (cash, transfer) or mark them owing (201)."""

    post = endpoint(
        EVENT_MONEY, services.record_payment, PaymentInput, created=True, idempotent=True
    )


class PaymentView(MoneyAPIView):
    """DELETE: take back a payment recorded by mistake (not a prize paid out: 409)."""

    delete = endpoint(EVENT_MONEY, services.undo_payment, url={"payment": "payment_id"})


class PrizeOrderView(MoneyAPIView):
    """PUT: the event's prize order (who its places pay first), until prizes are paid
    out (then 409 ``payouts_started`` on ``prize_order``)."""

    put = endpoint(EVENT_MONEY, services.set_prize_order, PrizeOrderInput)


class SplitsView(MoneyAPIView):
    """POST: players who agreed to split (entry ids); DELETE: clear every split."""

    post = endpoint(
        EVENT_MONEY, services.record_split, EntrantsInput, created=True, idempotent=True
    )
    delete = endpoint(EVENT_MONEY, services.clear_splits)


class ClubMoneyView(MoneyAPIView):
    """PUT: the club's currency, payout unit and what it publishes (via one of its events)."""

    # The club's settings have no version of their own (this docstring is the schema's
    # description): the service takes none and the route documents no If-Match, but a
    # malformed one is still refused, as on every event-money write.
    put = endpoint(EVENT_MONEY, services.save_club_money, ClubMoneyInput, versioned=False)


class LedgerCsvView(MoneyAPIView):
    """GET: the ledger as CSV (directors)."""

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = get_tournament(slug)
        services.require_director(request_actor(request), tournament)
        response = HttpResponse(
            ledger_csv(selectors.money_view(tournament)), content_type="text/csv"
        )
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-ledger.csv"'
        return response
