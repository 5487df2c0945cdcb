"""The games app's jobs against the schema that types them (issue #30): a large
transcript upload, the replay of a voided match's lists and the nightly
recomputation, each real job answer validated against ``Job`` (the union of the
per-kind jobs) closed to undeclared keys (``tests.openapi_answers``), so
``games.api.job_shapes`` and the handlers cannot drift apart. (A director's
recomputation and an analysis are held to it in ``test_answer_shapes.py`` and
``tests/analysis/api/test_api_shapes.py``.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from core.models import Job
from games import rating_jobs
from games.api import transcripts
from games.services import match_create, match_results, score_entry
from games.services.actors import actor_for_user
from tests.openapi_answers import check_answer, closed_live_schema

pytestmark = pytest.mark.django_db

GALAXY = Path(__file__).resolve().parents[3] / "data" / "mat" / "galaxy" / "Llabba_match1280660.mat"


@pytest.fixture
def schema():
    return closed_live_schema()


def test_a_large_upload_answers_a_typed_import_job(
    schema,
    client_for,
    club,
    director,
    analysis_on_request,
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    monkeypatch.setattr(transcripts, "SYNC_MAX_FILES", 0)  # any upload is a large one
    directed = client_for(director)
    upload = SimpleUploadedFile(GALAXY.name, GALAXY.read_bytes())
    with django_capture_on_commit_callbacks(execute=True):
        accepted = directed.post(
            "/api/v1/matches/import/", {"files": [upload], "club": club.slug}, format="multipart"
        )
    job = check_answer(schema, accepted)
    assert accepted.status_code == 202 and job["kind"] == "matches.import"
    assert "files" not in job["params"]  # the packed upload stays private
    done = check_answer(schema, directed.get(accepted["Location"]))
    assert done["status"] == "succeeded", done
    assert done["params"] == {
        "check": False,
        "lenient": False,
        "money": None,
        "names": [GALAXY.name],
    }
    assert done["result"]["counts"] == {"imported": 1}
    assert done["result"]["files"][0]["status"] == "imported"


def test_the_rating_replays_answer_typed_jobs(
    schema,
    client_for,
    club,
    director,
    admin_user,
    alice,
    bob,
    django_capture_on_commit_callbacks,
):
    actor = actor_for_user(director)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create.create_match(
            actor=actor, club=club, player1=alice, player2=bob, length=5
        )
        score_entry.record_final_score(actor=actor, match_id=match.pk, score=(5, 0))
    with django_capture_on_commit_callbacks(execute=True):
        match_results.void_match(actor=actor, match_id=match.pk)  # replays its lists
    replay = Job.objects.get(kind="ratings.recompute_from")
    done = check_answer(schema, client_for(director).get(f"/api/v1/jobs/{replay.pk}/"))
    assert done["status"] == "succeeded" and done["params"] == {"match_id": match.pk}
    assert done["result"]["lists"] and not done["result"]["lists"][0]["from_scratch"]

    with django_capture_on_commit_callbacks(execute=True):
        nightly = rating_jobs.nightly_recompute()
    admin = client_for(admin_user)
    every = check_answer(schema, admin.get(f"/api/v1/jobs/{nightly}/"))
    assert every["kind"] == "ratings.recompute_all" and every["status"] == "succeeded"
    assert every["params"] == {} and every["club"] is None
    assert every["result"]["drifted_lists"] == 0 and every["result"]["lists"]
