"""The chouette API under /api/v1/chouette/: sessions, games, ledger and settlement.

Views only parse input, resolve the actor, call one service and render the sheet.
Every write answers with the session's ``ETag`` (its version); ``If-Match`` with a
stale version answers 412; ``Idempotency-Key`` makes a retried POST safe. Reads are
public, like matches.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from core import locking
from games.api.idempotency import idempotent
from games.api.inputs import ID_PATTERN, ClubRef, query_text, require_object
from games.models import Player
from games.rules import limits
from games.rules.errors import NotAllowed
from games.services.actors import Actor, actor_for_user

from . import services
from .audit import session_audit_trail
from .models import (
    BoxRetention,
    ChouetteGame,
    Consultation,
    CubeMode,
    Ending,
    Level,
    MemberAction,
    PartnerChoice,
    RuleProfile,
    Session,
    SessionStatus,
    Side,
)
from .records import GameInput, MemberInput
from .selectors import Sheet, game_payouts, session_sheet, sessions_queryset

ID_PARAM = OpenApiParameter("id", int, OpenApiParameter.PATH)
LIST_OF_OBJECTS = {"type": "array", "items": {"type": "object", "additionalProperties": {}}}
"""The schema of an answer that is a JSON array of objects."""
WRITE_PARAMS = [
    OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False),
    OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False),
]


# --- input serializers (parse only) ---------------------------------------------------------


class HouseRulesSerializer(serializers.Serializer):
    """Every house rule is optional: the profile's value stands unless given."""

    profile = serializers.ChoiceField(choices=RuleProfile.choices, default=RuleProfile.MODERN)
    cubes = serializers.ChoiceField(choices=CubeMode.choices, required=False)
    jacoby = serializers.BooleanField(required=False)
    beavers = serializers.BooleanField(required=False)
    raccoons = serializers.BooleanField(required=False)
    automatic_doubles = serializers.BooleanField(required=False)
    automatic_double_limit = serializers.IntegerField(
        min_value=0, max_value=limits.MAX_AUTOMATIC_DOUBLES, required=False
    )
    philadelphia = serializers.BooleanField(required=False)
    # The column's bounds; the rules then name their own (3 or 4; a partner from 4 players).
    backgammon_value = serializers.IntegerField(
        min_value=0, max_value=limits.MAX_INT16, required=False
    )
    cube_limit = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_CUBE, required=False, allow_null=True
    )
    partner_threshold = serializers.IntegerField(
        min_value=0, max_value=limits.MAX_SEATS, required=False, allow_null=True
    )
    partner_choice = serializers.ChoiceField(choices=PartnerChoice.choices, required=False)
    captain_takeover = serializers.BooleanField(required=False)
    box_retention = serializers.ChoiceField(choices=BoxRetention.choices, required=False)
    consultation = serializers.ChoiceField(choices=Consultation.choices, required=False)
    allow_starting_cube = serializers.BooleanField(required=False)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {unknown[0]: [f"Unknown house rule. Known: {', '.join(self.fields)}."]}
                )
        return super().to_internal_value(data)


class RollsField(serializers.DictField):
    """``{"<player id>": roll}`` or ``{"<player id>": [roll, re-roll, ...]}``."""

    def to_internal_value(self, data: Any) -> dict[int, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError("Rolls are an object: player id to roll(s).")
        if len(data) > limits.MAX_SEATS:
            raise serializers.ValidationError(
                f"At most {limits.MAX_SEATS} players roll for the order.", code="max_length"
            )
        rolls: dict[int, Any] = {}
        for key, value in data.items():
            try:
                pk = int(key)
            except (TypeError, ValueError):
                raise serializers.ValidationError(f"{key!r} is not a player id.") from None
            if isinstance(value, list) and len(value) > limits.MAX_ROLLS:
                raise serializers.ValidationError(
                    f"Player {pk} gave {len(value)} rolls: at most {limits.MAX_ROLLS} "
                    "(the first and its re-rolls).",
                    code="max_length",
                )
            rolls[pk] = value
        return rolls


class SessionCreateSerializer(serializers.Serializer):
    club = ClubRef()
    stake = serializers.CharField(max_length=20, help_text="Money per point, e.g. '1.00'.")
    currency = serializers.CharField(max_length=3, default="EUR")
    played_on = serializers.DateField(required=False, allow_null=True)
    label = serializers.CharField(
        max_length=limits.MAX_LABEL, required=False, allow_blank=True, default=""
    )
    rules = HouseRulesSerializer(required=False)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=limits.MAX_ID),
        required=False,
        max_length=limits.MAX_SEATS,
        help_text="Box first, then the team.",
    )
    rolls = RollsField(required=False)


class ChouetteMemberInputSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=limits.MAX_ID)
    cube = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_CUBE, required=False, allow_null=True
    )
    action = serializers.ChoiceField(choices=MemberAction.choices, default=MemberAction.PLAYED)
    owner = serializers.ChoiceField(choices=Side.choices, required=False, allow_null=True)
    raccoon = serializers.BooleanField(default=False)
    stake = serializers.IntegerField(
        min_value=1,
        max_value=limits.MAX_STAKE_MULTIPLE,
        default=1,
        help_text="Stake multiple: 1, 2 or 4.",
    )
    taken_over = serializers.BooleanField(default=False)
    cube_turned = serializers.BooleanField(required=False, allow_null=True)


class ChouetteGameInputSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=Side.choices, required=False, allow_null=True)
    level = serializers.ChoiceField(choices=Level.choices, default=Level.SINGLE)
    ending = serializers.ChoiceField(choices=Ending.choices, required=False, allow_null=True)
    automatic_doubles = serializers.IntegerField(
        min_value=0, max_value=limits.MAX_AUTOMATIC_DOUBLES, default=0
    )
    partner = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_ID, required=False, allow_null=True
    )
    box = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_ID, required=False, allow_null=True
    )
    captain = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_ID, required=False, allow_null=True
    )
    members = ChouetteMemberInputSerializer(
        many=True, allow_empty=False, max_length=limits.MAX_SEATS
    )
    number = serializers.IntegerField(
        min_value=1,
        max_value=limits.MAX_GAME_NUMBER,
        required=False,
        allow_null=True,
        help_text="Which game this is; if it is already recorded the answer is 409.",
    )

    def to_game_input(self) -> GameInput:
        data = self.validated_data
        return GameInput(
            members=tuple(
                MemberInput(
                    player_id=m["player"],
                    cube=m.get("cube"),
                    action=m["action"],
                    owner=m.get("owner"),
                    raccoon=m["raccoon"],
                    stake=m["stake"],
                    taken_over=m["taken_over"],
                    cube_turned=m.get("cube_turned"),
                )
                for m in data["members"]
            ),
            winner=data.get("winner"),
            level=data["level"],
            ending=data.get("ending"),
            automatic_doubles=data["automatic_doubles"],
            partner_id=data.get("partner"),
            box_id=data.get("box"),
            captain_id=data.get("captain"),
        )


class PlayerActionSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


# --- output (plain dicts from the sheet: no query per row) ----------------------------------


def _player(player: Player | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {"id": player.pk, "name": player.display_name}


def rules_data(session: Session) -> dict[str, Any]:
    return {
        "profile": session.profile,
        "cubes": session.cubes,
        "jacoby": session.jacoby,
        "beavers": session.beavers,
        "raccoons": session.raccoons,
        "automatic_doubles": session.automatic_doubles,
        "automatic_double_limit": session.automatic_double_limit,
        "philadelphia": session.philadelphia,
        "backgammon_value": session.backgammon_value,
        "cube_limit": session.cube_limit,
        "partner_threshold": session.partner_threshold,
        "partner_choice": session.partner_choice,
        "captain_takeover": session.captain_takeover,
        "box_retention": session.box_retention,
        "consultation": session.consultation,
        "allow_starting_cube": session.allow_starting_cube,
    }


def game_data(game: ChouetteGame, sheet: Sheet) -> dict[str, Any]:
    players = sheet.players
    return {
        "number": game.number,
        "box": game.box_id,
        "partner": game.partner_id,
        "captain": game.captain_id,
        "board_captain": game.board_captain_id,
        "team_order": game.team_order,
        "winner": game.winner or None,
        "board_winner": game.board_winner,
        "level": game.level,
        "ending": game.ending or None,
        "automatic_doubles": game.automatic_doubles,
        "members": [
            {
                "player": m.player_id,
                "cube": m.cube,
                "action": m.action,
                "owner": m.owner or None,
                "raccoon": m.raccoon,
                "stake": m.stake,
                "taken_over": m.taken_over,
                "points": m.points,
            }
            for m in game.members.all()
        ],
        "payouts": [
            {"player": pk, "name": players[pk].display_name, "points": points}
            for pk, points in game_payouts(game).items()
        ],
    }


def _totals(sheet: Sheet, totals: dict[int, int]) -> list[dict[str, Any]]:
    return [
        {"player": pk, "name": sheet.players[pk].display_name, "points": points}
        for pk, points in totals.items()
    ]


def ledger_data(sheet: Sheet) -> dict[str, Any]:
    return {
        "games": [
            {
                "number": entry.game.number,
                "payouts": _totals(sheet, dict(entry.row.payouts)),
                "totals": _totals(sheet, dict(entry.row.totals)),
            }
            for entry in sheet.ledger
        ],
        "totals": [
            {
                "player": pk,
                "name": sheet.players[pk].display_name,
                "points": points,
                "money": str(sheet.money[pk]),
            }
            for pk, points in sheet.totals.items()
        ],
        "currency": sheet.session.currency,
        "stake": str(sheet.session.stake),
    }


def settlement_data(sheet: Sheet) -> dict[str, Any]:
    ledger = ledger_data(sheet)
    return {
        "status": sheet.session.status,
        "currency": sheet.session.currency,
        "stake": str(sheet.session.stake),
        "totals": ledger["totals"],
        "transfers": [
            {
                "payer": t.payer,
                "payer_name": sheet.players[t.payer].display_name,
                "payee": t.payee,
                "payee_name": sheet.players[t.payee].display_name,
                "amount": str(t.amount),
            }
            for t in sheet.transfers
        ],
    }


def next_data(sheet: Sheet) -> dict[str, Any]:
    nxt = sheet.next
    return {
        "number": len(sheet.games) + 1,
        "box": _player(nxt.box),
        "captain": _player(nxt.captain),
        "partner": _player(nxt.partner),
        "partner_to_name": nxt.partner_to_name,
        "team": [_player(p) for p in nxt.team],
    }


def session_data(sheet: Sheet) -> dict[str, Any]:
    session = sheet.session
    last = sheet.last_game
    return {
        "id": session.pk,
        "club": session.club.slug,
        "played_on": session.played_on.isoformat(),
        "label": session.label,
        "stake": str(session.stake),
        "currency": session.currency,
        "status": session.status,
        "version": session.version,
        "rules": rules_data(session),
        "opening_order": session.opening_order,
        "opening_rolls": session.opening_rolls,
        "seats": [
            {
                "player": seat.player_id,
                "name": seat.player.display_name,
                "joined_at": seat.joined_at.isoformat(),
                "left_at": seat.left_at.isoformat() if seat.left_at else None,
                "seated": seat.left_at is None,
            }
            for seat in sheet.seats
        ],
        "next": next_data(sheet),
        "box": _player(sheet.next.box),
        "captain": _player(sheet.next.captain),
        "partner": _player(sheet.next.partner),
        "team": [p.pk for p in sheet.next.team],
        "games": len(sheet.games),
        "last_game": game_data(last, sheet) if last is not None else None,
        "totals": ledger_data(sheet)["totals"],
    }


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


def _game_response(result: services.RecordedGame, code: int) -> Response:
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
        responses={200: LIST_OF_OBJECTS["items"]},  # a list action: items, wrapped
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
        request=SessionCreateSerializer, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[1:]
    )
    @idempotent
    def create(self, request: Request) -> Response:
        actor = _actor(request)
        data = SessionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        rules = dict(values.pop("rules", {}) or {})
        profile = rules.pop("profile", RuleProfile.MODERN)
        session = services.open_session(
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

    @extend_schema(responses=OpenApiTypes.OBJECT, parameters=[ID_PARAM])
    def retrieve(self, request: Request, pk: str) -> Response:
        get_object_or_404(Session, pk=pk)
        return self._sheet_response(int(pk))

    @extend_schema(
        methods=["POST"],
        request=ChouetteGameInputSerializer,
        responses=OpenApiTypes.OBJECT,
        parameters=[ID_PARAM, *WRITE_PARAMS],
    )
    @extend_schema(methods=["GET"], responses={200: LIST_OF_OBJECTS}, parameters=[ID_PARAM])
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
        result = services.record_game(
            actor=actor,
            session_id=int(pk),
            game=data.to_game_input(),
            number=data.validated_data.get("number"),
            expected_version=_expected_version(request),
        )
        return _game_response(result, status.HTTP_201_CREATED)

    @extend_schema(responses=OpenApiTypes.OBJECT, parameters=[ID_PARAM])
    @action(detail=True, methods=["get"])
    def ledger(self, request: Request, pk: str) -> Response:
        get_object_or_404(Session, pk=pk)
        sheet = session_sheet(int(pk))
        return _with_etag(Response(ledger_data(sheet)), sheet.session)

    @extend_schema(responses=OpenApiTypes.OBJECT, parameters=[ID_PARAM])
    @action(detail=True, methods=["get"])
    def settlement(self, request: Request, pk: str) -> Response:
        get_object_or_404(Session, pk=pk)
        sheet = session_sheet(int(pk))
        return _with_etag(Response(settlement_data(sheet)), sheet.session)

    @extend_schema(
        operation_id="chouette_sessions_audit",
        responses={200: LIST_OF_OBJECTS},
        parameters=[ID_PARAM],
    )
    @action(detail=True, methods=["get"])
    def audit(self, request: Request, pk: str) -> Response:
        """Every version of the session, its seats, games and member rows: who, when,
        what before, what after. For the club's directors and whoever sat at the table."""
        session = get_object_or_404(Session.objects.select_related("club"), pk=pk)
        if not services.can_read_audit(_actor(request), session):
            raise NotAllowed(
                "audit_for_the_table",
                "The audit trail is for the players of this session and the club's directors.",
            )
        return _with_etag(Response(session_audit_trail(session)), session)

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
        responses=OpenApiTypes.OBJECT,
        parameters=[ID_PARAM, *WRITE_PARAMS],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def join(self, request: Request, pk: str) -> Response:
        """A newcomer sits down at the bottom of the team."""
        return self._seat_change(request, pk, services.join_session)

    @extend_schema(
        request=PlayerActionSerializer,
        responses=OpenApiTypes.OBJECT,
        parameters=[ID_PARAM, *WRITE_PARAMS],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def leave(self, request: Request, pk: str) -> Response:
        """A player leaves between games (a leaving box is replaced by the captain)."""
        return self._seat_change(request, pk, services.leave_session)

    @extend_schema(
        request=None, responses=OpenApiTypes.OBJECT, parameters=[ID_PARAM, *WRITE_PARAMS]
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def close(self, request: Request, pk: str) -> Response:
        actor = _actor(request)
        get_object_or_404(Session, pk=pk)
        services.close_session(
            actor=actor, session_id=int(pk), expected_version=_expected_version(request)
        )
        return self._sheet_response(int(pk))


class SessionGameView(viewsets.ViewSet):
    """``/sessions/{id}/games/{n}/``: GET one game, PATCH corrects it (everything after
    is re-derived), DELETE undoes it if it is the last."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="chouette_sessions_game_retrieve", responses=OpenApiTypes.OBJECT)
    def retrieve(self, request: Request, session_pk: str, number: str) -> Response:
        get_object_or_404(ChouetteGame, session_id=session_pk, number=number)
        sheet = session_sheet(int(session_pk))
        game = next(g for g in sheet.games if g.number == int(number))
        return _with_etag(Response(game_data(game, sheet)), sheet.session)

    @extend_schema(
        request=ChouetteGameInputSerializer,
        responses=OpenApiTypes.OBJECT,
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
        result = services.correct_game(
            actor=actor,
            session_id=int(session_pk),
            number=int(number),
            game=data.to_game_input(),
            expected_version=_expected_version(request),
        )
        return _game_response(result, status.HTTP_200_OK)

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, parameters=WRITE_PARAMS[:1])
    def destroy(self, request: Request, session_pk: str, number: str) -> Response:
        actor = _actor(request)
        get_object_or_404(Session, pk=session_pk)
        result = services.undo_last_game(
            actor=actor,
            session_id=int(session_pk),
            number=int(number),
            expected_version=_expected_version(request),
        )
        return _game_response(result, status.HTTP_200_OK)
