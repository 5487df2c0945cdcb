"""The big screen shows each live match's winning chances, refreshed with the score."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.met_tables import load_table
from games.services import score_entry
from games.services.match_records import GameInput
from games.templatetags.chances_tags import percent_text
from tests.tournaments.conftest import pairing

pytestmark = pytest.mark.django_db


def _row_of(html: str, name: str) -> str:
    rows = re.findall(r"<tr>.*?</tr>", html, re.S)
    return next(r for r in rows if f'<td class="name">{name}</td>' in r)


def test_every_match_in_play_shows_its_chances_and_a_game_moves_them(make_event, actor):
    event = make_event(8)
    client = Client()
    page = client.get(f"/tournaments/{event.slug}/screen/").content.decode()
    assert page.count('class="chances-mini"') == 4  # four first-round matches
    match = pairing(event, "main-r1-m1").match
    first = match.player1.display_name
    assert "50%" in _row_of(page, first)  # unrated, equal: even before the first game
    score_entry.record_game(
        actor=actor, match_id=match.pk, game=GameInput(winner_id=match.player1_id)
    )
    live = client.get(f"/tournaments/{event.slug}/screen/live/").content.decode()
    row = _row_of(live, first)
    table = load_table("Kazaross-XG2")
    away = match.length - 1
    p1 = table.win_chance(away, match.length)
    assert f'<span class="pct">{percent_text(p1)}</span>' in row
    assert f'<span class="pct right-pct">{percent_text(1 - p1)}</span>' in row
