"""Pools: create, change or remove one, its side-pool entrants, the director's award
order, buy-backs into it."""

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

from .common import WRITE_PARAMS
from .serializers import AwardInput, EntrantsInput, MoneyEntryInput, PoolInput
from .writing import write


class PoolView(APIView):
    """PUT: create or change the pool ``key``; DELETE: remove it."""

    permission_classes = [AllowAny]

    @extend_schema(request=PoolInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def put(self, request: Request, slug: str, key: str) -> Response:
        return write(
            request,
            slug,
            PoolInput,
            lambda actor, t, d, v: services.save_pool(
                actor=actor, tournament=t, key=key, expected_version=v, **d
            ),
        )

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def delete(self, request: Request, slug: str, key: str) -> Response:
        return write(
            request,
            slug,
            None,
            lambda actor, t, d, v: services.delete_pool(
                actor=actor, tournament=t, key=key, expected_version=v
            ),
        )


class PoolEntrantsView(APIView):
    """PUT: a side pool's entrants (entry ids)."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=EntrantsInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1]
    )
    def put(self, request: Request, slug: str, key: str) -> Response:
        return write(
            request,
            slug,
            EntrantsInput,
            lambda actor, t, d, v: services.set_side_pool_entrants(
                actor=actor, tournament=t, key=key, entry_ids=d["entries"], expected_version=v
            ),
        )


class PoolAwardView(APIView):
    """PUT: the director's decision on who a pool pays, best first (null: by places)."""

    permission_classes = [AllowAny]

    @extend_schema(request=AwardInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def put(self, request: Request, slug: str, key: str) -> Response:
        return write(
            request,
            slug,
            AwardInput,
            lambda actor, t, d, v: services.set_award_order(
                actor=actor, tournament=t, key=key, groups=d["groups"], expected_version=v
            ),
        )


class BuyBackView(APIView):
    """POST: a knocked-out player buys into the pool (201)."""

    permission_classes = [AllowAny]

    @extend_schema(request=MoneyEntryInput, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS)
    @idempotent
    def post(self, request: Request, slug: str, key: str) -> Response:
        return write(
            request,
            slug,
            MoneyEntryInput,
            lambda actor, t, d, v: services.record_buy_back(
                actor=actor, tournament=t, key=key, entry_id=d["entry"], expected_version=v
            ),
            status.HTTP_201_CREATED,
        )
