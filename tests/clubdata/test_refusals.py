"""An archive that is not one this site can read is refused with a message naming what
is wrong, and nothing of a club is written: another format version, a file cut short,
not JSON, a reference to a row the file does not hold, a value the model refuses, a
row the database refuses, a slug in use, a file over the bound."""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from clubdata.archive import format as archive_format
from clubdata.models import ClubImportUpload
from games.models import Club, Game, Match, Membership, Player
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services.actors import actor_for_user
from games.services.match_records import GameInput

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_club(club, director):
    actor = actor_for_user(director)
    players = [
        club_services.create_player(display_name=name, clubs=[club])
        for name in ("Ann Able", "Ben Baker", "Cy Cole")
    ]
    for first, second in ((0, 1), (1, 2)):
        match = match_create.create_match(
            actor=actor, club=club, player1=players[first], player2=players[second], length=3
        )
        winner = players[first].pk
        for level in ("gammon", "single"):  # 2 + 1 points: two games
            score_entry.record_game(
                actor=actor, match_id=match.pk, game=GameInput(winner_id=winner, level=level)
            )
    return club


@pytest.fixture
def director_api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.fixture
def archive(small_club, director_api, django_capture_on_commit_callbacks) -> dict:
    with django_capture_on_commit_callbacks(execute=True):
        started = director_api.post(f"/api/v1/clubs/{small_club.slug}/archive/")
    assert started.status_code == 202
    job = director_api.get(started["Location"]).json()
    assert job["status"] == "succeeded", job
    return json.loads(gzip.decompress(director_api.get(job["result"]["download"]).content))


def snapshot() -> dict[str, int]:
    return {
        model.__name__: model.objects.count() for model in (Club, Player, Membership, Match, Game)
    }


def post(client, data: bytes, capture, **fields):
    upload = SimpleUploadedFile("club.json", data, content_type="application/json")
    with capture(execute=True):
        return client.post("/api/v1/club-archives/", {"file": upload, **fields}, format="multipart")


def as_bytes(archive: dict) -> bytes:
    return json.dumps(archive).encode()


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        (b"", "archive_empty", "empty"),
        (b"\x00\xffnot json", "archive_format", "not a Boxcars club archive"),
        (
            gzip.compress(b'{"format": "boxcars-club-archive"}', mtime=0)[:-9],
            "archive_truncated",
            "cut short",
        ),
        (gzip.compress(b"   ", mtime=0), "archive_empty", "empty"),
    ],
    ids=["empty", "not-an-object", "cut-gzip", "empty-gzip"],
)
def test_a_file_that_is_no_archive_is_refused_at_once(
    director_api, archive, django_capture_on_commit_callbacks, data, code, words
):
    """What the request tells without parsing: the job is never started."""
    before = snapshot()
    answer = post(director_api, data, django_capture_on_commit_callbacks)
    assert answer.status_code == 400
    assert answer.json()["code"] == code and answer.json()["field"] == "file"
    assert words in answer.json()["detail"]
    assert snapshot() == before


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        (b'{"format": "boxcars-club-archive", "club": "\xff"}', "archive_corrupt", "UTF-8"),
        (
            b'{"format": "boxcars-club-archive", "version": 1, "club": {',
            "archive_corrupt",
            "cut short",
        ),
        (b'{"format": "something else"}', "archive_format", "not a Boxcars club archive"),
        (b'{"format": "boxcars-club-archive", "nonsense": []}', "archive_field", "nonsense"),
    ],
    ids=["not-utf8", "cut-json", "other-format", "unknown-key"],
)
def test_a_file_that_reads_wrong_fails_its_job_at_once(
    director_api, archive, django_capture_on_commit_callbacks, data, code, words
):
    """What takes reading the file is the job's: it fails on its first attempt (a bad
    file is not retried), with the reason in words."""
    error = refused_in_job(director_api, data, django_capture_on_commit_callbacks)
    assert error["code"] == code and words in error["detail"], error


def test_a_truncated_export_fails_its_job(
    director_api, archive, django_capture_on_commit_callbacks
):
    data = as_bytes(archive)
    error = refused_in_job(director_api, data[: len(data) // 2], django_capture_on_commit_callbacks)
    assert error["code"] == "archive_corrupt" and "cut short" in error["detail"]


def test_another_format_version_fails_its_job(
    director_api, archive, django_capture_on_commit_callbacks
):
    error = refused_in_job(
        director_api, as_bytes({**archive, "version": 2}), django_capture_on_commit_callbacks
    )
    assert error == {
        "code": "archive_version",
        "detail": "The archive is of format version 2; this site reads version 1 only.",
        "field": "version",
    }


def refused_in_job(client, archive: dict | bytes, capture) -> dict:
    """The file is taken (202), and its job fails on its first attempt writing nothing."""
    before = snapshot()
    data = archive if isinstance(archive, bytes) else as_bytes(archive)
    answer = post(client, data, capture, slug="copy")
    assert answer.status_code == 202, answer.content
    job = client.get(answer["Location"]).json()
    assert job["status"] == "failed", job
    assert job["attempts"] == 1, job  # a bad file is not tried again
    assert snapshot() == before  # nothing of the club was written
    assert not ClubImportUpload.objects.exists()  # nor is the refused file kept
    return job["error"]


def test_a_reference_to_a_row_the_file_lacks_writes_nothing(
    director_api, archive, django_capture_on_commit_callbacks
):
    archive["games"][0]["winner"] = 99
    error = refused_in_job(director_api, archive, django_capture_on_commit_callbacks)
    assert error == {
        "code": "archive_reference",
        "detail": "games[0].winner refers to players #99, which the file does not hold.",
        "field": "games[0].winner",
    }


def test_a_value_the_model_refuses_writes_nothing(
    director_api, archive, django_capture_on_commit_callbacks
):
    archive["matches"][1]["status"] = "won"
    error = refused_in_job(director_api, archive, django_capture_on_commit_callbacks)
    assert error["code"] == "archive_value" and error["field"] == "matches[1].status"
    assert "'won' is not a valid choice" in error["detail"]


def test_a_missing_field_writes_nothing(director_api, archive, django_capture_on_commit_callbacks):
    del archive["players"][2]["display_name"]
    error = refused_in_job(director_api, archive, django_capture_on_commit_callbacks)
    assert error["code"] == "archive_field"
    assert error["field"] == "players[2].display_name"


def test_a_section_shorter_than_its_count_writes_nothing(
    director_api, archive, django_capture_on_commit_callbacks
):
    archive["games"].pop()
    error = refused_in_job(director_api, archive, django_capture_on_commit_callbacks)
    assert error["code"] == "archive_incomplete" and error["field"] == "games"


def test_a_row_the_database_refuses_writes_nothing(
    director_api, archive, django_capture_on_commit_callbacks
):
    archive["games"].append(dict(archive["games"][0]))  # the same game number twice
    archive["counts"]["games"] += 1
    error = refused_in_job(director_api, archive, django_capture_on_commit_callbacks)
    assert error["code"] == "archive_conflict"
    assert "nothing was imported" in error["detail"]


def test_a_club_slug_in_use_is_refused_and_another_accepted(
    director_api, archive, django_capture_on_commit_callbacks, small_club
):
    taken = post(
        director_api, as_bytes(archive), django_capture_on_commit_callbacks, slug="test-club"
    )
    assert taken.status_code == 400
    assert taken.json()["code"] == "slug_taken" and taken.json()["field"] == "slug"
    answer = post(director_api, as_bytes(archive), django_capture_on_commit_callbacks)
    job = director_api.get(answer["Location"]).json()  # the file's own slug: the job's
    assert job["status"] == "failed" and job["error"]["code"] == "slug_taken", job

    answer = post(
        director_api,
        gzip.compress(as_bytes(archive)),
        django_capture_on_commit_callbacks,
        slug="copy",
        name="Copy Club",
    )
    job = director_api.get(answer["Location"]).json()
    assert job["status"] == "succeeded", job
    assert job["result"]["club"] == "copy"
    assert job["result"]["renamed"] == {"players": 3}  # their slugs were in use here
    copy = Club.objects.get(slug="copy")
    assert copy.name == "Copy Club"
    assert Match.objects.filter(club=copy).count() == 2
    assert sorted(Player.objects.filter(clubs=copy).values_list("slug", flat=True)) == [
        "ann-able-2",
        "ben-baker-2",
        "cy-cole-2",
    ]


def test_a_file_over_the_bound_is_refused_unread(
    director_api, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(archive_format, "MAX_UPLOAD_BYTES", 100)
    answer = post(director_api, b" " * 101, django_capture_on_commit_callbacks)
    assert answer.status_code == 413 and answer.json()["code"] == "archive_too_large"
    assert "101 bytes" in answer.json()["detail"]  # counted as it came, dropped past 100


def test_a_file_that_inflates_over_the_bound_is_refused_at_once(
    director_api, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(archive_format, "MAX_JSON_BYTES", 1000)
    answer = post(
        director_api, gzip.compress(b"{" + b" " * 1000), django_capture_on_commit_callbacks
    )
    assert answer.status_code == 413 and answer.json()["code"] == "archive_too_large"
    assert "inflates" in answer.json()["detail"]


def test_only_directors_export_and_only_signed_in_users_import(
    small_club, make_user, django_capture_on_commit_callbacks
):
    stranger = APIClient()
    stranger.force_authenticate(make_user("stranger"))
    refused = stranger.post(f"/api/v1/clubs/{small_club.slug}/archive/")
    assert refused.status_code == 403 and refused.json()["code"] == "directors_only"
    anonymous = APIClient().post("/api/v1/club-archives/", {}, format="multipart")
    assert anonymous.status_code in (401, 403)
