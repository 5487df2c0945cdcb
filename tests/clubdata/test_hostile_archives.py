"""Issue 37, finding 5: archives a hostile (or broken) client sends, through the API and
the job. The request keeps the file and answers 202 without parsing it; the job reads
it as a stream, in bounded memory, and a file that is wrong fails on its first attempt
with the reason in words and the place in the file:

- a 94 KB gzip file that inflates to 99 MB (under the 100 MB bound) used to be parsed
  inside the request (34 s, a killed web worker); here the request's memory and the
  job's stay small, and the club it holds is imported;
- 5,000 levels of nesting used to answer 500 (``RecursionError``);
- an ``opening_rolls`` key ``"²"`` (a digit to ``str.isdigit``, not to ``int``) and a
  lone surrogate in a name used to fail only after five attempts, with a Python
  exception for a message.
"""

from __future__ import annotations

import gzip
import io
import json
import tracemalloc

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from clubdata.archive.reader import SurrogateGuard
from games.models import Club, Player
from tests.clubdata.test_refusals import archive, director_api, post, refused_in_job, small_club

__all__ = ["archive", "director_api", "small_club"]  # the fixtures, shared

pytestmark = pytest.mark.django_db

MB = 1024 * 1024


def bomb(archive: dict, size: int) -> bytes:
    """A real archive stretched to ``size`` bytes of JSON by one small payload repeated
    (blanks between its rows, which JSON allows), gzip-compressed: ~100 KB."""
    text = json.dumps(archive).encode()
    head, tail = text.split(b'"games": [', 1)
    padding = b" " * (size - len(text) - 20)
    return gzip.compress(head + b'"games": [' + padding + tail, compresslevel=9, mtime=0)


def peak_while(call):
    """What ``call`` returns, and the most memory Python held meanwhile (bytes)."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_99_mb_bomb_is_taken_at_once_and_read_in_bounded_memory(
    director_api, archive, django_capture_on_commit_callbacks
):
    data = bomb(archive, 99 * MB)
    assert len(data) < 200_000  # small as it travels, 99 MB inflated
    upload = SimpleUploadedFile("club.json.gz", data, content_type="application/gzip")

    def request():
        return director_api.post(
            "/api/v1/club-archives/", {"file": upload, "slug": "bomb"}, format="multipart"
        )

    with django_capture_on_commit_callbacks(execute=False) as jobs:
        answer, request_peak = peak_while(request)
    assert answer.status_code == 202, answer.content
    assert request_peak < 32 * MB  # the request held neither the JSON nor its rows
    [run_job] = jobs
    _, job_peak = peak_while(run_job)
    assert job_peak < 48 * MB  # nor did the job, which read all 99 MB of it
    job = director_api.get(answer["Location"]).json()
    assert job["status"] == "succeeded" and job["attempts"] == 1, job
    assert job["params"]["json_bytes"] > 98 * MB
    assert job["result"]["counts"]["games"] == len(archive["games"])
    assert Club.objects.filter(slug="bomb").exists()


def test_nesting_5000_deep_fails_its_job_naming_where(
    director_api, archive, django_capture_on_commit_callbacks
):
    archive["players"][0]["display_name"] = "[" * 5000 + "]" * 5000  # text: harmless
    text = json.dumps(archive).encode()
    deep = b"[" * 5000 + b"]" * 5000
    data = text.replace(b'"public_results": true', b'"public_results": ' + deep, 1)
    error = refused_in_job(director_api, data, django_capture_on_commit_callbacks)
    assert error["code"] == "archive_too_deep"
    assert error["field"] == "players[0].public_results"
    assert "nested deeper than 32 levels" in error["detail"]


@pytest.fixture
def chouette_archive(demo_club, director_api, django_capture_on_commit_callbacks) -> dict:
    """The demo club's archive: it holds a chouette with its opening rolls."""
    with django_capture_on_commit_callbacks(execute=True):
        started = director_api.post(f"/api/v1/clubs/{demo_club.slug}/archive/")
    job = director_api.get(started["Location"]).json()
    data = director_api.get(job["result"]["download"]).content
    archive = json.loads(gzip.decompress(data))
    assert archive["chouettes"] and archive["chouettes"][0]["opening_rolls"]
    return archive


def test_a_key_that_is_a_digit_only_to_unicode_fails_its_job_at_once(
    director_api, chouette_archive, django_capture_on_commit_callbacks
):
    chouette_archive["chouettes"][0]["opening_rolls"] = {"²": 6}
    error = refused_in_job(director_api, chouette_archive, django_capture_on_commit_callbacks)
    assert error == {
        "code": "archive_reference",
        "detail": "chouettes[0].opening_rolls refers to players #², which the file does not hold.",
        "field": "chouettes[0].opening_rolls",
    }


def test_a_lone_surrogate_in_a_name_fails_its_job_at_once(
    director_api, archive, django_capture_on_commit_callbacks
):
    archive["players"][1]["display_name"] = "Ann \ud800 Able"
    data = json.dumps(archive).encode()  # written as the escape \ud800, as JSON allows
    assert b"\\ud800" in data
    error = refused_in_job(director_api, data, django_capture_on_commit_callbacks)
    assert error["code"] == "archive_value"
    assert error["field"] == "players[1].display_name"
    assert "not Unicode" in error["detail"]


def test_a_name_beyond_the_basic_plane_comes_through(
    director_api, archive, django_capture_on_commit_callbacks
):
    """A surrogate pair is one character (the C parser must not see a lone half)."""
    archive["players"][1]["display_name"] = "Ann \U0001f3b2 Able"
    upload = SimpleUploadedFile("c.json", json.dumps(archive).encode())
    with django_capture_on_commit_callbacks(execute=True):
        answer = director_api.post(
            "/api/v1/club-archives/", {"file": upload, "slug": "dice"}, format="multipart"
        )
    job = director_api.get(answer["Location"]).json()
    assert job["status"] == "succeeded", job
    assert Player.objects.filter(clubs__slug="dice", display_name="Ann \U0001f3b2 Able").exists()


class Trickle:
    """A stream that hands out ``step`` bytes a read, so every escape is cut somewhere."""

    def __init__(self, data: bytes, step: int) -> None:
        self.data = io.BytesIO(data)
        self.step = step

    def read(self, size: int = -1) -> bytes:
        return self.data.read(self.step)


@pytest.mark.parametrize("step", [1, 2, 3, 5, 7, 11, 13, 4096])
def test_the_guard_replaces_only_lone_surrogates_however_the_stream_is_cut(step):
    text = (
        rb'["\ud83c\udfb2", "\ud800", "a\udc00b", "\\ud800", "\\\ud800", "\ud800\u0041",'
        rb' "\uD83D\uDE00\ud83d"]'
    )
    guard = SurrogateGuard(Trickle(text, step))
    out = b"".join(iter(lambda: guard.read(step), b""))
    assert json.loads(out) == [
        "\U0001f3b2",
        "\uffff",
        "a\uffffb",
        "\\ud800",  # an escaped backslash, then text
        "\\\uffff",
        "\uffffA",
        "\U0001f600\uffff",
    ]


def test_a_refused_import_leaves_the_import_page_answering(
    director, archive, django_capture_on_commit_callbacks
):
    """Issue 41: after a refused import, ``/club-import/`` answered 500 on every visit
    (the job list's template asked the error for a key it does not hold)."""
    from django.test import Client

    archive["matches"][1]["status"] = "won"
    browser = Client()
    browser.force_login(director)
    upload = SimpleUploadedFile("club.json", json.dumps(archive).encode())
    with django_capture_on_commit_callbacks(execute=True):
        answer = browser.post("/club-import/", {"file": upload, "slug": "copy"})
    assert answer.status_code == 302
    page = browser.get("/club-import/")
    assert page.status_code == 200
    assert b"matches[1].status: Value &#x27;won&#x27; is not a valid choice." in page.content


def test_post_with_a_file_over_the_bound_is_refused_on_the_page(director, monkeypatch):
    from django.test import Client

    from clubdata.archive import format as archive_format

    monkeypatch.setattr(archive_format, "MAX_UPLOAD_BYTES", 100)
    browser = Client(enforce_csrf_checks=False)
    browser.force_login(director)
    upload = SimpleUploadedFile("club.json", b"{" + b" " * 200 + b"}")
    answer = browser.post("/club-import/", {"file": upload})
    assert answer.status_code == 400
    assert b'id="id_file-error"' in answer.content and b"at most 100 bytes" in answer.content
    assert post  # the API's own door is tested in test_refusals


def test_reading_a_long_file_reports_its_rows():
    """Reading 99 MB takes minutes: the job's progress tells how far it is."""
    from clubdata.archive import format as archive_format
    from clubdata.archive.reader import read_archive

    data = b'{"format": "boxcars-club-archive", "games": [' + b"{}, " * 24_999 + b"{}]}"
    said: list[str] = []
    with pytest.raises(archive_format.ArchiveError):  # no version, no counts: not whole
        read_archive(io.BytesIO(data), lambda done, total, message: said.append(message))
    assert said == ["reading the file: 10000 rows", "reading the file: 20000 rows"]
