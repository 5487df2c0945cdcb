"""What every money endpoint shares: its view base, the amount and percent fields, the
write headers, the event and the actor of a request, whether the reader directs the club."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.shortcuts import get_object_or_404
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from core import access, api_headers
from core.actors import Actor
from games.services.actors import actor_for_user
from money.renderings import money as money  # re-exported: the endpoints' amounts
from tournaments.models import Tournament


class MoneyAPIView(APIView):
    """A money endpoint. Anyone may call it: the services and answers decide what a
    caller may do or see (401 anonymous writes, 403 strangers, less to read), so the
    answers stay the same for every route."""

    permission_classes = [AllowAny]


# The two write headers are described once, in core (beside their readers).
IF_MATCH = api_headers.IF_MATCH
IDEMPOTENCY_KEY = api_headers.IDEMPOTENCY_KEY


AMOUNT: dict[str, Any] = {"max_digits": 12, "decimal_places": 2, "min_value": Decimal(0)}


PERCENT: dict[str, Any] = {
    "max_digits": 6,
    "decimal_places": 3,
    "min_value": Decimal(0),
    "max_value": Decimal(100),
}


def get_tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def request_actor(request: Request) -> Actor:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return actor_for_user(request.user)


def is_director(request: Request, tournament: Tournament) -> bool:
    user = request.user
    return bool(
        user.is_authenticated
        and (access.is_site_admin(user) or access.is_director(user, tournament.club))
    )
