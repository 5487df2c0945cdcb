"""Rating pages (list, history chart) in a constant number of queries; the
``import_results`` command; the demo seed."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from games.models import Match, Rating
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services import ratings as rating_services
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_club(club, director, django_capture_on_commit_callbacks):
    def make(n_players: int):
        players = [
            club_services.create_player(display_name=f"Player {i:03}", clubs=[club])
            for i in range(n_players)
        ]
        actor = actor_for_user(director)
        with django_capture_on_commit_callbacks(execute=True):
            for winner, loser in zip(players, players[1:] + players[:1], strict=True):
                match = match_create.create_match(
                    actor=actor, club=club, player1=winner, player2=loser, length=3
                )
                score_entry.record_final_score(actor=actor, match_id=match.pk, score=(3, 1))
        return players

    return make


@pytest.mark.parametrize("size", [4, 40])
def test_club_rating_page_costs_the_same_whatever_its_size(
    club, rated_club, size, django_assert_max_num_queries
):
    rated_club(size)
    with django_assert_max_num_queries(5):
        response = Client().get(f"/clubs/{club.slug}/ratings/")
    assert response.status_code == 200
    best = Rating.objects.filter(rating_list__club=club).order_by("-rating").first()
    html = response.content.decode()
    first_row = html[html.index("<tr><td>1</td>") :].split("</tr>")[0]
    assert best.player.display_name in first_row
    assert f"{best.rating:.2f}" in html
    assert html.count("<tr>") == size + 1


@pytest.mark.parametrize("matches", [2, 30])
def test_player_history_page_draws_a_chart_per_list(
    club, director, matches, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    a = club_services.create_player(display_name="Ann", clubs=[club])
    b = club_services.create_player(display_name="Ben", clubs=[club])
    actor = actor_for_user(director)
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(matches):
            winner, loser = (a, b) if i % 3 else (b, a)
            match = match_create.create_match(
                actor=actor, club=club, player1=winner, player2=loser, length=1
            )
            score_entry.record_final_score(actor=actor, match_id=match.pk, score=(1, 0))
    with django_assert_max_num_queries(6):
        response = Client().get(f"/players/{a.slug}/ratings/")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("<svg") == 2  # the club list and the site list
    assert html.count("<circle") == 2 * matches
    assert "Site-wide" in html and club.name in html


def test_club_and_player_pages_link_to_ratings(club, director):
    player = club_services.create_player(display_name="Ann", clubs=[club])
    assert f"/clubs/{club.slug}/ratings/" in Client().get(f"/clubs/{club.slug}/").content.decode()
    page = Client().get(f"/players/{player.slug}/").content.decode()
    assert f"/players/{player.slug}/ratings/" in page


def test_import_results_command(club, tmp_path):
    path = tmp_path / "results.md"
    path.write_text(
        "|Date|Winner|Loser|Length|\n|---|---|---|---|\n|2024-01-02|Ann|Ben|5|\n|2024-01-03|Ben|Cy|3|\n"
    )
    out = StringIO()
    call_command("import_results", str(path), club=club.slug, stdout=out)
    assert "Imported 2 matches" in out.getvalue()
    ratings = {
        r.player.display_name: r.matches_played
        for r in Rating.objects.filter(rating_list__club=club).select_related("player")
    }
    assert ratings == {"Ann": 1, "Ben": 2, "Cy": 1}


def test_import_results_command_reports_lines_and_writes_nothing(club, tmp_path):
    path = tmp_path / "results.csv"
    path.write_text("date,winner,loser,length\n2024-01-02,Ann,Ben,5\n2024-01-03,Ben,Cy,x\n")
    err = StringIO()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_results", str(path), club=club.slug, stderr=err)
    assert f"{path}:3: length 'x'" in err.getvalue()
    assert not Match.objects.exists()


def test_import_results_command_unknown_club(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("date,winner,loser,length\n")
    with pytest.raises(CommandError, match="no club"):
        call_command("import_results", str(path), club="nope")


def test_seed_demo_rates_matches_once(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("seed_demo", stdout=StringIO())
    with django_capture_on_commit_callbacks(execute=True):
        call_command("seed_demo", stdout=StringIO())
    demo = rating_services.club_list(club_services.Club.objects.get(slug="demo"))
    assert Match.objects.filter(label__startswith="Demo rated match").count() == 12
    assert demo.changes.count() == 24
    assert Rating.objects.filter(rating_list=demo).count() == 8
