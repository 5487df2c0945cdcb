"""The clubs and players API: reads for all, writes for directors, one error shape."""

from __future__ import annotations

import pytest

from games.models import Club, Player

pytestmark = pytest.mark.django_db


def test_anyone_lists_clubs(client_for, club):
    response = client_for(None).get("/api/v1/clubs/")
    assert response.status_code == 200
    assert [c["slug"] for c in response.json()["results"]] == ["test-club"]


def test_creating_a_club_makes_its_creator_a_director(client_for, make_user):
    user = make_user("founder")
    response = client_for(user).post(
        "/api/v1/clubs/",
        {"name": "Paris BG", "rating_initial": 1600, "rating_boost": "none"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["slug"] == "paris-bg"
    assert body["rating_initial"] == 1600 and body["rating_boost"] == "none"
    assert Club.objects.get(slug="paris-bg").directors.filter(pk=user.pk).exists()


def test_anonymous_write_gets_401_with_error_shape(client_for):
    response = client_for(None).post("/api/v1/clubs/", {"name": "X"}, format="json")
    assert response.status_code == 401
    body = response.json()
    assert body["code"] == "not_authenticated"
    assert set(body) >= {"code", "detail", "field"}
    assert not Club.objects.exists()


def test_bad_club_input_names_the_field_and_rule(client_for, make_user):
    response = client_for(make_user()).post(
        "/api/v1/clubs/", {"name": "X", "rating_boost": "elo"}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "rating_boost"
    assert body["code"] == "invalid_choice"
    assert not Club.objects.exists()


def test_duplicate_club_slug_is_a_conflict(client_for, club, make_user):
    response = client_for(make_user()).post(
        "/api/v1/clubs/", {"name": "Other", "slug": "test-club"}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["field"] == "slug"


def test_only_directors_change_a_club(client_for, club, director, make_user):
    outsider = make_user()
    denied = client_for(outsider).patch(
        f"/api/v1/clubs/{club.slug}/", {"rating_initial": 1000}, format="json"
    )
    assert denied.status_code == 403
    allowed = client_for(director).patch(
        f"/api/v1/clubs/{club.slug}/", {"rating_initial": 1400}, format="json"
    )
    assert allowed.status_code == 200
    club.refresh_from_db()
    assert club.rating_initial == 1400


def test_director_registers_a_player_in_the_club(client_for, club, director):
    response = client_for(director).post(
        "/api/v1/players/", {"display_name": "Ann Lee", "clubs": [club.slug]}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["clubs"] == ["test-club"]
    listed = client_for(None).get("/api/v1/players/?club=test-club").json()
    assert [p["display_name"] for p in listed["results"]] == ["Ann Lee"]


def test_non_director_cannot_register_players(client_for, club, make_user):
    response = client_for(make_user()).post(
        "/api/v1/players/", {"display_name": "Ann", "clubs": [club.slug]}, format="json"
    )
    assert response.status_code == 403
    assert not Player.objects.exists()


def test_player_needs_a_known_club(client_for, director):
    response = client_for(director).post(
        "/api/v1/players/", {"display_name": "Ann", "clubs": ["nowhere"]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "clubs"
    assert not Player.objects.exists()


def test_token_login_gives_a_usable_token(api_client, make_user):
    make_user("tok")
    api_client.credentials(HTTP_AUTHORIZATION="Basic dG9rOnB3LWZvci10ZXN0cy0x")  # tok:pw...
    response = api_client.post("/api/v1/auth/token/")
    assert response.status_code == 200
    token = response.json()["token"]
    client = type(api_client)()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = client.post("/api/v1/clubs/", {"name": "Token Club"}, format="json")
    assert created.status_code == 201
