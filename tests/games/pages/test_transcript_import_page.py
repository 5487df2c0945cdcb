"""The club's transcript import page: a director's upload becomes a match (and, when
the club analyses automatically, its analysis); a refused file lists its errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from analysis import services as analysis_services
from analysis.models import MatchAnalysis
from games.models import Match

pytestmark = pytest.mark.django_db

GALAXY = Path(__file__).resolve().parents[3] / "data" / "mat" / "galaxy" / "Llabba_match1280660.mat"


def _upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/plain")


def test_a_director_imports_a_file_and_lands_on_the_analysed_match(
    client, club, director, django_capture_on_commit_callbacks
):
    analysis_services.update_settings(user=director, club=club, plies=0)
    client.force_login(director)
    assert "Import a transcript" in client.get(f"/clubs/{club.slug}/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/clubs/{club.slug}/import/", {"file": _upload(GALAXY.name, GALAXY.read_bytes())}
        )
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == f"/matches/{match.pk}/"
    assert MatchAnalysis.objects.get(match=match).plies == 0
    # the same file again: no second match, straight to the first
    again = client.post(
        f"/clubs/{club.slug}/import/", {"file": _upload(GALAXY.name, GALAXY.read_bytes())}
    )
    assert again.url == f"/matches/{match.pk}/" and Match.objects.count() == 1


def test_a_refused_file_lists_its_errors_and_writes_nothing(client, club, director):
    client.force_login(director)
    broken = GALAXY.read_text().replace("Wins 1 point", "Wins 3 points", 1)
    response = client.post(
        f"/clubs/{club.slug}/import/", {"file": _upload("broken.mat", broken.encode())}
    )
    assert response.status_code == 200
    assert "The file was refused" in response.content.decode()
    assert not Match.objects.exists()
    empty = client.post(f"/clubs/{club.slug}/import/", {})
    assert "Choose a .mat file to import." in empty.content.decode()


def test_only_the_clubs_directors_see_the_page(client, club, make_user):
    client.force_login(make_user())
    assert client.get(f"/clubs/{club.slug}/import/").status_code == 404
    assert "Import a transcript" not in client.get(f"/clubs/{club.slug}/").content.decode()


def test_a_refused_file_is_explained_in_the_pages_language(client, club, director):
    """The line number is part of the translated sentence: a German page said "line 1:"
    in front of a German message."""
    client.force_login(director)
    response = client.post(
        f"/clubs/{club.slug}/import/",
        {"file": _upload("notes.mat", b"this is not a match file\n")},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Die Datei wurde abgelehnt:" in page
    assert "Zeile 1: " in page and "line 1" not in page
