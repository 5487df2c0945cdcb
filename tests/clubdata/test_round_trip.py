"""A club out and back in (issue 30): export through the API, import into an empty
site, export again: the same file apart from when it was written. On SQLite and, marked
``postgres``, on PostgreSQL."""

from __future__ import annotations

import gzip
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from rest_framework.test import APIClient

from clubdata.archive.sections import SECTIONS, check_sections
from games.models import Club, Game, Match, RatingChange
from money.models import Payment, Pool
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def export_through_api(client: APIClient, slug: str) -> bytes:
    started = client.post(f"/api/v1/clubs/{slug}/archive/")
    assert started.status_code == 202, started.content
    job = client.get(started["Location"]).json()
    assert job["status"] == "succeeded", job
    assert job["percent"] == 100.0
    download = client.get(job["result"]["download"])
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith(f'attachment; filename="{slug}-')
    return download.content


def import_through_api(client: APIClient, data: bytes, name: str = "club.json") -> dict:
    from django.core.files.uploadedfile import SimpleUploadedFile

    answer = client.post(
        "/api/v1/club-archives/",
        {"file": SimpleUploadedFile(name, data, content_type="application/json")},
        format="multipart",
    )
    assert answer.status_code == 202, answer.content
    return client.get(answer["Location"]).json()


def without_time_of_export(data: bytes) -> dict:
    archive = json.loads(gzip.decompress(data))
    archive.pop("exported_at")
    return archive


def round_trip(full_club, director_client) -> dict:
    check_sections()
    first = export_through_api(director_client, full_club.slug)
    assert first[:2] == b"\x1f\x8b"  # the download is the JSON gzip-compressed
    archive = json.loads(gzip.decompress(first))
    counts = archive["counts"]
    for section in ("players", "memberships", "matches", "games", "clocks", "clock_turns"):
        assert counts[section] > 0, section
    for section in ("ratings", "rating_changes", "events", "entries", "stages", "rounds"):
        assert counts[section] > 0, section
    for section in ("pairings", "chouettes", "chouette_seats", "chouette_games"):
        assert counts[section] > 0, section
    for section in ("chouette_members", "event_money", "pools", "payments", "lots"):
        assert counts[section] > 0, section
    assert "standard" in [lst["variant"] for lst in archive["rating_lists"]]
    finished = [e for e in archive["events"] if e["status"] == "finished"]
    assert [e["slug"] for e in finished] == ["saturday-cup"]
    assert all(not isinstance(p.get("id"), int) for p in archive["players"])  # no db ids
    before = {
        "matches": Match.objects.filter(club=full_club).count(),
        "games": Game.objects.filter(match__club=full_club).count(),
        "changes": RatingChange.objects.filter(rating_list__club=full_club).count(),
    }

    call_command("flush", interactive=False)  # an empty site
    assert not Club.objects.exists()
    newcomer = get_user_model().objects.create_user("newcomer", password="pw-for-tests-1")
    client = APIClient()
    client.force_authenticate(newcomer)
    job = import_through_api(client, first)

    assert job["status"] == "succeeded", job
    result = job["result"]
    assert result["club"] == "demo" and result["counts"] == counts
    assert result["total"] == sum(counts.values())
    club = Club.objects.get(slug="demo")
    assert list(club.directors.all()) == [newcomer]
    assert Match.objects.filter(club=club).count() == before["matches"]
    assert Game.objects.filter(match__club=club).count() == before["games"]
    assert RatingChange.objects.filter(rating_list__club=club).count() == before["changes"]
    event = Tournament.objects.get(slug="saturday-cup")
    assert Pool.objects.filter(event__tournament=event).count() == 1
    assert Payment.objects.filter(event__tournament=event).count() == 4
    assert set(event.bracket_order) == set(event.entries.values_list("pk", flat=True))

    second = export_through_api(client, "demo")
    assert without_time_of_export(second) == without_time_of_export(first)
    assert len(SECTIONS) == len(counts)
    return counts


def test_round_trip_gives_the_same_file(full_club, director_client):
    counts = round_trip(full_club, director_client)  # asserts the two files are equal
    assert counts["matches"] > 0


@pytest.mark.postgres
def test_round_trip_gives_the_same_file_on_postgresql(full_club, director_client):
    assert connection.vendor == "postgresql"
    round_trip(full_club, director_client)
