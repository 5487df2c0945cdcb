"""The club data pages: the settings page leads there; a director exports, watches the
job and downloads the file; anyone signed in imports a file as a new club, and a
refused file is told next to the field."""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.models import Club, Match
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(director) -> Client:
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def played_club(club, director):
    actor = actor_for_user(director)
    a = club_services.create_player(display_name="Ann Able", clubs=[club])
    b = club_services.create_player(display_name="Ben Baker", clubs=[club])
    match = match_create.create_match(actor=actor, club=club, player1=a, player2=b, length=3)
    score_entry.record_final_score(actor=actor, match_id=match.pk, score=(3, 0))
    return club


def test_the_settings_page_leads_to_the_club_data(browser, played_club):
    page = browser.get(f"/clubs/{played_club.slug}/settings/")
    assert page.status_code == 200
    assert f'href="/clubs/{played_club.slug}/data/"'.encode() in page.content
    assert b'href="/club-import/"' in page.content


def test_a_stranger_finds_no_data_page(played_club, make_user):
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(f"/clubs/{played_club.slug}/data/").status_code == 404


def test_a_director_exports_and_downloads(browser, played_club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        started = browser.post(f"/clubs/{played_club.slug}/data/")
    assert started.status_code == 302
    page = browser.get(f"/clubs/{played_club.slug}/data/")
    assert b"Done" in page.content and b'http-equiv="refresh"' not in page.content
    link = f"/clubs/{played_club.slug}/data/exports/".encode()
    assert link in page.content
    start = page.content.index(link)
    href = page.content[start : page.content.index(b'"', start)].decode()
    download = browser.get(href)
    assert download.status_code == 200
    assert download["Content-Type"] == "application/gzip"
    archive = json.loads(gzip.decompress(download.content))
    assert archive["format"] == "boxcars-club-archive" and archive["counts"]["matches"] == 1


def test_an_import_from_the_page_creates_the_club(
    browser, played_club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        browser.post(f"/clubs/{played_club.slug}/data/")
    job = played_club.jobs.get(kind="clubdata.export")
    data = browser.get(f"/clubs/{played_club.slug}/data/exports/{job.pk}/").content
    upload = SimpleUploadedFile("club.json.gz", data, content_type="application/gzip")
    with django_capture_on_commit_callbacks(execute=True):
        answer = browser.post("/club-import/", {"file": upload, "slug": "moved", "name": ""})
    assert answer.status_code == 302
    page = browser.get("/club-import/")
    assert b'href="/clubs/moved/"' in page.content
    assert Match.objects.filter(club__slug="moved").count() == 1


def test_a_refused_file_is_told_next_to_the_field(
    browser, played_club, django_capture_on_commit_callbacks
):
    upload = SimpleUploadedFile("club.json", b"not an archive")
    answer = browser.post("/club-import/", {"file": upload, "slug": ""})
    assert answer.status_code == 400
    assert b'id="id_file-error"' in answer.content
    assert b"not a Boxcars club archive" in answer.content
    other = SimpleUploadedFile("club.json", b'{"format": "boxcars-club-archive", "version": 7}')
    with django_capture_on_commit_callbacks(execute=True):
        answer = browser.post("/club-import/", {"file": other, "slug": "later"})
    assert answer.status_code == 302  # read by the job, which tells why in the list
    assert b"format version 7" in browser.get("/club-import/").content
    taken = SimpleUploadedFile("club.json", b"{}")
    answer = browser.post("/club-import/", {"file": taken, "slug": "bad slug!"})
    assert answer.status_code == 400 and b'id="id_slug-error"' in answer.content
    assert Club.objects.count() == 1
