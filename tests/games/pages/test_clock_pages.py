"""The clock page (who may run it, who only watches) and the remaining time on the
score sheet."""

from __future__ import annotations

import pytest
from django.test import Client

from games import score_links
from games.rules.clock import Preset
from games.services import clocks as clock_services
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db


def _page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_a_player_gets_the_start_form(match, alice_user):
    client = Client()
    client.force_login(alice_user)
    html = _page(client, f"/matches/{match.pk}/clock/")
    assert 'data-can-run="1"' in html
    assert "Start the clock" in html


def test_a_visitor_only_watches(match):
    html = _page(Client(), f"/matches/{match.pk}/clock/")
    assert 'data-can-run="0"' in html
    assert "Start the clock" not in html


def test_the_score_link_runs_the_clock_with_its_link(match, alice):
    token = score_links.make_token(match, alice)
    html = _page(Client(), f"/score/{token}/clock/")
    assert 'data-can-run="1"' in html
    assert f'data-link="{token}"' in html


def test_a_bad_link_is_refused(match):
    assert Client().get("/score/not-a-token/clock/").status_code == 403


def test_the_score_sheet_shows_the_time_left_and_the_flag(
    match, director, alice_user, server_clock
):
    actor = actor_for_user(alice_user)
    clock_services.start_clock(
        actor=actor,
        match_id=match.pk,
        request=clock_services.ClockRequest(preset=Preset.CUSTOM, delay_ms=1000, reserve_ms=2000),
    )
    clock_services.report_turn(actor=actor, match_id=match.pk, seq=1, side=1, used_ms=0)
    server_clock.advance(3000)
    clock_services.report_flag(actor=actor, match_id=match.pk, seq=2, side=0, used_ms=3000)
    html = _page(Client(), f"/matches/{match.pk}/")
    assert "Alice 0:00 left, Bob 0:02 left" in html
    assert "Alice lost on time" in html
