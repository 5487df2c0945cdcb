"""The director dashboard of a new event: it renders (it once crashed on the drop-map
preview, found by a browser journey), and an empty draft says what to do first (issue
41: it read "No preview yet: Feeding rounds must be between 1 and 1." under a primary
"Start" before anyone had entered)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tournaments.models import Tournament
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

START = "Start: draw the bracket / pair round 1"


def _new_cup(browser, club) -> str:
    created = browser.post(
        f"/tournaments/new/{club.slug}/",
        {"name": "Cup", "format": "single_elimination", "consolation_from": "1, 2", "length": 3},
    )
    assert created.status_code == 302
    return created["Location"]


def test_an_empty_draft_says_add_players_first_and_offers_no_start(club, director):
    browser = Client()
    browser.force_login(director)
    page = browser.get(_new_cup(browser, club))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-role="add-players"' in html and "Add players first:" in html
    assert "No preview yet" not in html and "Feeding rounds" not in html
    assert START not in html


def test_once_two_are_entered_start_is_the_main_button(club, director):
    browser = Client()
    browser.force_login(director)
    url = _new_cup(browser, club)
    cup = Tournament.objects.get(name="Cup")
    for name in ("Ann One", "Ben Two"):
        player = club_services.create_player(display_name=name, clubs=[club])
        entry_services.register_entry(
            actor=actor_for_user(director), tournament_id=cup.pk, player_id=player.pk
        )
    html = browser.get(url).content.decode()
    assert f'<button class="primary">{START}</button>' in html
    assert 'data-role="add-players"' not in html
    # two players are too few for consolation rounds 1 and 2: said, no crash
    assert "No preview yet" in html
