"""Every POST that creates something honours ``Idempotency-Key`` and the schema says so.

Issue #25 item 8: ``POST /api/v1/clubs/`` twice with one ``Idempotency-Key`` created
two clubs although ``docs/api.md`` promised otherwise, and 31 of 56 POST operations did
not declare the header. The schema now declares the header wherever the handler reads
it (``core.api_schema`` reads the mark :func:`core.idempotency.idempotent` leaves), so
walking the schema checks the declaration; a replay through the API checks the
behaviour for a representative set of creates.
"""

from __future__ import annotations

import pytest
from django.db.models import Model

from games.models import Club, Match, Player
from games.services import clubs as club_services
from tournaments.models import Entry, Tournament

from .matrix import schema_operations

pytestmark = pytest.mark.django_db

NOT_IDEMPOTENT: dict[str, str] = {
    "/api/v1/auth/token/": "the answer is a new API token: a stored answer would keep the "
    "secret in plain text (knox stores only its digest); a retry makes another token",
    "/api/v1/auth/token/revoke/": "revoking is idempotent by nature (a second revoke of the "
    "same token is refused 401: the token is gone)",
    "/api/v1/auth/token/revoke-all/": "revoking every token is idempotent by nature",
    "/api/v1/matches/{id}/score-links/": "creates nothing (the links are signed, not stored) "
    "and the answer holds private links that must not be stored",
    "/api/v1/clubs/{slug}/join/": "joining is idempotent by nature: a second join by the "
    "same person finds their membership and makes none (games.services.tenancy.join_club)",
    "/api/v1/variants/{key}/plays/": "computes the legal plays of a position and stores "
    "nothing: the same body always gets the same answer",
}
"""The POST operations that do not read ``Idempotency-Key``, with why (docs/api.md)."""


def _declared(schema: dict, path: str, method: str) -> bool:
    operation = schema["paths"][path][method]
    return any(
        p["in"] == "header" and p["name"] == "Idempotency-Key"
        for p in operation.get("parameters", [])
    )


def test_every_post_declares_idempotency_key_or_says_why_not():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    posts = sorted(path for method, path in schema_operations() if method == "POST")
    assert len(posts) > 50
    undeclared = [p for p in posts if not _declared(schema, p, "post")]
    assert sorted(undeclared) == sorted(NOT_IDEMPOTENT), undeclared


def _twice(client, url: str, body: dict, model: type[Model], key: str, fmt: str = "json"):
    """Post ``body`` twice with one key; asserts one row made and the first answer
    replayed; returns how many rows the two posts made (1)."""
    before = model._default_manager.count()
    first = client.post(url, body, format=fmt, HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code in (200, 201, 202), first.content
    after_first = model._default_manager.count()
    again = client.post(url, body, format=fmt, HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == first.status_code
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert model._default_manager.count() == after_first == before + 1
    return model._default_manager.count() - before


@pytest.fixture
def ann(club):
    return club_services.create_player(display_name="Ann", clubs=[club])


@pytest.fixture
def ben(club):
    return club_services.create_player(display_name="Ben", clubs=[club])


def test_a_club_created_twice_with_one_key_is_one_club(client_for, director):
    assert (
        _twice(client_for(director), "/api/v1/clubs/", {"name": "Night Owls"}, Club, "club-1") == 1
    )


def test_a_player_created_twice_with_one_key_is_one_player(client_for, director, club):
    body = {"display_name": "Cleo", "clubs": [club.slug]}
    assert _twice(client_for(director), "/api/v1/players/", body, Player, "player-1") == 1


def test_a_walk_in_created_twice_with_one_key_is_one_player(client_for, director, club):
    url = f"/api/v1/clubs/{club.slug}/players/"
    assert _twice(client_for(director), url, {"display_name": "Dora"}, Player, "walk-in-1") == 1


def test_a_tournament_created_twice_with_one_key_is_one_tournament(client_for, director, club):
    body = {"club": club.slug, "name": "Friday Night", "format": "single_elimination"}
    assert _twice(client_for(director), "/api/v1/tournaments/", body, Tournament, "event-1") == 1


def test_an_entry_created_twice_with_one_key_is_one_entry(client_for, director, club, ann):
    client = client_for(director)
    body = {"club": club.slug, "name": "Friday", "format": "single_elimination"}
    created = client.post("/api/v1/tournaments/", body, format="json")
    slug = created.json()["slug"]
    url = f"/api/v1/tournaments/{slug}/entries/"
    assert _twice(client, url, {"player": ann.pk}, Entry, "entry-1") == 1


def test_a_match_created_twice_with_one_key_is_one_match(client_for, director, club, ann, ben):
    body = {"club": club.slug, "player1": ann.pk, "player2": ben.pk, "length": 5}
    assert _twice(client_for(director), "/api/v1/matches/", body, Match, "match-1") == 1


def test_a_transcript_import_sent_twice_with_one_key_is_one_match(client_for, director, club):
    """A multipart upload retried is encoded with a new boundary: the key's fingerprint
    is the upload's fields and files, not its bytes, and the files still arrive."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test.client import encode_multipart

    from tests.games.rules.corpus import DROPS

    client = client_for(director)

    def send(boundary: str):
        upload = SimpleUploadedFile("drops.mat", DROPS.read_bytes())
        body = encode_multipart(boundary, {"files": [upload], "club": club.slug})
        return client.generic(
            "POST",
            "/api/v1/matches/import/",
            body,
            content_type=f"multipart/form-data; boundary={boundary}",
            HTTP_IDEMPOTENCY_KEY="import-1",
        )

    first, again = send("first-try-boundary"), send("second-try-boundary")
    assert first.status_code == 201, first.content
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Match.objects.count() == 1
    other = SimpleUploadedFile("other.mat", DROPS.read_bytes().replace(b"alice", b"carol"))
    body = encode_multipart("third", {"files": [other], "club": club.slug})
    reused = client.generic(
        "POST",
        "/api/v1/matches/import/",
        body,
        content_type="multipart/form-data; boundary=third",
        HTTP_IDEMPOTENCY_KEY="import-1",
    )
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency_key_reused"
