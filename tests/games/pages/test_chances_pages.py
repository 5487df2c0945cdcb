"""Winning chances on the pages (docs/chances.md): the score sheet, the phone entry page
("you are 64% to win from 3-1"), the polled live head, and their bar."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.met_tables import load_table
from games.rules.fibs import win_probabilities
from games.templatetags.chances_tags import percent_text
from tests.factories import RatingFactory, RatingListFactory

pytestmark = pytest.mark.django_db


def _game(client, match, winner, number, level="single"):
    return client.post(
        f"/matches/{match.pk}/enter/",
        {
            "action": "game",
            "number": number,
            "winner": winner.pk,
            "level": level,
            "cube": 1,
            "cube_owner": "centre",
            "ending": "played",
        },
    )


def _words(html: str) -> str:
    found = re.search(r'<p class="chances-words">(.*?)</p>', html, re.S)
    assert found, "no chances sentence on the page"
    return re.sub(r"<[^>]+>", "", found.group(1))


def _bar_width(html: str) -> float:
    return float(re.search(r'<rect class="left" x="0" y="0" width="([0-9.]+)"', html).group(1))


def test_the_score_sheet_shows_the_pre_match_chance_from_the_ratings(club, make_match, alice, bob):
    rating_list = RatingListFactory.create(club=club)
    RatingFactory.create(rating_list=rating_list, player=alice, rating=1650.0)
    RatingFactory.create(rating_list=rating_list, player=bob, rating=1500.0)
    match = make_match(7)
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    p_alice, p_bob = win_probabilities(1650.0, 1500.0, 7)
    assert _words(html) == (
        f"Alice {percent_text(p_alice)} · Bob {percent_text(p_bob)} to win this 7-point match."
    )
    assert _bar_width(html) == pytest.approx(100 * p_alice, abs=0.01)
    assert "ratings 1650 v 1500" in html


def test_the_phone_entry_page_says_your_chance_after_each_game(
    client, alice_user, bob_user, match, alice, bob
):
    table = load_table("Kazaross-XG2")
    client.force_login(alice_user)
    assert _game(client, match, alice, 1, level="gammon").status_code == 302  # 2-0 of 5
    mine = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert _words(mine) == f"You are {percent_text(table.win_chance(3, 5))} to win from 2–0."
    assert _game(client, match, bob, 2).status_code == 302  # 2-1
    mine = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert _words(mine) == f"You are {percent_text(table.win_chance(3, 4))} to win from 2–1."
    theirs = Client()
    theirs.force_login(bob_user)
    page = theirs.get(f"/matches/{match.pk}/enter/").content.decode()
    assert _words(page) == f"You are {percent_text(table.win_chance(4, 3))} to win from 1–2."
    assert _bar_width(page) == pytest.approx(100 * table.win_chance(4, 3), abs=0.01)


def test_the_match_page_reloads_itself_within_seconds_of_a_result(
    client, director, alice_user, match, alice
):
    anyone = Client()
    page = anyone.get(f"/matches/{match.pk}/").content.decode()
    assert f'hx-get="/matches/{match.pk}/live/?v={match.version}"' in page
    assert 'hx-trigger="sse:changed, live:poll"' in page  # a notice, or a poll when offline
    live = f"/matches/{match.pk}/live/"
    unchanged = anyone.get(live, {"v": match.version})
    assert unchanged.status_code == 204 and "HX-Refresh" not in unchanged
    client.force_login(alice_user)
    _game(client, match, alice, 1)
    behind = anyone.get(live, {"v": match.version})
    assert behind.status_code == 200 and behind["HX-Refresh"] == "true"
    html = anyone.get(f"/matches/{match.pk}/").content.decode()  # what the reload shows
    expected = load_table("Kazaross-XG2").win_chance(4, 5)
    assert _words(html) == (
        f"Alice {percent_text(expected)} · Bob {percent_text(1 - expected)} to win from 1–0."
    )
    assert anyone.get("/matches/999999/live/").status_code == 404
    # A director's page does not poll: a reload would lose a correction being typed.
    client.force_login(director)
    assert "hx-trigger" not in client.get(f"/matches/{match.pk}/").content.decode()


def test_a_finished_match_shows_no_chances_and_stops_polling(client, alice_user, make_match, alice):
    match = make_match(1)
    client.force_login(alice_user)
    _game(client, match, alice, 1)
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "chances-words" not in html
    assert "hx-trigger" not in html


def test_an_unlimited_session_shows_no_chances(make_match):
    session = make_match(0)
    assert "chances-words" not in Client().get(f"/matches/{session.pk}/").content.decode()
