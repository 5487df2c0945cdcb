"""The one shape of every money write, and the one way to declare a write endpoint.

Every write of the money API is the same sequence: load what the URL's slug names (the
event, or the club), resolve the actor, let a family check the actor first if it must,
parse the body, read ``If-Match``, call one service, answer with what a GET answers. Only
the family (what is loaded, checked and answered, which version ``If-Match`` names) and
the endpoint (its service, its input, 201 or 200, ``Idempotency-Key`` or not) differ, so
a view declares those two things and nothing else: ``put = endpoint(FAMILY, service,
Input)``. The serializers name their validated data after the service's parameters, so
no view translates one into the other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import idempotency
from core.actors import Actor
from core.locking import expected_version
from tournaments.models import Tournament

from .answers import money_data
from .common import IDEMPOTENCY_KEY, IF_MATCH, get_tournament, request_actor
from .shapes import EventMoneySerializer

T = TypeVar("T")


@dataclass(frozen=True)
class Family(Generic[T]):
    """What the writes of one family share.

    ``load`` finds what the slug names (404 otherwise) and ``keyword`` is how the
    services name it; ``guard`` (if any) refuses the actor before the body is read;
    ``noun`` names the version ``If-Match`` carries (None: the family has no version and
    the header is not read); ``answer`` is the family's GET answer, which every write
    returns too, and ``shape`` the serializer that describes it in the schema.
    """

    load: Callable[[str], T]
    keyword: str
    noun: str | None
    answer: Callable[[Request, T], Response]
    guard: Callable[[Actor, T], None] | None = None
    shape: type[serializers.Serializer] | None = None


def money_response(request: Request, tournament: Tournament) -> Response:
    """The event's money as this reader may see it, with its version as ``ETag``."""
    body, etag = money_data(request, tournament)
    response = Response(body)
    response["ETag"] = etag
    return response


EVENT_MONEY: Family[Tournament] = Family(
    load=get_tournament,
    keyword="tournament",
    noun="event money",
    answer=money_response,
    shape=EventMoneySerializer,
)
"""The event's money: the services check the director under the event money's lock."""


def write(
    request: Request,
    slug: str,
    family: Family[T],
    serializer: type[serializers.Serializer] | None,
    call: Callable[[Actor, T, dict[str, Any], int | None], Any],
    code: int = status.HTTP_200_OK,
) -> Response:
    """Load, resolve the actor, guard, parse, call the service, answer as a GET would."""
    target = family.load(slug)
    actor = request_actor(request)
    if family.guard is not None:
        family.guard(actor, target)
    data: dict[str, Any] = {}
    if serializer is not None:
        parsed = serializer(data=request.data)
        parsed.is_valid(raise_exception=True)
        data = dict(parsed.validated_data)
    version = None if family.noun is None else expected_version(request, noun=family.noun)
    call(actor, target, data, version)
    response = family.answer(request, target)
    response.status_code = code
    return response


def endpoint(
    family: Family[Any],
    service: Callable[..., Any],
    serializer: type[serializers.Serializer] | None = None,
    *,
    created: bool = False,
    idempotent: bool = False,
    versioned: bool = True,
    url: Mapping[str, str] | None = None,
) -> Callable[..., Response]:
    """A write handler: :func:`write` with ``service`` and ``serializer``, documented.

    ``created`` answers 201; ``idempotent`` honours and documents ``Idempotency-Key``;
    ``versioned`` passes the ``If-Match`` version to the service and documents the
    header (a family with a version still refuses a malformed header on every write);
    ``url`` renames the route's own parameters to the service's (``lot`` → ``lot_id``).
    """
    names = dict(url or {})
    code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
    passes_version = versioned and family.noun is not None

    def handler(self: APIView, request: Request, slug: str, **route: Any) -> Response:
        given = {names.get(name, name): value for name, value in route.items()}

        def call(actor: Actor, target: Any, data: dict[str, Any], version: int | None) -> Any:
            if passes_version:
                given["expected_version"] = version
            return service(actor=actor, **{family.keyword: target}, **data, **given)

        return write(request, slug, family, serializer, call, code)

    if idempotent:
        handler = idempotency.idempotent(handler)
    parameters = [IF_MATCH] if passes_version else []
    if idempotent:
        parameters.append(IDEMPOTENCY_KEY)
    schema = extend_schema(
        request=serializer,
        responses={code: family.shape or OpenApiTypes.OBJECT},
        parameters=parameters or None,
    )
    return schema(handler)
