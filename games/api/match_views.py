"""The match API: create, read, record games or a final score, confirm, dispute, undo,
director corrections of the final score, voids, forfeits and reopening, tables,
private score links and the audit trail (a game's correction: :mod:`.game_corrections`).

Views only parse input, resolve the actor, call one service and render the match.
Every write answers with the match and its ``ETag`` (the version); ``If-Match`` with a
stale version answers 412; ``Idempotency-Key`` makes retries safe.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from core import locking
from core.actors import Actor
from core.api_headers import WRITE_PARAMS
from core.idempotency import idempotent
from games import score_links
from games.models import Match, MatchStatus, Player
from games.selectors import matches_queryset
from games.services import (
    match_corrections,
    match_create,
    match_disputes,
    match_results,
    score_entry,
    score_link_sheets,
)
from games.services.actors import (
    actor_for_score_link,
    actor_for_user,
    is_match_director,
    participant_side,
    require_own_link,
)

from .audit import AuditEntrySerializer
from .inputs import ID_PATTERN
from .match_inputs import (
    DisputeSerializer,
    FinalScoreSerializer,
    ForfeitSerializer,
    GameInputSerializer,
    MatchCreateSerializer,
    ReopenSerializer,
    ResolveSerializer,
)
from .match_render import match_detail
from .match_serializers import (
    MatchDetailSerializer,
    MatchReadSerializer,
    MatchSummarySerializer,
)
from .permissions import SCORE_LINK_HEADER, MatchWritePermission
from .tables import TableSerializer
from .throttling import LinkRefused, ScoreThrottling


class MatchFilter(filters.FilterSet):
    club = filters.CharFilter(field_name="club__slug")
    player = filters.NumberFilter(method="filter_player")
    status = filters.ChoiceFilter(choices=MatchStatus.choices)

    class Meta:
        model = Match
        fields = ["club", "player", "status"]

    def filter_player(self, queryset: QuerySet[Match], name: str, value: int) -> QuerySet[Match]:
        return queryset.filter(Q(player1_id=value) | Q(player2_id=value))


def expected_match_version(request: Request) -> int | None:
    """The match version the client read, from ``If-Match`` (None: no precondition)."""
    return locking.expected_version(request, noun="match")


MATCH_WRITE_PARAMS = [
    *WRITE_PARAMS,
    OpenApiParameter(SCORE_LINK_HEADER, str, OpenApiParameter.HEADER, required=False),
]
"""A match write's headers: a versioned write's, then the private score link."""


def request_actor(request: Request, match_id: int | None = None) -> Actor:
    """The signed-in user; or, for a write to match ``match_id`` only, the player
    whose private score link for that match is presented. Without a match (creating
    one) a score link counts for nothing: the caller needs an account."""
    token = request.headers.get(SCORE_LINK_HEADER) or request.query_params.get("link")
    if token and match_id is not None and request.user.is_authenticated:
        return _account_with_link(request, token, int(match_id))
    if token and match_id is not None:
        parsed = score_links.read_token(token)
        if parsed is None or parsed[0] != int(match_id):
            raise LinkRefused("This score link is not valid for this match.")
        # the match with its two players in one read: a link is made for one of them
        match = get_object_or_404(Match.objects.select_related("player1", "player2"), pk=parsed[0])
        if not score_links.link_is_live(match):
            raise LinkRefused("This score link has expired: the result is final.")
        request.score_link = parsed  # type: ignore[attr-defined]
        player = next((p for p in (match.player1, match.player2) if p.pk == parsed[1]), None)
        return actor_for_score_link(player or get_object_or_404(Player, pk=parsed[1]))
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return actor_for_user(request.user)


def _account_with_link(request: Request, token: str, match_id: int) -> Actor:
    """A signed-in caller who also presents a score link acts as their account; but the
    opponent's link in the hands of the other player's account is refused (403
    ``link_not_yours``), whatever the write: it would act in the opponent's name."""
    actor = actor_for_user(request.user)
    parsed = score_links.read_token(token)
    if parsed is not None and parsed[0] == match_id:
        match = Match.objects.select_related("club").filter(pk=match_id).first()
        if match is not None:
            require_own_link(actor, match, parsed[1])
    return actor


class MatchViewSet(
    ScoreThrottling,
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
    # writes: per score link or account and match, failures per address (.throttling)

    def get_queryset(self) -> QuerySet[Match]:
        return matches_queryset().order_by("-created_at", "-id")

    def get_serializer_class(self) -> type[serializers.Serializer]:
        return MatchSummarySerializer if self.action == "list" else MatchDetailSerializer

    # -- who is asking ---------------------------------------------------------------------

    def _actor(self, request: Request, match_id: int | None = None) -> Actor:
        return request_actor(request, match_id)

    def _respond(self, match: Match, code: int = status.HTTP_200_OK) -> Response:
        """Render the match a service returned (its club and players are loaded)."""
        response = Response(match_detail(match), status=code)
        response["ETag"] = match.etag
        return response

    def _write(self, request: Request, pk: str, service: Any, **fields: Any) -> Response:
        """Call a match service as the requesting actor, with the If-Match version."""
        match = service(
            actor=self._actor(request, int(pk)),
            match_id=int(pk),
            expected_version=expected_match_version(request),
            **fields,
        )
        return self._respond(match)

    # -- reads -------------------------------------------------------------------------------

    @extend_schema(responses={200: MatchReadSerializer})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        match = self.get_object()
        response = Response(MatchReadSerializer(match).data)
        response["ETag"] = match.etag
        return response

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
        match = match_create.create_match(actor=actor, **data.validated_data)
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
        match = score_entry.record_game(
            actor=actor,
            match_id=int(pk),
            game=data.to_game_input(),
            number=data.validated_data.get("number"),
            expected_version=expected_match_version(request),
            clock_override_reason=data.validated_data.get("clock_override_reason", ""),
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
        expected = expected_match_version(request)
        # a director's final score over a final score is a correction; a score link
        # never directs (its match was read, and a 404 given, by request_actor)
        current = (
            None
            if actor.via_score_link
            else get_object_or_404(Match.objects.select_related("club"), pk=pk)
        )
        if current is not None and current.final_score_only and is_match_director(actor, current):
            match = match_corrections.correct_final_score(
                actor=actor, match_id=current.pk, score=score, expected_version=expected
            )
        else:
            match = score_entry.record_final_score(
                actor=actor,
                match_id=int(pk),
                score=score,
                expected_version=expected,
                clock_override_reason=data.validated_data["clock_override_reason"],
            )
        return self._respond(match)

    @extend_schema(
        request=None, responses={200: MatchDetailSerializer}, parameters=MATCH_WRITE_PARAMS
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def confirm(self, request: Request, pk: str) -> Response:
        return self._write(request, pk, score_entry.confirm_match)

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
        match_disputes.dispute_match(
            actor=actor,
            match_id=int(pk),
            reason=data.validated_data["reason"],
            expected_version=expected_match_version(request),
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
        match = match_disputes.resolve_dispute(
            actor=actor,
            match_id=int(pk),
            resolution=data.validated_data["resolution"],
            decision=data.validated_data["decision"],
            expected_version=expected_match_version(request),
        )
        return self._respond(match)

    @extend_schema(
        request=None, responses={200: MatchDetailSerializer}, parameters=MATCH_WRITE_PARAMS
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def undo(self, request: Request, pk: str) -> Response:
        return self._write(request, pk, score_entry.undo_last_game)

    @extend_schema(
        request=None, responses={200: MatchDetailSerializer}, parameters=MATCH_WRITE_PARAMS
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def void(self, request: Request, pk: str) -> Response:
        return self._write(request, pk, match_results.void_match)

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
        match = match_results.forfeit_match(
            actor=actor,
            match_id=int(pk),
            winner_id=data.validated_data["winner"],
            expected_version=expected_match_version(request),
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
        match = match_results.reopen_match(
            actor=actor,
            match_id=int(pk),
            reason=data.validated_data["reason"],
            expected_version=expected_match_version(request),
        )
        return self._respond(match)

    @extend_schema(
        responses={
            200: inline_serializer(
                "ScoreLinks",
                {
                    "links": inline_serializer(
                        "ScoreLink",
                        {
                            "player": serializers.IntegerField(help_text="The player id."),
                            "token": serializers.CharField(
                                help_text="The X-Score-Link header's value."
                            ),
                            "url": serializers.CharField(help_text="The score page."),
                        },
                        many=True,
                    )
                },
            )
        },
        request=None,
    )
    @action(detail=True, methods=["post"], url_path="score-links")
    def score_links(self, request: Request, pk: str) -> Response:
        """Directors get each player's private score link; a player gets their own."""
        actor = self._actor(request, int(pk))
        links = []
        for player, token in score_link_sheets.score_link_tokens(actor=actor, match_id=int(pk)):
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

        # each summary in the reader's language (a Text is its English until str())
        trail = [{**e, "summary": str(e["summary"])} for e in match_audit_trail(match)]
        return Response(trail)

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
            expected_version=expected_match_version(request),
        )
        return self._respond(match)
