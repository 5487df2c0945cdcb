"""The event's money as a whole: read it, its registration fee, payments, splits, the
club's money settings and the ledger CSV."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.idempotency import idempotent
from money import selectors, services

from .answers import ledger_csv, money_data
from .common import AMOUNT, WRITE_PARAMS, get_tournament, request_actor
from .serializers import ClubMoneyInput, EntrantsInput, PaymentInput
from .writing import write


class MoneyView(APIView):
    """GET: the event's money (as much as the reader may see); PATCH: registration fee."""

    permission_classes = [AllowAny]

    class Input(serializers.Serializer):
        registration_fee = serializers.DecimalField(**AMOUNT)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, slug: str) -> Response:
        data, etag = money_data(request, get_tournament(slug))
        response = Response(data)
        response["ETag"] = etag
        return response

    @extend_schema(request=Input, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def patch(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            self.Input,
            lambda actor, t, d, v: services.set_registration_fee(
                actor=actor, tournament=t, expected_version=v, **d
            ),
        )


class PaymentsView(APIView):
    """POST: record who paid what and how (cash, transfer) or mark them owing (201)."""

    permission_classes = [AllowAny]

    @extend_schema(request=PaymentInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS)
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            PaymentInput,
            lambda actor, t, d, v: services.record_payment(
                actor=actor,
                tournament=t,
                player_id=d["player"],
                amount=d["amount"],
                method=d["method"],
                note=d["note"],
                expected_version=v,
            ),
            status.HTTP_201_CREATED,
        )


class SplitsView(APIView):
    """POST: players who agreed to split (entry ids); DELETE: clear every split."""

    permission_classes = [AllowAny]

    @extend_schema(request=EntrantsInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS)
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            EntrantsInput,
            lambda actor, t, d, v: services.record_split(
                actor=actor, tournament=t, entry_ids=d["entries"], expected_version=v
            ),
            status.HTTP_201_CREATED,
        )

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def delete(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            None,
            lambda actor, t, d, v: services.clear_splits(
                actor=actor, tournament=t, expected_version=v
            ),
        )


class ClubMoneyView(APIView):
    """PUT: the club's currency, payout unit and what it publishes (via one of its events)."""

    permission_classes = [AllowAny]

    @extend_schema(request=ClubMoneyInput, responses=OpenApiTypes.OBJECT)
    def put(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            ClubMoneyInput,
            lambda actor, t, d, v: services.save_club_money(actor=actor, tournament=t, **d),
        )


class LedgerCsvView(APIView):
    """GET: the ledger as CSV (directors)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = get_tournament(slug)
        services.require_director(request_actor(request), tournament)
        response = HttpResponse(
            ledger_csv(selectors.money_view(tournament)), content_type="text/csv"
        )
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-ledger.csv"'
        return response
