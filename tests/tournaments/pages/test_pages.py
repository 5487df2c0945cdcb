"""Tournament pages: bracket SVG with a player's path, standings, big screen, director."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.conftest import pairing
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def test_bracket_page_draws_every_stage_and_highlights_a_players_path(make_event, win):
    event = make_event(6, consolation_from=[1])
    win(event, "main-r1-m3", 3)  # seed 3 beats seed 6
    seed3 = pairing(event, "main-r1-m3").entry1
    response = Client().get(f"/tournaments/{event.slug}/bracket/?player={seed3.pk}")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("<svg") == 2  # main and consolation
    assert html.count("slot st-") == len(event.pairings.all())
    assert html.count(" path") >= 2  # seed 3's round-1 box and the box it advanced to
    assert "bye" in html


def test_swiss_rounds_and_standings_pages(make_event, win):
    event = make_event(5, format="swiss", swiss_rounds=2)
    p = pairing(event, "swiss-r1-b1")
    win(event, p.key, p.entry1.seed)
    rounds = Client().get(f"/tournaments/{event.slug}/bracket/").content.decode()
    assert "Round 1" in rounds and "<em>bye</em>" in rounds
    standings = Client().get(f"/tournaments/{event.slug}/standings/").content.decode()
    assert "Buchholz" in standings and p.entry1.player.display_name in standings


def test_big_screen_refreshes_itself(make_event):
    event = make_event(4)
    html = Client().get(f"/tournaments/{event.slug}/screen/").content.decode()
    assert "Playing now" in html
    assert f'hx-get="/tournaments/{event.slug}/screen/live/?v=' in html  # in place, by htmx
    assert '<noscript><meta http-equiv="refresh"' in html  # a reload without JavaScript


@pytest.mark.parametrize("size", [8, 64])
def test_pages_cost_a_fixed_number_of_queries(make_event, size, django_assert_max_num_queries):
    event = make_event(size, consolation_from=[1])
    client = Client()
    for page in ("bracket", "standings", "screen", "screen/live"):
        # 12, plus one: the club's time zone the page is shown in (core/club_zones.py)
        with django_assert_max_num_queries(13):
            assert client.get(f"/tournaments/{event.slug}/{page}/").status_code == 200


def test_director_runs_an_evening_from_the_dashboard(
    browser, club, django_capture_on_commit_callbacks
):
    from games.services import clubs as club_services

    response = browser.post(
        f"/tournaments/new/{club.slug}/",
        {"name": "Tuesday Swiss", "format": "swiss", "swiss_rounds": 2, "length": 3},
    )
    event = Tournament.objects.get(name="Tuesday Swiss")
    assert response.status_code == 302
    base = f"/tournaments/{event.slug}/director/"
    for i in range(4):
        player = club_services.create_player(display_name=f"D{i}", clubs=[club])
        browser.post(f"{base}register/", {"player": player.pk})
    assert event.entries.count() == 4
    browser.post(f"{base}start/")
    event.refresh_from_db()
    assert event.status == "running" and event.pairings.count() == 2
    for p in event.pairings.select_related("entry1"):
        browser.post(f"{base}forfeit/", {"pairing": p.key, "winner": p.entry1_id, "confirm": "1"})
    with django_capture_on_commit_callbacks(execute=True):
        browser.post(f"{base}next-round/")
    assert event.pairings.count() == 4
    page = browser.get(base).content.decode()
    assert "succeeded" in page and "Ready to play" in page
    for p in event.pairings.filter(status="ready").select_related("entry1"):
        browser.post(f"{base}forfeit/", {"pairing": p.key, "winner": p.entry1_id, "confirm": "1"})
    response = browser.post(f"{base}finish/", {"confirm": "1"}, follow=True)
    event.refresh_from_db()
    assert event.status == "finished", response.content.decode()[:500]


def test_director_errors_come_back_as_messages(browser, make_event):
    event = make_event(4)
    response = browser.post(f"/tournaments/{event.slug}/director/start/", follow=True)
    assert "Cannot start" in response.content.decode()


def test_only_directors_see_the_dashboard(make_event, make_user):
    event = make_event(4)
    client = Client()
    client.force_login(make_user("visitor"))
    assert client.get(f"/tournaments/{event.slug}/director/").status_code == 404


def test_club_page_links_running_events(make_event, club):
    event = make_event(4, name="Open Night")
    html = Client().get(f"/clubs/{club.slug}/").content.decode()
    assert event.get_absolute_url() in html and "Open Night" in html
