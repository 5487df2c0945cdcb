"""The chances on a real browser: a 16-player event's standings page shows each
player's chance to win and the leaders' chart, and a result entered meanwhile moves the
chances on the open page within seconds, without a reload (the panel polls)."""

from __future__ import annotations

import pytest

from games.models import Player
from games.services import clubs as club_services
from games.services import score_entry
from games.services.actors import actor_for_user
from tournaments.models import OddsSnapshot, Pairing
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Annabel Fairweather", "Bartholomew Quist", "Cecilia Duarte", "Dmitri Volkov",
    "Eleanor Pike", "Farid Haddad", "Greta Lindqvist", "Hiroshi Tanaka",
    "Imogen Blackwood", "Jasper Okafor", "Katarina Novak", "Leopold Brandt",
    "Marguerite Leclerc", "Nikolai Petrov", "Ottilie Berg", "Percival Moss",
]  # fmt: skip


@pytest.fixture
def event(club, director, settings):
    settings.ODDS_SIMULATIONS = 20_000
    actor = actor_for_user(director)
    tournament = event_services.create_tournament(
        actor=actor,
        club=club,
        name="Sixteen with chances",
        format="single_elimination",
        seeding="manual",
        consolation_from=[1],
        rated=False,  # the declared ratings below stay the players' ratings all evening
    )
    for index, name in enumerate(NAMES):
        player = club_services.create_player(display_name=name, clubs=[club])
        Player.objects.filter(pk=player.pk).update(declared_rating=1800 - 25 * index)
        entry_services.register_entry(actor=actor, tournament_id=tournament.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def finish(event, director, key: str, *, upset: bool) -> None:
    pairing = Pairing.objects.select_related("match", "entry1", "entry2").get(
        tournament=event, key=key
    )
    winner = pairing.entry2 if upset else pairing.entry1
    match = pairing.match
    score = (match.length, 0) if match.player1_id == winner.player_id else (0, match.length)
    score_entry.record_final_score(actor=actor_for_user(director), match_id=match.pk, score=score)


@pytest.mark.parametrize("width", [1366, 360])
def test_standings_show_the_chances_and_follow_a_result(page_for, event, director, width):
    finish(event, director, "main-r1-m1", upset=False)
    page = page_for({"width": width, "height": 900}, name=f"odds-standings-{width}")
    page.goto(f"/tournaments/{event.slug}/standings/")
    panel = page.locator("#odds-live")
    panel.get_by_role("heading", name="Chances to win").wait_for()
    assert page.locator("td.chance").first.inner_text().endswith("%")
    assert panel.locator("svg.odds-bars g").count() >= 8
    assert "after 1 result:" in panel.inner_text()
    before = OddsSnapshot.objects.filter(tournament=event).count()
    page.evaluate("window.__stillHere = true")

    finish(event, director, "main-r1-m2", upset=True)  # the lower seed wins
    assert OddsSnapshot.objects.filter(tournament=event).count() == before + 1
    # the panel polls every 5 s: the new odds replace the old in place, no reload
    page.locator("#odds-live", has_text="after 2 results:").wait_for(timeout=12_000)
    assert page.evaluate("window.__stillHere") is True
    assert page.locator("#odds-live figure.odds-chart svg polyline").count() >= 3
    if width == 1366:
        odds_page = page_for({"width": width, "height": 900}, name="odds-page-1366")
        odds_page.goto(f"/tournaments/{event.slug}/odds/")
        odds_page.locator("table.odds-table").wait_for()
        assert odds_page.locator("table.odds-table tbody tr").count() == 16
