"""Bounds where input enters (issue #25 item 5) and ``email`` on ``POST /players/`` (item 8b).

An import writes the strings it reads: a ``.mat`` player name longer than the player's
name column (80) answered 500 on PostgreSQL (``DataError``) and was stored whole on
SQLite; ``"clubs": ["c", "c"]`` answered 500 (``IntegrityError`` in the membership
insert). Both are now a 400 naming where the input is wrong.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Match, Membership, Player
from games.services import clubs as club_services
from tests.games.rules.corpus import DROPS

pytestmark = pytest.mark.django_db

LONG = "x" * 81


def _import(client, club, text: str):
    upload = SimpleUploadedFile("long.mat", text.encode())
    return client.post(
        "/api/v1/matches/import/", {"files": [upload], "club": club.slug}, format="multipart"
    )


def test_a_mat_player_name_longer_than_the_column_is_a_400_naming_the_line(
    client_for, director, club
):
    text = DROPS.read_text().replace(" alice : 0", f" {LONG} : 0", 1)
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if LONG in row)
    response = _import(client_for(director), club, text)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "transcript_refused" and body["field"] == "files"
    (error,) = body["files"][0]["errors"]
    assert error["code"] == "player_name_too_long" and error["line"] == line == 7
    assert f"line {line}" in error["message"]
    assert not Match.objects.exists() and not Player.objects.filter(display_name=LONG).exists()


def test_a_name_of_exactly_the_column_imports(client_for, director, club):
    exact = "y" * 80
    text = DROPS.read_text().replace(" alice : 0", f" {exact} : 0", 1)
    response = _import(client_for(director), club, text)
    assert response.status_code == 201, response.content
    assert Player.objects.filter(display_name=exact).exists()


def test_a_mat_name_from_the_player_tags_is_bounded_too(client_for, director, club):
    """A file whose only game has no score line names its players in the tags."""
    text = f'; [Player 1 "{LONG}"]\n; [Player 2 "bob"]\n\n 1 point match\n\n Game 1\n'
    response = _import(client_for(director), club, text)
    assert response.status_code == 400, response.content
    (error,) = response.json()["files"][0]["errors"]
    assert (error["code"], error["line"]) == ("player_name_too_long", 1)
    assert not Player.objects.filter(display_name=LONG).exists()


def test_a_results_file_name_longer_than_the_column_names_the_line(client_for, director, club):
    text = f"date,winner,loser,length\n2024-03-17,Ann,Ben,5\n2024-03-18,{LONG},Ben,5\n"
    response = client_for(director).post(
        f"/api/v1/clubs/{club.slug}/results/import/", {"text": text}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "line 3" in response.json()["detail"]
    assert not Match.objects.exists()


def test_a_bulk_registration_name_longer_than_the_column_is_refused_on_its_line(
    client_for, director, club
):
    client = client_for(director)
    event = client.post(
        "/api/v1/tournaments/",
        {"club": club.slug, "name": "Open", "format": "single_elimination"},
        format="json",
    ).json()
    response = client.post(
        f"/api/v1/tournaments/{event['slug']}/entries/bulk/",
        {"names": ["Ann", LONG]},
        format="json",
    )
    assert response.status_code in (200, 201, 400), response.content
    assert not Player.objects.filter(display_name=LONG).exists()


def test_a_club_listed_twice_for_a_new_player_is_a_400_naming_clubs(client_for, director, club):
    response = client_for(director).post(
        "/api/v1/players/",
        {"display_name": "Cleo", "clubs": [club.slug, club.slug]},
        format="json",
    )
    assert response.status_code == 400, response.content
    body = response.json()
    assert (body["code"], body["field"]) == ("club_listed_twice", "clubs")
    assert not Player.objects.filter(display_name="Cleo").exists()


def test_a_club_listed_twice_on_update_is_a_400_naming_clubs(client_for, director, club):
    player = club_services.create_player(display_name="Dora", clubs=[club])
    response = client_for(director).patch(
        f"/api/v1/players/{player.pk}/", {"clubs": [club.slug, club.slug]}, format="json"
    )
    assert response.status_code == 400, response.content
    assert (response.json()["code"], response.json()["field"]) == ("club_listed_twice", "clubs")
    assert Membership.objects.filter(player=player).count() == 1


def test_post_players_keeps_the_email(client_for, director, club):
    response = client_for(director).post(
        "/api/v1/players/",
        {"display_name": "Erin", "clubs": [club.slug], "email": "erin@example.org"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["email"] == "erin@example.org"
    assert Player.objects.get(pk=response.json()["id"]).email == "erin@example.org"


def test_post_players_refuses_a_bad_email_naming_it(client_for, director, club):
    response = client_for(director).post(
        "/api/v1/players/",
        {"display_name": "Finn", "clubs": [club.slug], "email": "not an address"},
        format="json",
    )
    assert response.status_code == 400 and response.json()["field"] == "email"
    assert not Player.objects.filter(display_name="Finn").exists()
