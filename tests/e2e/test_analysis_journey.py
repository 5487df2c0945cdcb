"""Issue 17's "done when": a director imports a club league's ``.mat`` through the club's
import page and, a few seconds later, the match page shows both players' PR and their
worst moves drawn; the player's PR history and the event's "Best played" table follow.

Celery runs eagerly here, so the analysis runs when the import commits; the club
analyses at 0-ply to keep the journey short (2-ply costs seconds of CPU per match)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.defaultfilters import floatformat

from analysis import services as analysis_services
from analysis.models import MatchAnalysis, PlayerAnalysis
from games.models import Match
from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tournaments.models import Pairing
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

from .conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GALAXY = Path(__file__).resolve().parents[2] / "data" / "mat" / "galaxy" / "Llabba_match1280660.mat"


def test_a_director_imports_a_mat_and_sees_both_prs_and_the_worst_moves(
    page_for, login, club, director
):
    analysis_services.update_settings(user=director, club=club, automatic=True, plies=0)
    actor = actor_for_user(director)
    llabba = club_services.create_player(display_name="llabba", clubs=[club])
    plato = club_services.create_player(display_name="platopatax", clubs=[club])
    league = event_services.create_tournament(
        actor=actor,
        club=club,
        name="Online league",
        format="single_elimination",
        seeding="manual",
        match_lengths={"default": 5},
    )
    for player in (llabba, plato):
        entry_services.register_entry(actor=actor, tournament_id=league.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=league.pk)

    pictures = ARTIFACTS / "analysis"
    pictures.mkdir(parents=True, exist_ok=True)
    phone = page_for({"width": 360, "height": 740}, name="analysis-import-360")
    login(phone, "director")
    phone.goto(f"/clubs/{club.slug}/import/")
    phone.screenshot(path=str(pictures / "import-360.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll

    page = page_for({"width": 1366, "height": 900}, name="analysis-journey")
    login(page, "director")
    page.goto(f"/clubs/{club.slug}/")
    page.get_by_role("link", name="Import a transcript").click()
    page.screenshot(path=str(pictures / "import-1366.png"), full_page=True)
    page.get_by_label("Transcript (.mat)").set_input_files(str(GALAXY))
    page.get_by_role("button", name="Import").click()

    # the match page: imported, analysed, both PRs and the worst decisions drawn
    page.get_by_text(f"{GALAXY.name} imported.").wait_for()
    match = Match.objects.exclude(transcript="").get(club=club)
    assert page.url.endswith(f"/matches/{match.pk}/")
    summary = page.locator("section.analysis-summary")
    summary.wait_for()
    page.screenshot(path=str(pictures / "match-1366.png"), full_page=True)
    figures = {
        p.player.display_name: p for p in PlayerAnalysis.objects.filter(analysis__match=match)
    }
    assert MatchAnalysis.objects.get(match=match).plies == 0
    for name, p in figures.items():
        assert f"{name}: PR {floatformat(p.pr, 2)}" in summary.inner_text()
    boards = summary.locator("figure.decision svg")
    assert boards.count() >= 2
    assert boards.first.locator("circle").count() >= 30  # the checkers are drawn

    # every error, drawn, on the analysis page
    summary.get_by_role("link", name="Every error, drawn").click()
    page.wait_for_url(f"**/matches/{match.pk}/analysis/")
    assert page.locator("svg").count() >= 2

    # the player's PR history: one dot, this match
    page.goto(f"/players/{llabba.slug}/")
    chart = page.locator("svg.pr-chart")
    chart.wait_for()
    assert chart.locator("circle").count() == 1

    # the event's "Best played" table, once the league's pairing is this match (the
    # pairing the import played: the league's one slot of these two players)
    pairing = Pairing.objects.get(tournament=league, match__isnull=False)
    pairing.match = match
    pairing.save(update_fields=["match"])
    page.goto(f"/tournaments/{league.slug}/")
    table = page.locator("section.best-played")
    table.wait_for()
    ranked = sorted(figures.values(), key=lambda p: p.pr)
    text = table.inner_text()
    assert text.index(ranked[0].player.display_name) < text.index(ranked[1].player.display_name)
