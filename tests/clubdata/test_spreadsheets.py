"""The club's matches and rating history as CSV, from the API and the club's pages:
one line per match or change, names that look like formulas written as text."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubdata.spreadsheets import RATING_COLUMNS
from games.models import Player, RatingChange
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("http://evil/")'


@pytest.fixture
def rated_club(club, director, django_capture_on_commit_callbacks):
    actor = actor_for_user(director)
    evil = club_services.create_player(display_name="Eve", clubs=[club])
    Player.objects.filter(pk=evil.pk).update(display_name=EVIL)
    other = club_services.create_player(display_name="Olaf", clubs=[club])
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create.create_match(
            actor=actor, club=club, player1=evil, player2=other, length=5
        )
        score_entry.record_final_score(actor=actor, match_id=match.pk, score=(5, 2))
    return club


def rows(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"] == "text/csv"
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


@pytest.mark.parametrize("door", ["/api/v1/clubs/{slug}/matches.csv", "/clubs/{slug}/matches.csv"])
def test_the_matches_csv_has_a_line_per_match_and_no_formula(rated_club, door):
    table = rows(APIClient().get(door.format(slug=rated_club.slug)))
    assert table[0][:6] == [
        "finished_at (UTC)",
        "played_on",
        "event",
        "round",
        "player1",
        "player2",
    ]
    assert len(table) == 2
    line = dict(zip(table[0], table[1], strict=True))
    assert line["player1"] == "'" + EVIL and line["player2"] == "Olaf"
    assert (line["length"], line["score1"], line["score2"]) == ("5", "5", "2")
    assert line["winner"] == "'" + EVIL and line["status"] == "finished"


@pytest.mark.parametrize(
    "door", ["/api/v1/clubs/{slug}/rating-history.csv", "/clubs/{slug}/rating-history.csv"]
)
def test_the_rating_history_csv_has_a_line_per_change(rated_club, door):
    assert RatingChange.objects.filter(rating_list__club=rated_club).count() == 2
    table = rows(Client().get(door.format(slug=rated_club.slug)))
    assert table[0] == ["at (UTC)", *RATING_COLUMNS[1:]]
    by_player = {line[1]: line for line in table[1:]}
    assert by_player["'" + EVIL][3] == "yes" and by_player["Olaf"][3] == "no"
    assert float(by_player["'" + EVIL][7]) > 0 > float(by_player["Olaf"][7])
    assert by_player["Olaf"][7].startswith("-")  # a negative number stays a number
