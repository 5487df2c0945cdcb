"""The match API: create, read, record games or a final score, confirm, dispute, undo,
director corrections, voids and forfeits, private score links and the audit trail.

Views only parse input, resolve the actor, call one service and render the match.
Every write answers with the match and its ``ETag`` (the version); ``If-Match`` with a
stale version answers 412; ``Idempotency-Key`` makes retries safe.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from core import locking
from core.actors import Actor
from core.idempotency import idempotent
from games import score_links
from games.models import Club, Dispute, Game, Match, MatchStatus, Player
from games.models.matches import HAND_ENTRY_ENDINGS
from games.rules import limits
from games.rules.errors import RuleViolation
from games.rules.scoring import next_game_facts
from games.selectors import matches_queryset, next_game_open
from games.selectors_chances import Chances, winning_chances
from games.services import matches as match_services
from games.services.actors import (
    actor_for_score_link,
    actor_for_user,
    is_match_director,
    participant_side,
)

from .audit import AuditEntrySerializer
from .inputs import ID_PATTERN, ClubRef, require_object
from .permissions import SCORE_LINK_HEADER, MatchWritePermission
from .tables import TableSerializer

# --- serializers -----------------------------------------------------------------------------


class PlayerRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "display_name", "slug"]


class GameSerializer(serializers.ModelSerializer):
    score_before = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "number",
            "score_before",
            "winner",
            "cube",
            "cube_owner",
            "ending",
            "level",
            "points",
            "crawford",
            "post_crawford",
            "confirmed",
            "entered_by",
        ]

    def get_score_before(self, game: Game) -> list[int]:
        return [game.score1_before, game.score2_before]


class MatchSummarySerializer(serializers.ModelSerializer):
    player1 = PlayerRefSerializer()
    player2 = PlayerRefSerializer()
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    score = serializers.SerializerMethodField()
    winning_chances = serializers.SerializerMethodField(
        help_text="Each player's chance to win the match from where it stands, "
        "[player1, player2], summing to 1 (docs/chances.md): before the first game the "
        "FIBS probability for the length from their ratings on the club's list; during "
        "the match the club's match equity table (Kazaross-XG2 by default), shifted by "
        "the rating gap; [1, 0] or [0, 1] once decided. null for a void match, an "
        "unlimited session, or a match longer than the table once it has started."
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "club",
            "player1",
            "player2",
            "length",
            "crawford",
            "rated",
            "cube_limit",
            "status",
            "source",
            "score",
            "winner",
            "confirmation",
            "awaiting",
            "final_score_only",
            "label",
            "table",
            "played_on",
            "version",
            "created_at",
            "finished_at",
            "winning_chances",
        ]

    def get_score(self, match: Match) -> list[int]:
        return [match.score1, match.score2]

    def _chances(self, match: Match) -> Chances | None:
        """Read once for the whole page of a list (two queries, not two per match)."""
        cache: dict[int, Chances | None] = self.context.setdefault("_chances", {})
        if match.pk not in cache:
            siblings = getattr(self.parent, "instance", None)
            batch = list(siblings) if isinstance(siblings, list | tuple) else [match]
            if match not in batch:
                batch = [match]
            cache.update(winning_chances(batch, crawford_played=self._crawford_known(batch)))
        return cache[match.pk]

    def _crawford_known(self, batch: list[Match]) -> dict[int, bool] | None:
        return None

    @extend_schema_field(
        serializers.ListField(
            child=serializers.FloatField(min_value=0, max_value=1),
            min_length=2,
            max_length=2,
            allow_null=True,
        )
    )
    def get_winning_chances(self, match: Match) -> list[float] | None:
        chances = self._chances(match)
        return None if chances is None else chances.as_list()


GAME_FIELDS = match_services.GAME_FIELDS


class MatchDetailSerializer(MatchSummarySerializer):
    """The match with its games and the Crawford facts a client needs to enter the next.

    Games are read as plain values in one query (no model instances), or not at all
    when the service that returned the match already has them (``Match.game_rows``):
    this is the body of every score-entry response.
    The Crawford facts come from the per-game facts the services keep in step.
    """

    games = serializers.SerializerMethodField()
    crawford_game = serializers.SerializerMethodField()
    next_game = serializers.SerializerMethodField()
    next_game_is_crawford = serializers.SerializerMethodField()
    post_crawford = serializers.SerializerMethodField()

    class Meta(MatchSummarySerializer.Meta):
        fields = [
            *MatchSummarySerializer.Meta.fields,
            "games",
            "crawford_game",
            "next_game",
            "next_game_is_crawford",
            "post_crawford",
        ]

    def _rows(self, match: Match) -> list[dict[str, Any]]:
        if match.game_rows is not None:  # the write that returned the match read them
            return match.game_rows
        cache = self.context.setdefault("_games", {})
        if match.pk not in cache:
            cache[match.pk] = list(
                Game.objects.filter(match_id=match.pk).order_by("number").values(*GAME_FIELDS)
            )
        return cache[match.pk]

    def _open(self, match: Match) -> bool:
        return next_game_open(match)

    def _crawford_known(self, batch: list[Match]) -> dict[int, bool] | None:
        """The games are read anyway: whether the Crawford game was played needs no query."""
        return {m.pk: any(g["crawford"] for g in self._rows(m)) for m in batch}

    def _next_facts(self, match: Match) -> tuple[bool, bool]:
        crawford_played = any(g["crawford"] for g in self._rows(match))
        return next_game_facts(
            match_services.match_rules(match), (match.score1, match.score2), crawford_played
        )

    @extend_schema_field(GameSerializer(many=True))
    def get_games(self, match: Match) -> list[dict[str, Any]]:
        return [
            {
                "number": g["number"],
                "score_before": [g["score1_before"], g["score2_before"]],
                "winner": g["winner_id"],
                "cube": g["cube"],
                "cube_owner": g["cube_owner"],
                "ending": g["ending"],
                "level": g["level"],
                "points": g["points"],
                "crawford": g["crawford"],
                "post_crawford": g["post_crawford"],
                "confirmed": g["confirmed"],
                "entered_by": g["entered_by_id"],
            }
            for g in self._rows(match)
        ]

    def get_crawford_game(self, match: Match) -> int | None:
        return next((g["number"] for g in self._rows(match) if g["crawford"]), None)

    def get_next_game(self, match: Match) -> int | None:
        return len(self._rows(match)) + 1 if self._open(match) else None

    def get_next_game_is_crawford(self, match: Match) -> bool:
        return self._open(match) and self._next_facts(match)[0]

    def get_post_crawford(self, match: Match) -> bool:
        rows = self._rows(match)
        if any(g["post_crawford"] for g in rows):
            return True
        return self._open(match) and self._next_facts(match)[1]


class MatchCreateSerializer(serializers.Serializer):
    club = ClubRef()
    player1 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player2 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    length = serializers.IntegerField(min_value=0, max_value=limits.MAX_MATCH_LENGTH)
    crawford = serializers.BooleanField(default=True)
    rated = serializers.BooleanField(default=True)
    cube_limit = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_CUBE, required=False, allow_null=True
    )
    # a field named like DRF's Field.label attribute, which the stubs type as a string
    label = serializers.CharField(  # type: ignore[assignment]
        max_length=limits.MAX_LABEL, required=False, allow_blank=True, default=""
    )
    played_on = serializers.DateField(required=False, allow_null=True)


class GameInputSerializer(serializers.Serializer):
    winner = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_ID, help_text="Player id of the game's winner."
    )
    cube = serializers.IntegerField(min_value=1, max_value=limits.MAX_CUBE, default=1)
    cube_owner = serializers.ChoiceField(
        choices=Game.CubeOwner.choices,
        required=False,
        help_text="Who holds the cube. Optional: omitted, a cube of 1 is 'centre' and a "
        "turned cube is 'unknown' (score sheets rarely record the owner; it changes no score).",
    )
    ending = serializers.ChoiceField(choices=HAND_ENTRY_ENDINGS, default="played")
    level = serializers.ChoiceField(choices=Game.Level.choices, default="single")
    points = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_SCORE, required=False, allow_null=True
    )
    number = serializers.IntegerField(
        min_value=1,
        max_value=limits.MAX_GAME_NUMBER,
        required=False,
        allow_null=True,
        help_text="Which game this is; if it is already recorded the answer is 409.",
    )

    def to_game_input(self) -> match_services.GameInput:
        data = self.validated_data
        return match_services.GameInput(
            winner_id=data["winner"],
            cube=data["cube"],
            cube_owner=data.get("cube_owner") or match_services.default_cube_owner(data["cube"]),
            ending=data["ending"],
            level=data["level"],
            points=data.get("points"),
        )

    def to_game_changes(self) -> match_services.GameChanges:
        """A partial body (``partial=True``): only the fields sent, for a correction."""
        data = self.validated_data
        return match_services.GameChanges(
            winner_id=data.get("winner"),
            cube=data.get("cube"),
            cube_owner=data.get("cube_owner"),
            ending=data.get("ending"),
            level=data.get("level"),
            points=data.get("points"),
        )


class FinalScoreSerializer(serializers.Serializer):
    score = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=limits.MAX_SCORE),
        min_length=2,
        max_length=2,
    )


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=limits.MAX_REASON)


class ResolveSerializer(serializers.Serializer):
    resolution = serializers.CharField(
        max_length=limits.MAX_REASON, help_text="The director's note; the players see it."
    )
    decision = serializers.ChoiceField(
        choices=Dispute.Decision.choices,
        required=False,
        default=Dispute.Decision.KEEP,
        help_text="keep (the default): the result stands; corrected: the games were "
        "corrected first and the result stands as it now is; void: the match is voided.",
    )


class ForfeitSerializer(serializers.Serializer):
    winner = serializers.IntegerField(min_value=1, max_value=limits.MAX_ID)


class ReopenSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=limits.MAX_REASON,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why the match is reopened; shown in its audit trail.",
    )


class MatchFilter(filters.FilterSet):
    club = filters.CharFilter(field_name="club__slug")
    player = filters.NumberFilter(method="filter_player")
    status = filters.ChoiceFilter(choices=MatchStatus.choices)

    class Meta:
        model = Match
        fields = ["club", "player", "status"]

    def filter_player(self, queryset: QuerySet[Match], name: str, value: int) -> QuerySet[Match]:
        return queryset.filter(Q(player1_id=value) | Q(player2_id=value))


def _expected_version(request: Request) -> int | None:
    """The match version the client read, from ``If-Match`` (None: no precondition)."""
    return locking.expected_version(request, noun="match")


MATCH_WRITE_PARAMS = [
    OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False),
    OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False),
    OpenApiParameter(SCORE_LINK_HEADER, str, OpenApiParameter.HEADER, required=False),
]


class MatchViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Matches of the clubs: public reads, writes by participants and directors."""

    # An account or (for a write to one match) its score link; each write then resolves
    # its actor and asks the service.
    permission_classes = [MatchWritePermission]
    filterset_class = MatchFilter
    lookup_value_regex = ID_PATTERN  # /matches/abc/... is a 404, not a query with "abc"
    throttle_scope = "score"

    def get_queryset(self) -> QuerySet[Match]:
        return matches_queryset().order_by("-created_at", "-id")

    def get_serializer_class(self) -> type[serializers.Serializer]:
        return MatchSummarySerializer if self.action == "list" else MatchDetailSerializer

    def get_throttles(self) -> list[Any]:
        if self.request.method == "POST":
            return [ScopedRateThrottle()]
        return super().get_throttles()

    # -- who is asking ---------------------------------------------------------------------

    def _actor(self, request: Request, match_id: int | None = None) -> Actor:
        """The signed-in user; or, for a write to match ``match_id`` only, the player
        whose private score link for that match is presented. Without a match (creating
        one) a score link counts for nothing: the caller needs an account."""
        token = request.headers.get(SCORE_LINK_HEADER) or request.query_params.get("link")
        if token and match_id is not None and not request.user.is_authenticated:
            parsed = score_links.read_token(token)
            if parsed is None or parsed[0] != int(match_id):
                raise PermissionDenied("This score link is not valid for this match.")
            match = get_object_or_404(Match, pk=parsed[0])
            if not score_links.link_is_live(match):
                raise PermissionDenied("This score link has expired: the result is final.")
            request.score_link = parsed  # type: ignore[attr-defined]
            return actor_for_score_link(get_object_or_404(Player, pk=parsed[1]))
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        return actor_for_user(request.user)

    def _respond(self, match: Match, code: int = status.HTTP_200_OK) -> Response:
        """Render the match a service returned (its club and players are loaded)."""
        response = Response(MatchDetailSerializer(match).data, status=code)
        response["ETag"] = match.etag
        return response

    def _write(self, request: Request, pk: str, service: Any, **fields: Any) -> Response:
        """Call a match service as the requesting actor, with the If-Match version."""
        match = service(
            actor=self._actor(request, int(pk)),
            match_id=int(pk),
            expected_version=_expected_version(request),
            **fields,
        )
        return self._respond(match)

    # -- reads -------------------------------------------------------------------------------

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._respond(self.get_object())

    # -- writes ------------------------------------------------------------------------------

    @extend_schema(
        request=MatchCreateSerializer,
        responses={201: MatchDetailSerializer},
        parameters=MATCH_WRITE_PARAMS[1:2],
    )
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        actor = self._actor(request)  # who is asking comes before what they sent
        data = MatchCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = match_services.create_match(actor=actor, **data.validated_data)
        return self._respond(match, status.HTTP_201_CREATED)

    @extend_schema(
        request=GameInputSerializer,
        responses={201: MatchDetailSerializer},
        parameters=MATCH_WRITE_PARAMS,
    )
    @action(detail=True, methods=["post"], url_path="games")
    @idempotent
    def record_game(self, request: Request, pk: str) -> Response:
        actor = self._actor(request, int(pk))
        data = GameInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = match_services.record_game(
            actor=actor,
            match_id=int(pk),
            game=data.to_game_input(),
            number=data.validated_data.get("number"),
            expected_version=_expected_version(request),
        )
        return self._respond(match, status.HTTP_201_CREATED)

    @extend_schema(
        request=FinalScoreSerializer,
        responses={200: MatchDetailSerializer},
        parameters=MATCH_WRITE_PARAMS,
    )
    @action(detail=True, methods=["post"], url_path="result")
    @idempotent
    def record_result(self, request: Request, pk: str) -> Response:
        actor = self._actor(request, int(pk))
        data = FinalScoreSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        score = tuple(data.validated_data["score"])
        expected = _expected_version(request)
        current = get_object_or_404(Match.objects.select_related("club"), pk=pk)
        if current.final_score_only and is_match_director(actor, current):
            match = match_services.correct_final_score(
                actor=actor, match_id=current.pk, score=score, expected_version=expected
            )
        else:
            match = match_services.record_final_score(
                actor=actor, match_id=current.pk, score=score, expected_version=expected
            )
        return self._respond(match)

    @extend_schema(
        request=None, responses={200: MatchDetailSerializer}, parameters=MATCH_WRITE_PARAMS
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def confirm(self, request: Request, pk: str) -> Response:
        return self._write(request, pk, match_services.confirm_match)

    @extend_schema(
        request=DisputeSerializer,
        responses={200: MatchDetailSerializer},
        parameters=MATCH_WRITE_PARAMS,
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def dispute(self, request: Request, pk: str) -> Response:
        actor = self._actor(request, int(pk))
        data = DisputeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match_services.dispute_match(
            actor=actor,
            match_id=int(pk),
            reason=data.validated_data["reason"],
            expected_version=_expected_version(request),
        )
        return self._respond(get_object_or_404(Match, pk=pk))

    @extend_schema(
        request=ResolveSerializer,
        responses={200: MatchDetailSerializer},
        parameters=MATCH_WRITE_PARAMS,
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def resolve(self, request: Request, pk: str) -> Response:
        actor = self._actor(request, int(pk))
        data = ResolveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = match_services.resolve_dispute(
            actor=actor,
            match_id=int(pk),
            resolution=data.validated_data["resolution"],
            decision=data.validated_data["decision"],
            expected_version=_expected_version(request),
        )
        return self._respond(match)

    @extend_schema(
        request=None, responses={200: MatchDetailSerializer}, parameters=MATCH_WRITE_PARAMS
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def undo(self, request: Request, pk: str) -> Response:
        return self._write(request, pk, match_services.undo_last_game)

    @extend_schema(
        request=None, responses={200: MatchDetailSerializer}, parameters=MATCH_WRITE_PARAMS
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def void(self, request: Request, pk: str) -> Response:
        return self._write(request, pk, match_services.void_match)

    @extend_schema(
        request=ForfeitSerializer,
        responses={200: MatchDetailSerializer},
        parameters=MATCH_WRITE_PARAMS,
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def forfeit(self, request: Request, pk: str) -> Response:
        actor = self._actor(request, int(pk))
        data = ForfeitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = match_services.forfeit_match(
            actor=actor,
            match_id=int(pk),
            winner_id=data.validated_data["winner"],
            expected_version=_expected_version(request),
        )
        return self._respond(match)

    @extend_schema(
        request=ReopenSerializer,
        responses={200: MatchDetailSerializer},
        parameters=MATCH_WRITE_PARAMS[:2],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def reopen(self, request: Request, pk: str) -> Response:
        """A director takes back a void or a forfeit; the audit trail says so and why."""
        actor = self._actor(request, int(pk))
        data = ReopenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = match_services.reopen_match(
            actor=actor,
            match_id=int(pk),
            reason=data.validated_data["reason"],
            expected_version=_expected_version(request),
        )
        return self._respond(match)

    @extend_schema(
        responses={
            200: inline_serializer(
                "ScoreLinks",
                {"links": serializers.ListField(child=serializers.DictField())},
            )
        },
        request=None,
    )
    @action(detail=True, methods=["post"], url_path="score-links")
    def score_links(self, request: Request, pk: str) -> Response:
        """Directors and participants get each player's private score link."""
        actor = self._actor(request, int(pk))
        links = []
        for player, token in match_services.score_link_tokens(actor=actor, match_id=int(pk)):
            links.append(
                {
                    "player": player.pk,
                    "token": token,
                    "url": request.build_absolute_uri(f"/score/{token}/"),
                }
            )
        return Response({"links": links})

    @extend_schema(responses={200: AuditEntrySerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)  # the whole trail, unpaged
    def audit(self, request: Request, pk: str) -> Response:
        """Every change to the match and its games: who, when, what before, what after,
        and the change in words (``summary``)."""
        match = get_object_or_404(Match.objects.select_related("club"), pk=pk)
        actor = self._actor(request, match.pk)
        if not (is_match_director(actor, match) or participant_side(actor, match) is not None):
            raise PermissionDenied("The audit trail is for the players and the club's directors.")
        from games.audit import match_audit_trail

        return Response(match_audit_trail(match))

    @extend_schema(
        request=TableSerializer,
        responses={200: MatchDetailSerializer},
        parameters=MATCH_WRITE_PARAMS[:2],
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def table(self, request: Request, pk: str) -> Response:
        """A director puts the match at a table (null clears it); see games.services.tables."""
        from games.services.tables import set_table

        actor = self._actor(request, int(pk))
        data = TableSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = set_table(
            actor=actor,
            match_id=int(pk),
            table=data.validated_data["table"],
            expected_version=_expected_version(request),
        )
        return self._respond(match)


class GameCorrectionView(viewsets.ViewSet):
    """``PATCH /api/v1/matches/{id}/games/{n}/``: a director corrects game n;
    ``DELETE`` voids it (later games renumbered and re-derived)."""

    permission_classes = [AllowAny]

    def _actor(self, request: Request) -> Actor:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        return actor_for_user(request.user)

    @extend_schema(
        request=GameInputSerializer,
        responses={200: MatchDetailSerializer},
        parameters=MATCH_WRITE_PARAMS[:2],
    )
    def partial_update(self, request: Request, match_pk: str, number: str) -> Response:
        actor = self._actor(request)
        match = get_object_or_404(Match, pk=match_pk)
        get_object_or_404(Game, match=match, number=number)
        # only the fields sent are checked here; the service merges them with the stored
        # game under the match's lock (never with a copy read before it)
        data = GameInputSerializer(data=require_object(request.data), partial=True)
        data.is_valid(raise_exception=True)
        updated = match_services.correct_game(
            actor=actor,
            match_id=match.pk,
            number=int(number),
            game=data.to_game_changes(),
            expected_version=_expected_version(request),
        )
        response = Response(MatchDetailSerializer(matches_queryset().get(pk=updated.pk)).data)
        response["ETag"] = updated.etag
        return response

    @extend_schema(
        request=None, responses={200: MatchDetailSerializer}, parameters=MATCH_WRITE_PARAMS[:1]
    )
    def destroy(self, request: Request, match_pk: str, number: str) -> Response:
        try:
            n = int(number)
        except ValueError:
            raise RuleViolation(
                "number_invalid", "The game number is a whole number.", "number"
            ) from None
        updated = match_services.remove_game(
            actor=self._actor(request),
            match_id=int(match_pk),
            number=n,
            expected_version=_expected_version(request),
        )
        response = Response(MatchDetailSerializer(matches_queryset().get(pk=updated.pk)).data)
        response["ETag"] = updated.etag
        return response
