"""The analysis pages: the match's analysis with boards, the match page's summary, the
player's PR history, the club's PR list."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.defaultfilters import floatformat

from analysis import engine, services
from analysis.board_svg import board_svg
from analysis.models import Decision, PlayerAnalysis
from games.models import Match
from games.rules.board import Position
from games.services.actors import actor_for_user
from games.services.transcripts import import_transcript

pytestmark = pytest.mark.django_db

GALAXY = Path(__file__).resolve().parents[3] / "data" / "mat" / "galaxy" / "Llabba_match1280660.mat"


@pytest.fixture
def analysed(club, director) -> Match:
    services.update_settings(user=director, club=club, automatic=False, plies=0)
    outcome = import_transcript(
        actor=actor_for_user(director), club=club, text=GALAXY.read_text(), name=GALAXY.name
    )
    match = Match.objects.get(pk=outcome.match_id)
    services.analyse_match(match_id=match.pk, plies=0)
    return match


def test_the_analysis_page_shows_both_prs_and_draws_the_worst_decisions(client, analysed):
    html = client.get(f"/matches/{analysed.pk}/analysis/").content.decode()
    for pa in PlayerAnalysis.objects.filter(analysis__match=analysed):
        assert floatformat(pa.pr, 2) in html
        assert pa.player.display_name in html
    worst = Decision.objects.filter(analysis__match=analysed, counted=True, loss__gt=0)
    shown = min(worst.count(), 20)
    assert html.count('class="decision-board"') == shown
    top = worst.order_by("-loss").first()
    assert floatformat(top.loss, 3) in html and top.position_id in html


def test_the_match_page_shows_the_summary_with_boards(client, analysed):
    html = client.get(f"/matches/{analysed.pk}/").content.decode()
    assert "Analysis" in html and html.count('class="decision-board"') == 3
    assert f"/matches/{analysed.pk}/analysis/" in html


def test_the_board_has_every_checker_and_the_dice():
    pos = Position.start(0)
    svg = board_svg(pos.me, pos.opp, dice="53", played="8/3 6/3", best="8/3 6/3")
    assert svg.count("<circle") == 30
    assert len(re.findall(r"<line [^>]*ah-red", svg)) == 2
    assert ">5</text>" in svg and ">3</text>" in svg


def test_the_board_drawn_from_a_stored_position_id_is_that_position(analysed):
    d = Decision.objects.filter(analysis__match=analysed, kind="checker").first()
    me, opp = engine.board_from_id(d.position_id)
    assert engine.position_id(me, opp) == d.position_id
    assert sum(me[1:]) + me[0] == 15 and sum(opp) == 15


def test_player_pr_history_and_club_list(client, analysed, club, director):
    pa = PlayerAnalysis.objects.filter(analysis__match=analysed).order_by("side").first()
    html = client.get(f"/players/{pa.player.slug}/pr/").content.decode()
    assert 'class="rating-chart pr-chart"' in html and floatformat(pa.pr, 2) in html
    services.update_settings(user=director, club=club, min_decisions=1)
    html = client.get(f"/clubs/{club.slug}/pr/").content.decode()
    assert html.count("<tr>") == 1 + 2  # head + both players
    services.update_settings(user=director, club=club, min_decisions=10_000)
    html = client.get(f"/clubs/{club.slug}/pr/").content.decode()
    assert "No analysed matches yet" in html


def test_the_player_page_draws_the_pr_chart(client, analysed):
    pa = PlayerAnalysis.objects.filter(analysis__match=analysed).first()
    html = client.get(f"/players/{pa.player.slug}/").content.decode()
    assert html.count('class="rating-chart pr-chart"') == 1
    assert html.count("<circle") == 1  # one analysed match, one dot


def test_the_best_played_table_ranks_by_pr(analysed):
    """The tag an event's page renders over its matches: lowest PR first."""
    from django.template import Context, Template

    html = Template("{% load analysis_tags %}{% pr_table ids %}").render(
        Context({"ids": [analysed.pk]})
    )
    rows = PlayerAnalysis.objects.filter(analysis__match=analysed).order_by("pr")
    better, worse = (r.player.display_name for r in rows)
    assert html.index(f"<td>{better}</td>") < html.index(f"<td>{worse}</td>"), html
