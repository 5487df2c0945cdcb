"""Hostile input never answers 500: one case per cause a probe against gunicorn on
PostgreSQL found (issue 12, item 6).

Each case goes through the API as the club's director and asserts the 4xx status,
the JSON error shape ``{"code", "detail", "field"}``, the field named, and that
nothing was written. Run on SQLite and on PostgreSQL (``DATABASE_URL``): several
causes (NUL characters, numbers beyond a column) only fail on PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from chouette.models import ChouetteGame, MemberResult, Session
from games.models import Club, Game, Match, Player
from games.services import clubs as club_services
from games.services import match_create
from games.services.actors import actor_for_user
from tests.factories import UserFactory
from tournaments.models import Tournament

from .world import World, build_world

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_cache(own_cache):
    """Rate limits and mail caps count in a cache of this test's own."""


@pytest.fixture
def world(settings) -> World:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    w = build_world()
    # an unlimited money session between two club members: no cube limit at all
    w.extra["unlimited"] = match_create.create_match(
        actor=actor_for_user(w.users["director"]),
        club=w.club,
        player1=w.alice,
        player2=w.bob,
        length=0,
    )
    return w


def snapshot() -> tuple:
    """Everything a bad request could have half-written."""
    return (
        Club.objects.count(),
        Player.objects.count(),
        list(Match.objects.order_by("pk").values_list("pk", "version", "status", "cube_limit")),
        list(Game.objects.order_by("pk").values_list("pk", "cube", "points")),
        list(Session.objects.order_by("pk").values_list("pk", "version")),
        ChouetteGame.objects.count(),
        MemberResult.objects.count(),
        list(Tournament.objects.order_by("pk").values_list("pk", "random_seed")),
    )


@dataclass
class Case:
    """One hostile request: ``path`` may name ``{match}``, ``{session}``, ``{alice}``..."""

    id: str
    method: str
    path: str
    body: Any = None
    status: int = 400
    field: str | None = None
    raw: Callable[[World], tuple[bytes | str, str]] | None = None
    headers: dict[str, str] = dataclasses.field(default_factory=dict)


def _deep(depth: int) -> Callable[[World], tuple[str, str]]:
    def make(w: World) -> tuple[str, str]:
        return (
            f'{{"winner": {w.bob.pk}, "cube": {"[" * depth}1{"]" * depth}}}',
            "application/json",
        )

    return make


def _big_json(w: World) -> tuple[str, str]:
    return json.dumps({"winner": w.bob.pk, "pad": "x" * (10 * 1024 * 1024)}), "application/json"


def _big_form(w: World) -> tuple[str, str]:
    return "pad=" + "x" * (10 * 1024 * 1024), "application/x-www-form-urlencoded"


MATCH_ACTIONS = ["games", "confirm", "undo", "void", "dispute", "resolve", "forfeit", "result"]

CASES = [
    # --- a non-numeric id in the path: 404, not a query with "abc" ----------------------
    *[
        Case(f"match-abc-{action}", "post", f"/api/v1/matches/abc/{action}/", {}, 404)
        for action in MATCH_ACTIONS
    ],
    Case("match-abc-audit", "get", "/api/v1/matches/abc/audit/", None, 404),
    Case("match-abc-score-links", "post", "/api/v1/matches/abc/score-links/", {}, 404),
    Case("session-abc-games", "post", "/api/v1/chouette/sessions/abc/games/", {}, 404),
    # --- a PATCH body that is not an object -----------------------------------------------
    Case("match-game-patch-list", "patch", "/api/v1/matches/{match}/games/1/", [1, 2], 400, "body"),
    Case("match-game-patch-text", "patch", "/api/v1/matches/{match}/games/1/", "text", 400, "body"),
    Case(
        "session-game-patch-list",
        "patch",
        "/api/v1/chouette/sessions/{session}/games/1/",
        [1, 2],
        400,
        "body",
    ),
    Case(
        "session-game-patch-text",
        "patch",
        "/api/v1/chouette/sessions/{session}/games/1/",
        "text",
        400,
        "body",
    ),
    # --- numbers beyond the column --------------------------------------------------------
    Case(
        "cube-2^31-unlimited-session",
        "post",
        "/api/v1/matches/{unlimited}/games/",
        {"winner": "{alice}", "cube": 2**31},
        400,
        "cube",
    ),
    Case(
        "match-game-patch-cube-2^63",
        "patch",
        "/api/v1/matches/{match}/games/1/",
        {"cube": 2**63},
        400,
        "cube",
    ),
    *[
        Case(
            f"match-cube-limit-{label}",
            "post",
            "/api/v1/matches/",
            {
                "club": "test-club",
                "player1": "{alice}",
                "player2": "{bob}",
                "length": 0,
                "cube_limit": value,
            },
            400,
            "cube_limit",
        )
        for label, value in (("2^31", 2**31), ("2^63", 2**63))
    ],
    *[
        Case(
            f"chouette-rules-{name}",
            "post",
            "/api/v1/chouette/sessions/",
            {
                "club": "test-club",
                "stake": "1.00",
                "players": ["{alice}", "{bob}", "{dave}"],
                "rules": {name: value},
            },
            400,
            f"rules.{name}",
        )
        for name, value in (
            ("cube_limit", 2**31),
            ("cube_limit", 2**63),
            ("partner_threshold", 40000),
        )
    ],
    Case(
        "chouette-member-cube-2^40",
        "post",
        "/api/v1/chouette/sessions/{session}/games/",
        {
            "winner": "box",
            "members": [{"player": "{bob}", "cube": 2**40}, {"player": "{dave}"}],
        },
        400,
        "members[0].cube",
    ),
    Case(
        "tournament-random-seed-10^30",
        "post",
        "/api/v1/tournaments/",
        {
            "club": "test-club",
            "name": "Seeded",
            "format": "single_elimination",
            "seeding": "random",
            "random_seed": 10**30,
        },
        400,
        "random_seed",
    ),
    # --- NUL characters -------------------------------------------------------------------
    Case(
        "match-club-nul",
        "post",
        "/api/v1/matches/",
        {"club": "alpha\u0000", "player1": "{alice}", "player2": "{bob}", "length": 5},
        400,
        "club",
    ),
    Case("player-ratings-club-nul", "get", "/api/v1/players/{alice}/ratings/?club=%00", None),
    Case("chouette-list-club-nul", "get", "/api/v1/chouette/sessions/?club=%00", None),
    Case("tournament-list-club-nul", "get", "/api/v1/tournaments/?club=%00", None),
    Case("club-slug-nul-in-path", "get", "/api/v1/clubs/a%00b/", None, 404),
    # (filters read by django-filter already refuse NUL; kept here as a guard)
    Case("match-list-club-nul", "get", "/api/v1/matches/?club=%00", None),
    Case("player-list-name-nul", "get", "/api/v1/players/?name=%00", None, 400, "name"),
    # --- results import -------------------------------------------------------------------
    Case(
        "results-winner-name-500",
        "post",
        "/api/v1/clubs/test-club/results/import/",
        {"text": "date,winner,loser,length\n2024-03-17," + "W" * 500 + ",Bob,5\n"},
        400,
        "file",
    ),
    Case(
        "results-text-list",
        "post",
        "/api/v1/clubs/test-club/results/import/",
        {"text": ["a"]},
        400,
        "text",
    ),
    Case(
        "results-text-object",
        "post",
        "/api/v1/clubs/test-club/results/import/",
        {"text": {"a": 1}},
        400,
        "text",
    ),
    Case(
        "results-body-list",
        "post",
        "/api/v1/clubs/test-club/results/import/",
        ["a"],
        400,
        "body",
    ),
    # --- recursion ------------------------------------------------------------------------
    Case("score-entry-json-depth-5000", "post", "/api/v1/matches/{match}/games/", raw=_deep(5000)),
    Case(
        "chouette-2000-tied-rolls",
        "post",
        "/api/v1/chouette/sessions/",
        {
            "club": "test-club",
            "stake": "1.00",
            "rolls": {"{alice}": [3] * 2000, "{bob}": [3] * 2000},
        },
        400,
        "rolls",
    ),
    # --- a body over the size limit: 413 in the JSON shape --------------------------------
    Case("json-10mb", "post", "/api/v1/matches/{match}/games/", status=413, raw=_big_json),
    Case(
        "json-10mb-idempotent",
        "post",
        "/api/v1/matches/{match}/games/",
        status=413,
        raw=_big_json,
        headers={"Idempotency-Key": "big-1"},
    ),
    Case("form-10mb", "post", "/api/v1/matches/{match}/games/", status=413, raw=_big_form),
    Case(
        "form-10mb-results-import",
        "post",
        "/api/v1/clubs/test-club/results/import/",
        status=413,
        raw=_big_form,
    ),
]
for case in CASES:  # the query-parameter cases name the parameter
    if case.id.endswith("-club-nul") and case.method == "get":
        case.field = "club"


def _ids(w: World) -> dict[str, Any]:
    return {
        "match": w.match.pk,
        "unlimited": w.extra["unlimited"].pk,
        "session": w.session_id,
        "alice": w.alice.pk,
        "bob": w.bob.pk,
        "dave": w.dave.pk,
    }


def _fill(value: Any, ids: dict[str, Any]) -> Any:
    """Put the world's real ids where the case names them."""
    if isinstance(value, str):
        for name, pk in ids.items():
            placeholder = "{" + name + "}"
            if value == placeholder:
                return pk
            value = value.replace(placeholder, str(pk))
        return value
    if isinstance(value, list):
        return [_fill(v, ids) for v in value]
    if isinstance(value, dict):
        return {_fill(k, ids): _fill(v, ids) for k, v in value.items()}
    return value


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_is_a_clear_4xx_and_writes_nothing(world, case):
    client = APIClient()
    client.force_authenticate(world.users["director"])
    ids = _ids(world)
    path = _fill(case.path, ids)
    before = snapshot()

    call = getattr(client, case.method)
    if case.raw is not None:
        body, content_type = case.raw(world)
        response = call(path, data=body, content_type=content_type, headers=case.headers)
    elif case.body is None:
        response = call(path, headers=case.headers)
    else:
        response = call(
            path, data=json.dumps(_fill(case.body, ids)), content_type="application/json"
        )

    assert response.status_code == case.status, response.content[:500]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    data = json.loads(response.content)
    assert isinstance(data["code"], str) and data["code"], data
    assert isinstance(data["detail"], str) and data["detail"], data
    assert data["field"] == case.field, data
    assert snapshot() == before


def test_a_deep_body_within_the_limit_still_parses(world):
    """The depth limit refuses hostile bodies only: a normal nested body is read."""
    client = APIClient()
    client.force_authenticate(world.users["director"])
    response = client.post(
        f"/api/v1/chouette/sessions/{world.session_id}/games/",
        {
            "winner": "box",
            "members": [{"player": world.bob.pk}, {"player": world.dave.pk}],
        },
        format="json",
    )
    assert response.status_code == 201, response.content[:300]


def test_a_large_cube_within_the_bound_is_recorded(world):
    """An unlimited session may reach a large cube: 2**20 is still a game."""
    client = APIClient()
    client.force_authenticate(world.users["director"])
    unlimited = world.extra["unlimited"]
    response = client.post(
        f"/api/v1/matches/{unlimited.pk}/games/",
        {"winner": world.alice.pk, "cube": 2**20, "cube_owner": "player1"},
        format="json",
    )
    assert response.status_code == 201, response.content[:300]
    assert Game.objects.get(match=unlimited).points == 2**20


# --- the same name created at once ----------------------------------------------------------


def _race(requests: list[Callable[[], Any]]) -> list[Any]:
    """Run every request at the same moment, each thread on its own connection."""
    barrier = threading.Barrier(len(requests))
    results: list[Any] = [None] * len(requests)

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = requests[index]()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ten_players_of_the_same_name_at_once_all_get_a_slug(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    director = UserFactory.create(username="racer", password=None)
    club_services.create_club(created_by=director, name="Home", slug="home")
    body = {"display_name": "Same Name", "clubs": ["home"]}

    def create() -> Any:
        client = APIClient()
        client.force_authenticate(director)
        return client.post("/api/v1/players/", body, format="json")

    responses = _race([create] * 10)

    statuses = [r.status_code for r in responses]
    assert statuses == [201] * 10, [r.content[:200] for r in responses]
    slugs = {r.json()["slug"] for r in responses}
    assert len(slugs) == 10
    assert Player.objects.filter(slug__in=slugs).count() == 10


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ten_founders_naming_one_club_at_once_found_exactly_one(settings):
    """A club's name must not read like another's (issue #37); the check is a read of
    every name, so founders racing must be let past it one at a time, or two clubs
    called "Same Name" would both be made."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    founders = [UserFactory.create(username=f"founder{i}", password=None) for i in range(10)]

    def create(founder: Any) -> Callable[[], Any]:
        def post() -> Any:
            client = APIClient()
            client.force_authenticate(founder)
            return client.post("/api/v1/clubs/", {"name": "Same Name"}, format="json")

        return post

    responses = _race([create(f) for f in founders])

    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201] + [400] * 9, [r.content[:200] for r in responses]
    refused = [r.json() for r in responses if r.status_code == 400]
    assert {(e["code"], e["field"]) for e in refused} == {("name_confusable", "name")}
    assert Club.objects.filter(name="Same Name").count() == 1
