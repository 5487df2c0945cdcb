"""The ratings, variants and jobs answers against the schema that types them (issue #30):
each real answer validated against its declared schema closed to undeclared keys
(``tests.openapi_answers``), so ``games.api.rating_shapes``, ``games.api.variant_shapes``
and the functions that render the answers cannot drift apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile

from games.services import match_create, score_entry
from games.services.actors import actor_for_user
from tests.openapi_answers import check_answer, closed_live_schema

pytestmark = pytest.mark.django_db

GALAXY = Path(__file__).resolve().parents[3] / "data" / "mat" / "galaxy" / "Llabba_match1280660.mat"

RESULTS = """date,winner,loser,length
2024-01-05,Ann,Ben,5
2024-02-10,Ben,Ann,7
"""


@pytest.fixture
def schema():
    return closed_live_schema()


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()
    yield
    cache.clear()


def test_the_ratings_and_a_recomputation_answer_as_declared(
    schema, client_for, club, director, alice, bob, django_capture_on_commit_callbacks
):
    anyone, directed = client_for(None), client_for(director)
    empty = check_answer(schema, anyone.get(f"/api/v1/clubs/{club.slug}/ratings/"))
    assert empty["count"] == 0 and empty["list"]["recomputed_at"] is None
    actor = actor_for_user(director)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create.create_match(
            actor=actor, club=club, player1=alice, player2=bob, length=5
        )
        score_entry.record_final_score(actor=actor, match_id=match.pk, score=(5, 0))
    ranked = check_answer(schema, anyone.get(f"/api/v1/clubs/{club.slug}/ratings/"))
    assert ranked["results"][0]["player"]["display_name"] == "Alice"
    for club_query in (f"?club={club.slug}", ""):
        history = check_answer(
            schema, anyone.get(f"/api/v1/players/{alice.pk}/ratings/{club_query}")
        )
        assert history["history"][0]["opponent"]["id"] == bob.pk
    preview = check_answer(
        schema,
        anyone.get(
            "/api/v1/ratings/preview/",
            {"club": club.slug, "player_a": alice.pk, "player_b": bob.pk, "length": 5},
        ),
    )
    assert preview["if_a_wins"]["winner_change"] > 0
    with django_capture_on_commit_callbacks(execute=True):
        accepted = directed.post(f"/api/v1/clubs/{club.slug}/ratings/recompute/")
    job = check_answer(schema, accepted)
    done = check_answer(schema, directed.get(f"/api/v1/jobs/{job['id']}/"))
    assert done["status"] == "succeeded" and done["error"] is None
    imported = check_answer(
        schema,
        directed.post(
            f"/api/v1/clubs/{club.slug}/results/import/", {"text": RESULTS}, format="json"
        ),
    )
    assert imported == {
        "matches": 2,
        "players_created": 2,
        "first_date": "2024-01-05",
        "last_date": "2024-02-10",
    }


def test_a_clubs_rated_variants_answer_as_variant_keys(schema, client_for, club, director):
    """``rated_variants`` (a JSON column) is a list of ``VariantEnum`` in the schema."""
    directed = client_for(director)
    patched = check_answer(
        schema,
        directed.patch(
            f"/api/v1/clubs/{club.slug}/",
            {"rated_variants": ["tavli", "nackgammon"]},
            format="json",
        ),
    )
    assert patched["rated_variants"] == ["nackgammon", "tavli"]  # the registry's order
    read = check_answer(schema, client_for(None).get(f"/api/v1/clubs/{club.slug}/"))
    assert read["rated_variants"] == ["nackgammon", "tavli"]
    listed = check_answer(schema, client_for(None).get("/api/v1/clubs/"))
    assert listed["results"][0]["rated_variants"] == ["nackgammon", "tavli"]


def test_the_variants_answer_as_declared(schema, client_for):
    anyone = client_for(None)
    registry = check_answer(schema, anyone.get("/api/v1/variants/"))
    assert {"standard", "plakoto", "russian"} <= {v["key"] for v in registry["results"]}
    opening = check_answer(
        schema, anyone.post("/api/v1/variants/standard/plays/", {"dice": [3, 1]}, format="json")
    )
    assert opening["plays"] and opening["plays"][0]["result"] is None
    empty = [0] * 24
    mover, opponent = list(empty), list(empty)
    mover[0], opponent[19] = 1, 15
    ending = check_answer(
        schema,
        anyone.post(
            "/api/v1/variants/tavla/plays/",
            {
                "position": {
                    "mover": {"points": mover, "off": 14},
                    "opponent": {"points": opponent},
                },
                "dice": [2, 1],
            },
            format="json",
        ),
    )
    assert ending["plays"][0]["result"]["reason"] == "borne_off"


def test_a_transcripts_import_answers_as_declared(
    schema, client_for, club, director, analysis_on_request
):
    upload = SimpleUploadedFile(GALAXY.name, GALAXY.read_bytes())
    imported = check_answer(
        schema,
        client_for(director).post(
            "/api/v1/matches/import/", {"files": [upload], "club": club.slug}, format="multipart"
        ),
    )
    assert imported["counts"] == {"imported": 1}
    (report,) = imported["files"]
    assert report["status"] == "imported" and report["match"] and report["games"]
