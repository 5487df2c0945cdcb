"""Pages for issue 13: places on the standings page, the winner on the overview, and the
director's dashboard at the end of a Swiss."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.conftest import play_out
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def test_standings_page_and_overview_show_places_and_the_winner(make_event, win, actor):
    event = make_event(8, consolation_from=[1])
    play_out(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    client = Client()
    page = client.get(f"/tournaments/{event.slug}/standings/").content.decode()
    assert "Winner: P01" in page
    assert '<th scope="col">Place</th>' in page
    # P05 won the consolation with two wins; P03 and P04 lost semi-finals with one
    assert page.index("P03") < page.index("P05") and page.index("P04") < page.index("P05")
    assert "Consolation 1" in page and "3–4" in page
    assert "Ranked by finishing place" in page
    overview = client.get(f"/tournaments/{event.slug}/").content.decode()
    assert "Winner: P01" in overview
    assert "Consolation 1" in overview and "P05" in overview


def test_an_unfinished_event_overview_names_no_winner(make_event, win):
    event = make_event(4)
    play_out(event, win)  # the final is played but the director has not finished it
    overview = Client().get(f"/tournaments/{event.slug}/").content.decode()
    assert "Winner:" not in overview


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def test_swiss_dashboard_offers_the_next_round_only_while_one_is_due(
    make_event, win, browser, django_capture_on_commit_callbacks
):
    event = make_event(4, format="swiss", swiss_rounds=2)
    base = f"/tournaments/{event.slug}/director/"
    page = browser.get(base).content.decode()
    assert "Pair the next round" in page
    play_out(event, win)
    with django_capture_on_commit_callbacks(execute=True):
        browser.post(f"{base}next-round/")
    assert event.pairings.count() == 4  # round 2, the last, is paired
    page = browser.get(base).content.decode()
    assert "Pair the next round" not in page
    assert "Every round is paired" in page and "Finish the event" in page
