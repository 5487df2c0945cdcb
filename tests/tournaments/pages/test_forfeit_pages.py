"""Forfeits as directors expect (issue #27 item 9): a no-show's forfeit in the main puts
the forfeiting player out (no consolation match for them) unless the event says so, and
the standings say who forfeited and who won by forfeit. Through the dashboard's pages."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import MatchStatus
from tests.tournaments.conftest import pairing
from tournaments.models import PairingStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def _forfeit(browser, event, key: str, winner_entry_id: int):
    response = browser.post(
        f"/tournaments/{event.slug}/director/forfeit/",
        {"pairing": key, "winner": winner_entry_id, "confirm": "1"},
        follow=True,
    )
    assert response.status_code == 200
    return response


def test_a_main_forfeit_puts_the_no_show_out_of_the_consolation(make_event, browser, win):
    event = make_event(4, consolation_from=[1])
    first = pairing(event, "main-r1-m1")
    no_show, present = first.entry2, first.entry1
    _forfeit(browser, event, first.key, present.pk)
    win(event, "main-r1-m2", 2)  # seed 3 loses and drops into the consolation
    consolation = pairing(event, "consolation-r1-m1")
    # no match for the no-show: the other loser goes through by walkover
    assert consolation.match is None and consolation.forfeit
    assert consolation.winner.seed == 3
    assert no_show.pk in (consolation.entry1_id, consolation.entry2_id)
    assert not event.pairings.filter(round__stage__kind="consolation", match__isnull=False).exists()
    html = browser.get(f"/tournaments/{event.slug}/standings/").content.decode()
    row_of = {
        name: html.split(f">{name}<", 1)[1].split("</tr>", 1)[0]
        for name in (no_show.player.display_name, present.player.display_name)
    }
    assert "forfeited" in row_of[no_show.player.display_name]
    assert "won by forfeit" not in row_of[no_show.player.display_name]
    assert "won by forfeit" in row_of[present.player.display_name]
    assert "forfeited" not in row_of[present.player.display_name]


def test_the_option_feeds_the_forfeiting_player_into_the_consolation(make_event, browser, win):
    event = make_event(4, consolation_from=[1], forfeit_feeds_consolation=True)
    first = pairing(event, "main-r1-m1")
    _forfeit(browser, event, first.key, first.entry1_id)
    win(event, "main-r1-m2", 2)
    consolation = pairing(event, "consolation-r1-m1")
    assert consolation.status == PairingStatus.READY and not consolation.forfeit
    assert consolation.match is not None and consolation.match.status == MatchStatus.SCHEDULED
    assert first.entry2_id in (consolation.entry1_id, consolation.entry2_id)


def test_a_forfeit_after_the_other_loser_waits_is_a_walkover_too(make_event, browser, win):
    """The consolation slot already holds the other loser: the forfeit settles it at once."""
    event = make_event(4, consolation_from=[1])
    win(event, "main-r1-m2", 2)
    second_first = pairing(event, "main-r1-m1")
    _forfeit(browser, event, second_first.key, second_first.entry1_id)
    consolation = pairing(event, "consolation-r1-m1")
    assert consolation.match is None and consolation.winner.seed == 3


def test_the_new_event_page_offers_the_option_off_by_default(browser, club):
    html = browser.get(f"/tournaments/new/{club.slug}/").content.decode()
    assert 'name="forfeit_feeds_consolation"' in html
    field = html.split('name="forfeit_feeds_consolation"', 1)[0].rsplit("<input", 1)[1]
    assert "checked" not in field
