"""The ratings API: list, history, preview, recompute (202 + job), results import."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from core.models import Job
from games.models import Match, Rating, RatingChange
from games.rules import fibs
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services import ratings as rating_services
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db

CSV = """date,winner,loser,length
2024-01-05,Ann,Ben,5
2024-01-05,Cy,Ann,3
2024-02-10,Ben,Cy,7
2024-02-11,Ann,Dee,1
"""

MARKDOWN = """# Club results

|Date|Winner|Loser|Length|
|---|---|---|---:|
| 2024-01-05 | Ann | Ben | 5 |
| 2024-01-05 | Cy | Ann | 3 |
| 2024-02-10 | Ben | Cy | 7 |
| 2024-02-11 | Ann | Dee | 1 |
"""


def finish(director, club, winner, loser, length, django_capture_on_commit_callbacks):
    actor = actor_for_user(director)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create.create_match(
            actor=actor, club=club, player1=winner, player2=loser, length=length
        )
        score_entry.record_final_score(actor=actor, match_id=match.pk, score=(length, 0))
    return match


def test_club_list_ranks_players_by_rating(
    client_for, club, director, alice, bob, django_capture_on_commit_callbacks
):
    finish(director, club, alice, bob, 5, django_capture_on_commit_callbacks)
    body = client_for(None).get(f"/api/v1/clubs/{club.slug}/ratings/").json()
    assert body["count"] == 2
    first, second = body["results"]
    assert (first["rank"], first["player"]["display_name"]) == (1, "Alice")
    assert (second["rank"], second["player"]["display_name"]) == (2, "Bob")
    assert first["rating"] == round(1500 + 4 * 5**0.5 * 0.5 * 5, 2)
    assert first["experience"] == 5 and first["matches_played"] == 1
    assert first["last_change"] == -second["last_change"]
    assert body["list"] == {
        "club": club.slug,
        "variant": "standard",
        "initial": 1500,
        "boost": "fibs",
        "recomputed_at": None,
    }


def test_club_list_is_paginated_with_ranks_across_pages(
    client_for, club, director, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    players = [
        club_services.create_player(display_name=f"P{i:02}", clubs=[club]) for i in range(60)
    ]
    for winner, loser in zip(players[::2], players[1::2], strict=True):
        finish(director, club, winner, loser, 1, django_capture_on_commit_callbacks)
    with django_assert_max_num_queries(6):
        page2 = client_for(None).get(f"/api/v1/clubs/{club.slug}/ratings/?page=2").json()
    assert page2["count"] == 60
    assert [r["rank"] for r in page2["results"]] == list(range(51, 61))


def test_unknown_club_list_is_404(client_for):
    assert client_for(None).get("/api/v1/clubs/nope/ratings/").status_code == 404


def test_player_history_on_club_and_site_lists(
    client_for, club, director, alice, bob, django_capture_on_commit_callbacks
):
    finish(director, club, alice, bob, 3, django_capture_on_commit_callbacks)
    finish(director, club, bob, alice, 5, django_capture_on_commit_callbacks)
    body = client_for(None).get(f"/api/v1/players/{alice.pk}/ratings/?club={club.slug}").json()
    assert [h["won"] for h in body["history"]] == [True, False]
    assert body["history"][0]["opponent"]["display_name"] == "Bob"
    assert body["history"][1]["rating_before"] == body["history"][0]["rating_after"]
    assert body["experience"] == 8 and body["matches_played"] == 2
    site = client_for(None).get(f"/api/v1/players/{alice.pk}/ratings/").json()
    assert site["rating"] == body["rating"] and site["list"]["club"] is None
    bad = client_for(None).get(f"/api/v1/players/{alice.pk}/ratings/?club=nope")
    assert bad.status_code == 400 and bad.json()["field"] == "club"


def test_preview_gives_chances_and_both_outcomes(
    client_for, club, director, alice, bob, django_capture_on_commit_callbacks
):
    finish(director, club, alice, bob, 7, django_capture_on_commit_callbacks)
    a = Rating.objects.get(rating_list__club=club, player=alice)
    b = Rating.objects.get(rating_list__club=club, player=bob)
    url = (
        f"/api/v1/ratings/preview/?club={club.slug}&player_a={alice.pk}&player_b={bob.pk}&length=5"
    )
    body = client_for(None).get(url).json()
    p_a, _ = fibs.win_probabilities(a.rating, b.rating, 5)
    assert body["player_a"]["win_probability"] == round(p_a, 4)
    assert body["player_a"]["win_probability"] + body["player_b"]["win_probability"] == (
        pytest.approx(1.0, abs=1e-4)
    )
    upset = fibs.rating_change(
        winner_rating=b.rating,
        loser_rating=a.rating,
        winner_experience=b.experience,
        loser_experience=a.experience,
        length=5,
    )
    assert body["if_b_wins"]["winner_change"] == round(upset.winner_delta, 2)
    assert body["if_b_wins"]["loser_after"] == round(a.rating + upset.loser_delta, 2)
    assert body["if_a_wins"]["winner_change"] < body["if_b_wins"]["winner_change"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("player_a=1&player_b=1&length=5", "player_b"),
        ("player_a=1&player_b=2&length=0", "length"),
        ("player_b=2&length=3", "player_a"),
        ("player_a=999998&player_b=999999&length=3", "player_a"),
    ],
)
def test_preview_refuses_bad_input_naming_the_field(client_for, query, field):
    response = client_for(None).get(f"/api/v1/ratings/preview/?{query}")
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_directors_start_a_recomputation_job(
    client_for, club, director, alice, bob, alice_user, django_capture_on_commit_callbacks
):
    finish(director, club, alice, bob, 5, django_capture_on_commit_callbacks)
    url = f"/api/v1/clubs/{club.slug}/ratings/recompute/"
    assert client_for(None).post(url).status_code == 401
    refused = client_for(alice_user).post(url)
    assert refused.status_code == 403 and refused.json()["code"] == "directors_only"
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(director).post(url)
    assert response.status_code == 202
    assert response["Location"] == f"/api/v1/jobs/{response.json()['id']}/"
    job = client_for(director).get(response["Location"]).json()
    assert job["status"] == "succeeded" and job["percent"] == 100.0
    assert job["result"]["matches"] == 1 and job["result"]["drifted_players"] == 0


@pytest.mark.parametrize("text", [CSV, MARKDOWN], ids=["csv", "markdown"])
def test_import_gives_the_same_ratings_as_entering_one_by_one(
    client_for, director, text, django_capture_on_commit_callbacks
):
    imported = club_services.create_club(created_by=director, name="Imported", slug="imported")
    entered = club_services.create_club(created_by=director, name="Entered", slug="entered")
    upload = SimpleUploadedFile("results.txt", text.encode(), content_type="text/plain")
    response = client_for(director).post(
        f"/api/v1/clubs/{imported.slug}/results/import/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 201, response.json()
    assert response.json() == {
        "matches": 4,
        "players_created": 4,
        "first_date": "2024-01-05",
        "last_date": "2024-02-11",
    }
    names = {
        n: club_services.create_player(display_name=n, clubs=[entered])
        for n in ["Ann", "Ben", "Cy", "Dee"]
    }
    for winner, loser, length in [
        ("Ann", "Ben", 5),
        ("Cy", "Ann", 3),
        ("Ben", "Cy", 7),
        ("Ann", "Dee", 1),
    ]:
        finish(
            director,
            entered,
            names[winner],
            names[loser],
            length,
            django_capture_on_commit_callbacks,
        )

    def by_name(club):
        return {
            r.player.display_name: (round(r.rating, 9), r.experience, r.matches_played)
            for r in Rating.objects.filter(rating_list__club=club).select_related("player")
        }

    assert by_name(imported) == by_name(entered)
    assert Match.objects.filter(club=imported, source="imported", status="finished").count() == 4


def test_import_with_bad_rows_reports_lines_and_writes_nothing(client_for, club, director):
    text = (
        "date,winner,loser,length\n2024-01-05,Ann,Ben,5\n05/01/2024,Ann,Ben,5\n"
        "2024-01-06,Ann,Ann,3\n2024-01-07,Cy,Dee,0\n"
    )
    response = client_for(director).post(
        f"/api/v1/clubs/{club.slug}/results/import/", {"text": text}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "results_file_invalid" and body["field"] == "file"
    assert [e["line"] for e in body["errors"]] == [3, 4, 5]
    assert not Match.objects.exists() and not RatingChange.objects.exists()
    assert not club.players.exists()


def test_import_is_for_directors(client_for, club, alice_user):
    url = f"/api/v1/clubs/{club.slug}/results/import/"
    assert client_for(None).post(url, {"text": CSV}, format="json").status_code == 401
    response = client_for(alice_user).post(url, {"text": CSV}, format="json")
    assert response.status_code == 403
    assert not Match.objects.exists()


def test_import_without_a_file_names_the_field(client_for, club, director):
    response = client_for(director).post(
        f"/api/v1/clubs/{club.slug}/results/import/", {}, format="json"
    )
    assert response.status_code == 400 and response.json()["field"] == "file"


def test_second_recompute_request_while_queued_returns_the_same_job(client_for, club, director):
    url = f"/api/v1/clubs/{club.slug}/ratings/recompute/"
    first = client_for(director).post(url).json()  # not committed: stays queued
    second = client_for(director).post(url).json()
    assert first["id"] == second["id"] and first["status"] == "queued"
    assert Job.objects.filter(kind="ratings.recompute").count() == 1
    assert rating_services.club_list(club).pk == first["params"]["list"]
