"""The Calcutta auction: set it up, its lots, winning bids and players' buy-backs."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.idempotency import idempotent
from money import services

from .answers import money_data
from .common import WRITE_PARAMS, get_tournament
from .serializers import CalcuttaInput, LotBuyBackInput, LotInput, SaleInput
from .writing import write


class CalcuttaView(APIView):
    """GET: the lots, prices and owners (public if the club publishes them); PUT: set up."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
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

    @extend_schema(
        request=CalcuttaInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1]
    )
    def put(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            CalcuttaInput,
            lambda actor, t, d, v: services.configure_calcutta(
                actor=actor, tournament=t, expected_version=v, **d
            ),
        )


class LotsView(APIView):
    """POST: a lot (one entry, or a group such as "the field") (201)."""

    permission_classes = [AllowAny]

    @extend_schema(request=LotInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS)
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        return write(
            request,
            slug,
            LotInput,
            lambda actor, t, d, v: services.add_lot(
                actor=actor,
                tournament=t,
                label=d["label"],
                entry_ids=d["entries"],
                expected_version=v,
            ),
            status.HTTP_201_CREATED,
        )


class SaleView(APIView):
    """PUT: the winning bid of a lot: its price and buyer (or syndicate shares, in %)."""

    permission_classes = [AllowAny]

    @extend_schema(request=SaleInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def put(self, request: Request, slug: str, lot: int) -> Response:
        return write(
            request,
            slug,
            SaleInput,
            lambda actor, t, d, v: services.sell_lot(
                actor=actor,
                tournament=t,
                lot_id=lot,
                price=d["price"],
                buyers=[(b["player"], b["percent"]) for b in d["buyers"]],
                expected_version=v,
            ),
        )


class LotBuyBackView(APIView):
    """PUT: a player of the lot buys back a share of themselves."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=LotBuyBackInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1]
    )
    def put(self, request: Request, slug: str, lot: int) -> Response:
        return write(
            request,
            slug,
            LotBuyBackInput,
            lambda actor, t, d, v: services.buy_back_lot(
                actor=actor,
                tournament=t,
                lot_id=lot,
                entry_id=d["entry"],
                percent=d["percent"],
                expected_version=v,
            ),
        )
