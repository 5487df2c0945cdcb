"""The one shape of every money write: parse, resolve the actor, call the service,
answer with the fresh money and its ETag."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.actors import Actor
from core.locking import expected_version
from tournaments.models import Tournament

from .answers import money_data
from .common import get_tournament, request_actor


def write(
    request: Request,
    slug: str,
    serializer: type[serializers.Serializer] | None,
    call: Callable[[Actor, Tournament, dict[str, Any], int | None], Any],
    code: int = status.HTTP_200_OK,
) -> Response:
    """Parse, resolve the actor, call the service, answer with the fresh money."""
    tournament = get_tournament(slug)
    actor = request_actor(request)
    data: dict[str, Any] = {}
    if serializer is not None:
        parsed = serializer(data=request.data)
        parsed.is_valid(raise_exception=True)
        data = dict(parsed.validated_data)
    call(actor, tournament, data, expected_version(request, noun="event money"))
    body, etag = money_data(request, tournament)
    response = Response(body, status=code)
    response["ETag"] = etag
    return response
