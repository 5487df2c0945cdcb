"""No byte sequence answers 500 (issue #37, item 6): a lone surrogate in a string or
choice field, a number beyond a float (``1e400``) or ``NaN``/``Infinity`` in a number
or id field, and an ``Authorization`` header whose bytes are not UTF-8.

Each is refused where it enters (the JSON parser, the token check), once for every
operation, so these tests go through a few doors the probe used and the schema fuzz
(``tests/fuzz/test_api_schema.py``) sends the same values to every operation.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Club
from tests.factories import token_for

from .world import World, build_world

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_cache(own_cache):
    """Rate limits and mail caps count in a cache of this test's own."""


@pytest.fixture
def world(settings) -> World:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return build_world()


def _director(world: World) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token " + token_for(world.users["director"])[1])
    return api


def _raw(api: APIClient, path: str, body: str):
    return api.post(path, data=body.encode("ascii"), content_type="application/json")


def _refused(response, field: str) -> None:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    data = response.json()
    assert data["field"] == field, data
    assert data["code"] and data["detail"]


def test_a_lone_surrogate_in_a_choice_field_is_a_400_naming_it(world):
    before = Club.objects.count()
    response = _raw(_director(world), "/api/v1/clubs/", '{"name": "x", "time_zone": "\\ud800"}')
    _refused(response, "time_zone")
    assert response.json()["code"] == "lone_surrogate"
    assert Club.objects.count() == before


def test_a_lone_surrogate_in_a_nested_string_names_its_path(world):
    before = Club.objects.count()
    response = _raw(
        _director(world), "/api/v1/clubs/", '{"name": "x", "tags": [{"label": "\\udfff"}]}'
    )
    _refused(response, "tags[0].label")
    assert response.json()["code"] == "lone_surrogate"
    assert Club.objects.count() == before


def test_a_surrogate_pair_is_a_character_not_an_error(world):
    response = _raw(_director(world), "/api/v1/clubs/", '{"name": "Dice \\ud83c\\udfb2 club"}')
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Dice \U0001f3b2 club"


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity", "-Infinity"])
def test_a_number_beyond_a_float_in_an_id_field_is_a_400_naming_it(world, number):
    path = f"/api/v1/chouette/sessions/{world.session_id}/join/"
    response = _raw(_director(world), path, '{"player": ' + number + "}")
    _refused(response, "player")
    assert response.json()["code"] == "not_a_finite_number"


@pytest.mark.parametrize(
    "raw", [b"Token \xff\xfe\xfd", b"Token \xc3\x28" + b"a" * 60, b"Bearer \x80", b"\xff"]
)
def test_an_authorization_header_that_is_not_utf8_is_a_401_on_every_path(world, raw):
    client = Client()
    header = raw.decode("latin-1")  # how WSGI hands a header's bytes to Django
    for method, path in [
        ("get", "/api/v1/clubs/"),
        ("post", "/api/v1/clubs/"),
        ("get", f"/api/v1/matches/{world.match.pk}/"),
        ("post", f"/api/v1/matches/{world.match.pk}/confirm/"),
    ]:
        response = getattr(client, method)(path, HTTP_AUTHORIZATION=header)
        assert response.status_code in (401, 403) or (
            response.status_code == 200 and not raw.startswith(b"Token")
        ), (method, path, response.status_code, response.content[:200])
        if raw.startswith(b"Token "):
            assert response.status_code == 401
            assert response.json()["code"] == "authentication_failed"


@pytest.mark.parametrize("header", ["HTTP_X_SCORE_LINK", "HTTP_IDEMPOTENCY_KEY", "HTTP_IF_MATCH"])
def test_other_headers_with_bytes_that_are_not_utf8_are_never_a_500(world, header):
    response = Client().post(
        f"/api/v1/matches/{world.match.pk}/confirm/",
        content_type="application/json",
        **{header: b"\xff\xfe\xc3\x28".decode("latin-1")},  # type: ignore[arg-type]
    )
    assert response.status_code < 500, response.content[:300]
