"""The analysis answers against the schema that types them (issue #30): a match's
analysis, the job that re-analyses it, the earlier analysis it kept, and a transcript
attached to an entered match, each real answer validated against its declared schema
closed to undeclared keys (``tests.openapi_answers``), so ``analysis.api_shapes`` and
the selectors that build the answers cannot drift apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from analysis import services
from analysis.api_shapes import StoredDecisionSerializer
from analysis.models import Decision
from games.models import Match, MatchSource
from tests.openapi_answers import check_answer, closed_live_schema

pytestmark = pytest.mark.django_db

GALAXY = Path(__file__).resolve().parents[3] / "data" / "mat" / "galaxy" / "Llabba_match1280660.mat"


@pytest.fixture
def schema():
    return closed_live_schema()


def test_an_analysis_and_its_history_answer_as_declared(
    schema, client_for, club, director, django_capture_on_commit_callbacks
):
    services.update_settings(user=director, club=club, plies=0)
    directed, anyone = client_for(director), client_for(None)
    with django_capture_on_commit_callbacks(execute=True):
        directed.post(
            "/api/v1/matches/import/",
            {"files": [SimpleUploadedFile(GALAXY.name, GALAXY.read_bytes())], "club": club.slug},
            format="multipart",
        )
    match = Match.objects.get()
    url = f"/api/v1/matches/{match.pk}/analysis/"
    first = check_answer(schema, anyone.get(url))
    assert [p["side"] for p in first["players"]] == [1, 2] and first["players"][0]["worst"]
    with django_capture_on_commit_callbacks(execute=True):
        job = check_answer(schema, directed.post(url, {"plies": 1}, format="json"))
    assert check_answer(schema, directed.get(f"/api/v1/jobs/{job['id']}/"))["error"] is None
    (earlier,) = check_answer(schema, anyone.get(f"{url}history/"))
    assert earlier["plies"] == 0 and "decision_rows" not in earlier
    (full,) = check_answer(schema, anyone.get(f"{url}history/", {"decisions": "true"}))
    assert len(full["decision_rows"]) == earlier["decisions"]
    assert set(full["decision_rows"][0]) == set(StoredDecisionSerializer().fields)


def test_a_stored_decision_row_names_every_column_a_replaced_analysis_keeps():
    """``StoredDecision`` is typed (not a free-form object): a column added to the
    decision table is added to it too, or this fails (the stored rows would carry it)."""
    kept = {f.attname for f in Decision._meta.concrete_fields} - {"id", "analysis_id"}
    assert set(StoredDecisionSerializer().fields) == kept


def test_an_attached_transcript_answers_as_declared(schema, client_for, club, director):
    services.update_settings(user=director, club=club, automatic=False, plies=0)
    directed = client_for(director)
    directed.post(
        "/api/v1/matches/import/",
        {"files": [SimpleUploadedFile(GALAXY.name, GALAXY.read_bytes())], "club": club.slug},
        format="multipart",
    )
    Match.objects.update(transcript="", transcript_hash="", source=MatchSource.ENTERED)
    match = Match.objects.get()
    attached = check_answer(
        schema,
        directed.post(
            f"/api/v1/matches/{match.pk}/transcript/",
            {"file": SimpleUploadedFile(GALAXY.name, GALAXY.read_bytes())},
            format="multipart",
        ),
    )
    assert attached["match"] == match.pk and attached["transcript_hash"]
