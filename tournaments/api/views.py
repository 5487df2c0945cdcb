"""Tournament endpoints: thin views that parse, call one service or selector, render.

Directors of the tournament's club manage it; everyone reads. Writes carry the
tournament's ``version`` as ETag (``If-Match`` answers 412 when stale) and accept an
``Idempotency-Key``; pairing a round, redrawing and large drop-map previews answer 202
with a job resource.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db.models import Count, QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from core.actors import Actor
from core.api_headers import IDEMPOTENCY_KEY, IF_MATCH, IF_NONE_MATCH
from core.api_jobs import JobSerializer, job_accepted_response, job_answer
from core.idempotency import idempotent
from core.jobs import start_job
from core.locking import expected_version
from games.api.inputs import SLUG_PATTERN, query_text
from games.rules import limits
from games.services.actors import actor_for_user
from tournaments import job_kinds, selectors, selectors_odds
from tournaments.models import Entry, Tournament
from tournaments.services import draws, entries, events, registration, results, rounds
from tournaments.services.common import require_director

from . import registration as reg
from . import serializers as s
from . import shapes


class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Tournaments of the clubs: public reads; the club's directors manage."""

    permission_classes = [AllowAny]  # each write resolves its actor and asks the service
    lookup_field = "slug"
    lookup_value_regex = SLUG_PATTERN
    serializer_class = s.TournamentSerializer
    filterset_fields = ["status", "format"]

    def get_queryset(self) -> QuerySet[Tournament]:
        queryset = (
            Tournament.objects.select_related("club")
            .annotate(entry_count=Count("entries"))
            .order_by("-created_at", "-id")
        )
        club = query_text(self.request, "club", max_length=limits.MAX_CLUB_SLUG)
        return queryset.filter(club__slug=club) if club else queryset

    def _actor(self, request: Request) -> Actor:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        return actor_for_user(request.user)

    def _tournament(self, slug: str) -> Tournament:
        return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)

    def _respond(self, tournament: Tournament, code: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=tournament.pk)
        response = Response(s.TournamentSerializer(fresh).data, status=code)
        response["ETag"] = fresh.etag
        return response

    # -- create and configure ----------------------------------------------------------

    @extend_schema(request=s.CreateSerializer, responses={201: s.TournamentSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        actor = self._actor(request)
        data = s.CreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = events.create_tournament(actor=actor, **data.validated_data)
        return self._respond(tournament, status.HTTP_201_CREATED)

    @extend_schema(
        request=s.ConfigSerializer, responses={200: s.TournamentSerializer}, parameters=[IF_MATCH]
    )
    def partial_update(self, request: Request, slug: str) -> Response:
        actor = self._actor(request)
        tournament = self._tournament(slug)
        data = s.ConfigSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        updated = events.configure_tournament(
            actor=actor,
            tournament_id=tournament.pk,
            expected_version=expected_version(request, noun="tournament"),
            **data.validated_data,
        )
        return self._respond(updated)

    def retrieve(self, request: Request, slug: str) -> Response:
        return self._respond(self.get_object())

    @extend_schema(request=None, responses={200: s.TournamentSerializer}, parameters=[IF_MATCH])
    @action(detail=True, methods=["post"], url_path="open-registration")
    @idempotent
    def open_registration(self, request: Request, slug: str) -> Response:
        tournament = events.open_registration(
            actor=self._actor(request),
            tournament_id=self._tournament(slug).pk,
            expected_version=expected_version(request, noun="tournament"),
        )
        return self._respond(tournament)

    # -- entries -------------------------------------------------------------------------

    @extend_schema(
        methods=["POST"],
        request=s.EntryInputSerializer,
        responses={201: s.EntrySerializer},
        parameters=[IDEMPOTENCY_KEY],  # read by _register_idempotent
    )
    @extend_schema(methods=["GET"], responses={200: s.EntrySerializer(many=True)})
    @action(detail=True, methods=["get", "post"])
    def entries(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        if request.method == "POST":
            return self._register_idempotent(request, tournament)
        rows = Entry.objects.filter(tournament=tournament).select_related("player")
        return Response(s.EntrySerializer(rows, many=True).data)

    @idempotent
    def _register_idempotent(self, request: Request, tournament: Tournament) -> Response:
        return self._register(request, tournament)

    def _register(self, request: Request, tournament: Tournament) -> Response:
        actor = self._actor(request)
        data = s.EntryInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entries.register_entry(
            actor=actor, tournament_id=tournament.pk, player_id=data.validated_data["player"]
        )
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: s.EntrySerializer})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_id>\d+)/withdraw")
    @idempotent
    def withdraw(self, request: Request, slug: str, entry_id: str) -> Response:
        entry = entries.withdraw_entry(
            actor=self._actor(request),
            tournament_id=self._tournament(slug).pk,
            entry_id=int(entry_id),
        )
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        return Response(s.EntrySerializer(entry).data)

    @extend_schema(
        request=reg.BulkEntryInputSerializer,
        responses={200: reg.BulkResultSerializer, 201: reg.BulkResultSerializer},
    )
    @action(detail=True, methods=["post"], url_path="entries/bulk")
    @idempotent
    def bulk_entries(self, request: Request, slug: str) -> Response:
        """Enter many players: preview with ``dry_run``, then write all or nothing."""
        actor = self._actor(request)
        tournament = self._tournament(slug)
        data = reg.BulkEntryInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = registration.register_many(
            actor=actor, tournament_id=tournament.pk, **data.validated_data
        )
        code = status.HTTP_200_OK if result.dry_run else status.HTTP_201_CREATED
        return Response(result.as_dict(), status=code)

    @extend_schema(request=reg.WalkInSerializer, responses={201: reg.WalkInEntrySerializer})
    @action(detail=True, methods=["post"], url_path="entries/walk-in")
    @idempotent
    def walk_in(self, request: Request, slug: str) -> Response:
        """A newcomer: made a member of the club and entered, in one step; an address
        given gets one link asking its owner to agree (``address_link``)."""
        actor = self._actor(request)
        tournament = self._tournament(slug)
        data = reg.WalkInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        walk_in = registration.register_walk_in(
            actor=actor,
            tournament_id=tournament.pk,
            site=request.build_absolute_uri("/"),
            **data.validated_data,
        )
        entry = Entry.objects.select_related("player").get(pk=walk_in.entry.pk)
        body = {**s.EntrySerializer(entry).data, "address_link": walk_in.link.as_dict()}
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"entries/(?P<entry_id>\d+)")
    def unregister(self, request: Request, slug: str, entry_id: str) -> Response:
        """Take an entry off before the draw (409 ``entry_drawn`` after it: withdraw)."""
        registration.unregister_entry(
            actor=self._actor(request),
            tournament_id=self._tournament(slug).pk,
            entry_id=int(entry_id),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=s.SeedInputSerializer, responses={200: s.EntrySerializer(many=True)})
    @action(detail=True, methods=["post"])
    @idempotent
    def seed(self, request: Request, slug: str) -> Response:
        actor = self._actor(request)
        data = s.SeedInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seeded = entries.seed_entries(
            actor=actor, tournament_id=self._tournament(slug).pk, **data.validated_data
        )
        rows = Entry.objects.filter(pk__in=[e.pk for e in seeded]).select_related("player")
        return Response(s.EntrySerializer(sorted(rows, key=lambda e: e.seed), many=True).data)

    # -- the event -----------------------------------------------------------------------

    @extend_schema(request=None, responses={200: s.TournamentSerializer}, parameters=[IF_MATCH])
    @action(detail=True, methods=["post"])
    @idempotent
    def start(self, request: Request, slug: str) -> Response:
        tournament = entries.start_tournament(
            actor=self._actor(request),
            tournament_id=self._tournament(slug).pk,
            expected_version=expected_version(request, noun="tournament"),
        )
        return self._respond(tournament)

    @extend_schema(request=None, responses={200: s.TournamentSerializer}, parameters=[IF_MATCH])
    @action(detail=True, methods=["post"])
    @idempotent
    def finish(self, request: Request, slug: str) -> Response:
        tournament = events.finish_tournament(
            actor=self._actor(request),
            tournament_id=self._tournament(slug).pk,
            expected_version=expected_version(request, noun="tournament"),
        )
        return self._respond(tournament)

    @extend_schema(responses={200: shapes.BracketSerializer}, parameters=[IF_NONE_MATCH])
    @action(detail=True, methods=["get"])
    def bracket(self, request: Request, slug: str) -> HttpResponse:
        """Every stage, round and pairing with players, match id, score and status."""

        def build(tournament: Tournament) -> dict[str, Any]:
            view = selectors.bracket_view(tournament)
            return s.bracket_data(view, selectors.bracket_champion(view))

        return _versioned_read(request, self._tournament(slug), "bracket", build)

    @extend_schema(responses={200: shapes.StandingsSerializer}, parameters=[IF_NONE_MATCH])
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, slug: str) -> HttpResponse:
        """Standings computed from the results: finishing places for elimination events
        (``place`` per row, ``places``, ``winner``), the tie-breaks for Swiss and round
        robin."""

        def build(tournament: Tournament) -> dict[str, Any]:
            table = selectors.standings_table(tournament)
            return {
                "tournament": tournament.slug,
                "tie_breaks": tournament.tie_breaks,
                "winner": s.player_ref(table.winner) if table.winner else None,
                "places": s.places_data(table),
                "standings": s.standings_data(table.rows),
            }

        return _versioned_read(request, self._tournament(slug), "standings", build)

    @extend_schema(responses={200: s.OddsSerializer})
    @action(detail=True, methods=["get"])
    def odds(self, request: Request, slug: str) -> Response:
        """Each entrant's chance to win, to reach the final and to finish in each place.

        Computed by a job after each burst of results (``job`` while one is queued or
        running; ``up_to_date`` false until it is done), exactly for small brackets and
        by simulation otherwise, with its standard error; ``history`` is the leaders'
        chance to win at each computation, for the chart. Public, like the standings.
        """
        view = selectors_odds.odds_view(self._tournament(slug), with_job=True)
        job = JobSerializer(view.job).data if view.job is not None else None
        return Response(s.odds_data(view, job))

    @extend_schema(request=s.NextRoundSerializer, responses={202: job_answer()})
    @action(detail=True, methods=["post"], url_path="rounds/next")
    @idempotent
    def next_round(self, request: Request, slug: str) -> Response:
        """Pair the next Swiss / round-robin round as a job (asking twice: one round)."""
        actor = self._actor(request)
        tournament = self._tournament(slug)
        require_director(actor, tournament)
        data = s.NextRoundSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        number = data.validated_data.get("round") or selectors.next_round_number(tournament)
        job, _ = start_job(
            kind=job_kinds.PAIR_ROUND,
            params={"tournament": tournament.pk, "round": number},
            club=tournament.club,
            created_by=request.user,
            dedupe_key=f"pair:{tournament.pk}:{number}",
        )
        job.refresh_from_db()
        return job_accepted_response(job)

    @extend_schema(request=s.RedrawSerializer, responses={202: job_answer()})
    @action(detail=True, methods=["post"])
    @idempotent
    def redraw(self, request: Request, slug: str) -> Response:
        actor = self._actor(request)
        tournament = self._tournament(slug)
        require_director(actor, tournament)
        data = s.RedrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        job, _ = start_job(
            kind=job_kinds.REDRAW,
            params={"tournament": tournament.pk, **data.validated_data},
            club=tournament.club,
            created_by=request.user,
            dedupe_key=f"redraw:{tournament.pk}:{tournament.version}",
        )
        job.refresh_from_db()
        return job_accepted_response(job)

    @extend_schema(responses={200: shapes.DropMapSerializer, 202: job_answer()})
    @action(detail=True, methods=["get"], url_path="drop-map")
    def drop_map(self, request: Request, slug: str) -> Response:
        """Where every loser goes; large events answer 202 with a job."""
        actor = self._actor(request)
        tournament = self._tournament(slug)
        require_director(actor, tournament)
        params = selectors.drop_map_params(tournament)
        if params["entries"] > draws.LARGE_EVENT:
            job, _ = start_job(
                kind=job_kinds.DROP_MAP,
                params=params,
                club=tournament.club,
                created_by=request.user,
                dedupe_key=None,
            )
            job.refresh_from_db()
            return job_accepted_response(job)
        return Response(draws.drop_map_preview_for(**params))

    @extend_schema(
        request=s.SwapInputSerializer,
        responses=inline_serializer(
            "SwapWarnings", {"warnings": serializers.ListField(child=serializers.CharField())}
        ),
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def swap(self, request: Request, slug: str) -> Response:
        actor = self._actor(request)
        data = s.SwapInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        warnings = rounds.swap_entries(
            actor=actor, tournament_id=self._tournament(slug).pk, **data.validated_data
        )
        return Response({"warnings": warnings})

    @extend_schema(request=s.ForfeitInputSerializer, responses=shapes.PairingSerializer)
    @action(detail=True, methods=["post"], url_path=r"pairings/(?P<key>[\w-]+)/forfeit")
    @idempotent
    def forfeit(self, request: Request, slug: str, key: str) -> Response:
        actor = self._actor(request)
        data = s.ForfeitInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        results.forfeit_pairing(
            actor=actor,
            tournament_id=self._tournament(slug).pk,
            key=key,
            winner_entry_id=data.validated_data["winner"],
        )
        return self._pairing(slug, key)

    @extend_schema(request=None, responses=shapes.PairingSerializer)
    @action(detail=True, methods=["post"], url_path=r"pairings/(?P<key>[\w-]+)/reissue")
    @idempotent
    def reissue(self, request: Request, slug: str, key: str) -> Response:
        results.reissue_pairing(
            actor=self._actor(request), tournament_id=self._tournament(slug).pk, key=key
        )
        return self._pairing(slug, key)

    def _pairing(self, slug: str, key: str) -> Response:
        tournament = self._tournament(slug)
        rows = selectors.pairing_rows(tournament, with_replaced=True, key=key)
        if not rows:
            raise Http404
        return Response(s.pairing_data(rows[0], selectors.entry_rows(tournament)))


def _versioned_read(
    request: Request,
    tournament: Tournament,
    name: str,
    build: Callable[[Tournament], dict[str, Any]],
) -> HttpResponse:
    """A read of the whole event, rendered once per tournament version.

    Every write that changes a bracket or standings bumps the tournament's ``version``
    (results arrive through the match signal, which bumps it in the same transaction),
    so the rendered JSON is cached under the version and the ETag is the version: a
    big event's bracket costs one query for everyone polling it between results, and
    ``If-None-Match`` answers 304.
    """
    etag = f'"{name}-{tournament.version}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
        response["ETag"] = etag
        return response
    created = tournament.created_at.timestamp()
    key = f"tournaments:{name}:{tournament.pk}:{created}:{tournament.version}"
    body = cache.get(key)
    if body is None:
        body = JSONRenderer().render(build(tournament))
        cache.set(key, body, timeout=600)
    response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    return response
