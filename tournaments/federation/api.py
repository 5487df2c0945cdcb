"""The federation exports' endpoints (docs/federations.md): thin doors over ``services``.

``GET  /api/v1/tournaments/{slug}/federation/{export}/``       what the export holds (JSON)
``GET  /api/v1/tournaments/{slug}/federation/{export}/file/``  the file (CSV or zip)
``POST /api/v1/tournaments/{slug}/federation/{export}/send/``  email it to the club's address
``GET|PUT /api/v1/clubs/{slug}/federation-addresses/``         the club's addresses

Directors of the event's club only (401 signed out, 403 ``directors_only``); 409
``tournament_not_finished`` before the event is finished. ``export`` is ``wbgf``,
``abt``, ``ukbgf``, ``bmab`` or ``wbif``; the ABT export reads ``division`` (``open``,
``intermediate``, ``novice``) and ``places`` (how many places earn points).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.actors import Actor
from core.errors import N_, RuleViolation
from core.idempotency import idempotent
from games.models import Club
from games.services.actors import actor_for_user

from ..models import Tournament
from . import services
from .api_shapes import FederationSummarySerializer
from .models import FederationExport
from .rules import abt

PARAMETERS = [
    OpenApiParameter(
        "division",
        str,
        enum=list(abt.DIVISIONS),
        description="ABT only: the event's skill division (default open).",
    ),
    OpenApiParameter(
        "places", int, description="ABT only: how many places earn points (default 4)."
    ),
]

EXPORT_BODY = inline_serializer(
    "FederationExport",
    {
        "export": serializers.ChoiceField(choices=FederationExport.choices),
        "filename": serializers.CharField(),
        # an e-mail address or blank: EmailField(allow_blank) is a oneOf whose two
        # branches both take "" (format is not asserted), so no blank answer validates
        "address": serializers.CharField(
            allow_blank=True, help_text="The club's address for this export; blank: none set."
        ),
        "address_confirmed": serializers.BooleanField(
            help_text="Whether the address's owner followed the link mailed to it; until "
            "then a send is 409 federation_address_unconfirmed and nothing is mailed."
        ),
        "summary": FederationSummarySerializer(
            help_text="What the file holds: the WBGF checks and entrants, the ABT awards, "
            "the UKBGF matches, the bundle's files, and the matches left out with why."
        ),
    },
)
SENT_BODY = inline_serializer(
    "FederationExportSent",
    {
        "export": serializers.ChoiceField(choices=FederationExport.choices),
        "filename": serializers.CharField(),
        "sent_to": serializers.EmailField(),
    },
)
ADDRESSES = inline_serializer(
    "FederationAddresses",
    {
        key: serializers.EmailField(allow_blank=True, required=False)
        for key in FederationExport.values
    },
)


def _actor(request: Request) -> Actor:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return actor_for_user(request.user)


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


class FederationExportView(APIView):
    """What the export holds, with the qualification checks and the matches left out."""

    permission_classes = [AllowAny]  # the service asks for a director

    @extend_schema(parameters=PARAMETERS, responses={200: EXPORT_BODY})
    def get(self, request: Request, slug: str, export: str) -> Response:
        tournament = _tournament(slug)
        built = services.build_export(
            actor=_actor(request),
            tournament=tournament,
            export=export,
            options=services.options_from(request.query_params),
        )
        return Response(
            {
                "export": built.key,
                "filename": built.filename,
                "address": services.addresses_of(tournament.club)[built.key],
                "address_confirmed": services.confirmed_of(tournament.club)[built.key],
                "summary": built.summary,
            }
        )


class FederationFileView(APIView):
    """The export's file: a CSV, or for ``bmab`` and ``wbif`` a zip of ``.mat`` files."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=PARAMETERS,
        responses={
            (200, "text/csv"): OpenApiTypes.BINARY,
            (200, "application/zip"): OpenApiTypes.BINARY,
        },
    )
    def get(self, request: Request, slug: str, export: str) -> HttpResponse:
        built = services.build_export(
            actor=_actor(request),
            tournament=_tournament(slug),
            export=export,
            options=services.options_from(request.query_params),
        )
        response = HttpResponse(built.content, content_type=built.content_type)
        response["Content-Disposition"] = f'attachment; filename="{built.filename}"'
        return response


class FederationSendView(APIView):
    """Email the export to the address the club set for it."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=PARAMETERS, request=None, responses={200: SENT_BODY})
    @idempotent
    def post(self, request: Request, slug: str, export: str) -> Response:
        sent = services.send_export(
            actor=_actor(request),
            tournament=_tournament(slug),
            export=export,
            options=services.options_from(request.query_params),
        )
        return Response(
            {"export": sent.export.key, "filename": sent.export.filename, "sent_to": sent.to}
        )


class FederationAddressesView(APIView):
    """The club's federation addresses (a club setting; "" clears one)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: ADDRESSES})
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        services.require_club_director(_actor(request), club)
        return Response(services.addresses_of(club))

    @extend_schema(request=ADDRESSES, responses={200: ADDRESSES})
    @idempotent
    def put(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        actor = _actor(request)
        services.require_club_director(actor, club)
        data = request.data
        body = data.dict() if hasattr(data, "dict") else data  # a form: one value per key
        body = body if isinstance(body, dict) else None
        if body is None or not all(isinstance(v, str) for v in body.values()):
            raise RuleViolation(
                "invalid_body", N_("Send an object of export names and addresses."), "body"
            )
        return Response(
            services.set_addresses(
                actor=actor,
                club=club,
                addresses=dict(body),
                site=request.build_absolute_uri("/"),
            )
        )
