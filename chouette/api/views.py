"""The chouette API under /api/v1/chouette/: sessions, games, ledger and settlement.

Views only parse input, resolve the actor, call one service and render the sheet.
Every write answers with the session's ``ETag`` (its version); ``If-Match`` with a
stale version answers 412; ``Idempotency-Key`` makes a retried POST safe. Reads are
public, like matches.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from core import api_headers, locking
from core.actors import Actor
from core.api_headers import WRITE_PARAMS
from core.errors import N_
from core.idempotency import idempotent
from games.api.audit import AuditEntrySerializer
from games.api.inputs import ID_PATTERN, query_text, require_object
from games.rules import limits
from games.rules.errors import NotAllowed
from games.services.actors import actor_for_user

from ..audit import session_audit_trail
from ..models import ChouetteGame, RuleProfile, Session, SessionStatus
from ..selectors import session_sheet, sessions_queryset
from ..services import common, corrections, recording, seats, sessions
from . import shapes
from .serializers import (
    ChouetteGameInputSerializer,
    PlayerActionSerializer,
    SessionCreateSerializer,
    game_data,
    ledger_data,
    next_data,
    session_data,
    settlement_data,
)

ID_PARAM = OpenApiParameter("id", int, OpenApiParameter.PATH)


# --- views ------------------------------------------------------------------------------------


def _actor(request: Request) -> Actor:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return actor_for_user(request.user)


def _with_etag(response: Response, session: Session) -> Response:
    response["ETag"] = session.etag
    return response


def _expected_version(request: Request) -> int | None:
    """The session version the client read, from ``If-Match`` (None: no precondition)."""
    return locking.expected_version(request, noun="session")


def _game_response(result: recording.RecordedGame, code: int) -> Response:
    """A game write's answer: the game with its payouts, the ledger and the next order."""
    sheet = session_sheet(result.session.pk)
    game = next((g for g in sheet.games if g.number == result.number), None)
    body = {
        "session": sheet.session.pk,
        "version": sheet.session.version,
        "game": game_data(game, sheet) if game is not None else None,
        "ledger": ledger_data(sheet),
        "next": next_data(sheet),
    }
    return _with_etag(Response(body, status=code), sheet.session)


class SessionViewSet(viewsets.ViewSet):
    """Chouette sessions: anyone reads; seated players and the club's directors write."""

    permission_classes = [AllowAny]  # each write resolves its actor and asks the service
    lookup_value_regex = ID_PATTERN  # /sessions/abc/... is a 404, not a query with "abc"

    def _sheet_response(self, session_id: int, code: int = status.HTTP_200_OK) -> Response:
        sheet = session_sheet(session_id)
        return _with_etag(Response(session_data(sheet), status=code), sheet.session)

    @extend_schema(
        operation_id="chouette_sessions_list",
        responses={200: shapes.ChouetteSessionRowSerializer},  # a list action: wrapped
        parameters=[
            OpenApiParameter("club", str, OpenApiParameter.QUERY, required=False),
            OpenApiParameter("status", str, OpenApiParameter.QUERY, required=False),
        ],
    )
    def list(self, request: Request) -> Response:
        sessions = sessions_queryset().order_by("-played_on", "-id")
        if club := query_text(request, "club", max_length=limits.MAX_CLUB_SLUG):
            sessions = sessions.filter(club__slug=club)
        if (wanted := query_text(request, "status")) in SessionStatus.values:
            sessions = sessions.filter(status=wanted)
        return Response(
            [
                {
                    "id": s.pk,
                    "club": s.club.slug,
                    "played_on": s.played_on.isoformat(),
                    "label": s.label,
                    "stake": str(s.stake),
                    "currency": s.currency,
                    "status": s.status,
                    "version": s.version,
                }
                for s in sessions[:200]
            ]
        )

    @extend_schema(
        request=SessionCreateSerializer,
        responses={201: shapes.ChouetteSessionSerializer},
        parameters=[*WRITE_PARAMS[1:], api_headers.ETAG, api_headers.LOCATION],
    )
    @idempotent
    def create(self, request: Request) -> Response:
        actor = _actor(request)
        data = SessionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        rules = dict(values.pop("rules", {}) or {})
        profile = rules.pop("profile", RuleProfile.MODERN)
        session = sessions.open_session(
            actor=actor,
            club=values["club"],
            stake=values["stake"],
            currency=values["currency"],
            played_on=values.get("played_on"),
            label=values["label"],
            profile=profile,
            rules=rules,
            players=values.get("players"),
            rolls=values.get("rolls"),
        )
        response = self._sheet_response(session.pk, status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/chouette/sessions/{session.pk}/"
        return response

    @extend_schema(
        responses=shapes.ChouetteSessionSerializer, parameters=[ID_PARAM, api_headers.ETAG]
    )
    def retrieve(self, request: Request, pk: str) -> Response:
        get_object_or_404(Session, pk=pk)
        return self._sheet_response(int(pk))

    @extend_schema(
        methods=["POST"],
        request=ChouetteGameInputSerializer,
        responses={201: shapes.ChouetteGameWrittenSerializer},
        parameters=[ID_PARAM, *WRITE_PARAMS],
    )
    @extend_schema(
        methods=["GET"],
        responses={200: shapes.ChouetteGameSerializer(many=True)},
        parameters=[ID_PARAM],
    )
    @action(detail=True, methods=["get", "post"])
    @idempotent
    def games(self, request: Request, pk: str) -> Response:
        """GET: every game of the session; POST: record the next game (201)."""
        if request.method == "GET":
            get_object_or_404(Session, pk=pk)
            sheet = session_sheet(int(pk))
            return _with_etag(Response([game_data(g, sheet) for g in sheet.games]), sheet.session)
        actor = _actor(request)
        get_object_or_404(Session, pk=pk)
        data = ChouetteGameInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = recording.record_game(
            actor=actor,
            session_id=int(pk),
            game=data.to_game_input(),
            number=data.validated_data.get("number"),
            expected_version=_expected_version(request),
        )
        return _game_response(result, status.HTTP_201_CREATED)

    @extend_schema(responses=shapes.ChouetteLedgerSerializer, parameters=[ID_PARAM])
    @action(detail=True, methods=["get"])
    def ledger(self, request: Request, pk: str) -> Response:
        get_object_or_404(Session, pk=pk)
        sheet = session_sheet(int(pk))
        return _with_etag(Response(ledger_data(sheet)), sheet.session)

    @extend_schema(responses=shapes.ChouetteSettlementSerializer, parameters=[ID_PARAM])
    @action(detail=True, methods=["get"])
    def settlement(self, request: Request, pk: str) -> Response:
        get_object_or_404(Session, pk=pk)
        sheet = session_sheet(int(pk))
        return _with_etag(Response(settlement_data(sheet)), sheet.session)

    @extend_schema(
        operation_id="chouette_sessions_audit",
        responses={200: AuditEntrySerializer(many=True)},
        parameters=[ID_PARAM],
    )
    @action(detail=True, methods=["get"])
    def audit(self, request: Request, pk: str) -> Response:
        """Every version of the session, its seats, games and member rows: who, when,
        what before, what after. For the club's directors and whoever sat at the table."""
        session = get_object_or_404(Session.objects.select_related("club"), pk=pk)
        if not common.can_read_audit(_actor(request), session):
            raise NotAllowed(
                "audit_for_the_table",
                N_("The audit trail is for the players of this session and the club's directors."),
            )
        # each summary in the reader's language (a Text is its English until str())
        trail = [{**e, "summary": str(e["summary"])} for e in session_audit_trail(session)]
        return _with_etag(Response(trail), session)

    def _seat_change(self, request: Request, pk: str, service: Any) -> Response:
        actor = _actor(request)
        get_object_or_404(Session, pk=pk)
        data = PlayerActionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        service(
            actor=actor,
            session_id=int(pk),
            player=data.validated_data["player"],
            expected_version=_expected_version(request),
        )
        return self._sheet_response(int(pk))

    @extend_schema(
        request=PlayerActionSerializer,
        responses=shapes.ChouetteSessionSerializer,
        parameters=[ID_PARAM, *WRITE_PARAMS],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def join(self, request: Request, pk: str) -> Response:
        """A newcomer sits down at the bottom of the team."""
        return self._seat_change(request, pk, seats.join_session)

    @extend_schema(
        request=PlayerActionSerializer,
        responses=shapes.ChouetteSessionSerializer,
        parameters=[ID_PARAM, *WRITE_PARAMS],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def leave(self, request: Request, pk: str) -> Response:
        """A player leaves between games (a leaving box is replaced by the captain)."""
        return self._seat_change(request, pk, seats.leave_session)

    @extend_schema(
        request=None,
        responses=shapes.ChouetteSessionSerializer,
        parameters=[ID_PARAM, *WRITE_PARAMS],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def close(self, request: Request, pk: str) -> Response:
        actor = _actor(request)
        get_object_or_404(Session, pk=pk)
        sessions.close_session(
            actor=actor, session_id=int(pk), expected_version=_expected_version(request)
        )
        return self._sheet_response(int(pk))


class SessionGameView(viewsets.ViewSet):
    """``/sessions/{id}/games/{n}/``: GET one game, PATCH corrects it (everything after
    is re-derived), DELETE undoes it if it is the last."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="chouette_sessions_game_retrieve", responses=shapes.ChouetteGameSerializer
    )
    def retrieve(self, request: Request, session_pk: str, number: str) -> Response:
        get_object_or_404(ChouetteGame, session_id=session_pk, number=number)
        sheet = session_sheet(int(session_pk))
        game = next(g for g in sheet.games if g.number == int(number))
        return _with_etag(Response(game_data(game, sheet)), sheet.session)

    @extend_schema(
        request=ChouetteGameInputSerializer,
        responses=shapes.ChouetteGameWrittenSerializer,
        parameters=WRITE_PARAMS[:1],
    )
    def partial_update(self, request: Request, session_pk: str, number: str) -> Response:
        """Fields left out keep their recorded value; ``members`` replaces the rows."""
        actor = _actor(request)
        current = get_object_or_404(
            ChouetteGame.objects.prefetch_related("members"), session_id=session_pk, number=number
        )
        merged: dict[str, Any] = {
            "winner": current.winner or None,
            "level": current.level,
            "ending": current.ending or None,
            "automatic_doubles": current.automatic_doubles,
            "partner": current.given_partner_id,
            "members": [
                {
                    "player": m.player_id,
                    "cube": m.cube,
                    "action": m.action,
                    "owner": m.owner or None,
                    "raccoon": m.raccoon,
                    "stake": m.stake,
                    "taken_over": m.taken_over,
                }
                for m in current.members.all()
            ],
        }
        merged.update({k: v for k, v in require_object(request.data).items() if k != "number"})
        data = ChouetteGameInputSerializer(data=merged)
        data.is_valid(raise_exception=True)
        result = corrections.correct_game(
            actor=actor,
            session_id=int(session_pk),
            number=int(number),
            game=data.to_game_input(),
            expected_version=_expected_version(request),
        )
        return _game_response(result, status.HTTP_200_OK)

    @extend_schema(
        request=None,
        responses={200: shapes.ChouetteGameWrittenSerializer},  # the undo answers the sheet
        parameters=WRITE_PARAMS[:1],
    )
    def destroy(self, request: Request, session_pk: str, number: str) -> Response:
        actor = _actor(request)
        get_object_or_404(Session, pk=session_pk)
        result = corrections.undo_last_game(
            actor=actor,
            session_id=int(session_pk),
            number=int(number),
            expected_version=_expected_version(request),
        )
        return _game_response(result, status.HTTP_200_OK)
