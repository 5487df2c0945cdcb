"""Disputes in an event: the dashboard lists the open ones with a count, the bracket
flags the disputed match and the match it fed, and the list is one query however many."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.selectors import open_disputes
from games.services import match_disputes, score_entry
from games.services.actors import actor_for_score_link
from tests.tournaments.conftest import pairing
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def _dispute(event, key: str, reason: str = "He moved my checkers."):
    """The lower seed enters a win by score link; the opponent disputes it."""
    p = pairing(event, key)
    match = p.match
    winner = match.player1 if match.player1_id == p.entry1.player_id else match.player2
    loser = match.player2 if winner.pk == match.player1_id else match.player1
    score = (match.length, 0) if winner.pk == match.player1_id else (0, match.length)
    score_entry.record_final_score(
        actor=actor_for_score_link(winner), match_id=match.pk, score=score
    )
    match_disputes.dispute_match(
        actor=actor_for_score_link(loser), match_id=match.pk, reason=reason
    )
    return match


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def test_dashboard_lists_open_disputes_with_a_count(make_event, browser, make_match):
    event = make_event(8)
    first = _dispute(event, "main-r1-m1", "He moved my checkers.")
    second = _dispute(event, "main-r1-m2", "The cube was at 4, not 2.")
    make_match(3)  # a club match outside the event: not on the event's dashboard
    html = browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert "Open disputes (2)" in html
    assert "He moved my checkers." in html and "The cube was at 4, not 2." in html
    assert f'href="/matches/{first.pk}/#dispute"' in html
    assert f'href="/matches/{second.pk}/#dispute"' in html
    # above the registration section
    assert html.index("Open disputes") < html.index("<h2>Registration</h2>")


def test_no_section_without_open_disputes(make_event, browser):
    event = make_event(4)
    assert (
        "Open disputes" not in browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    )


def test_bracket_flags_the_disputed_match_and_the_match_it_fed(make_event):
    event = make_event(4)
    disputed = _dispute(event, "main-r1-m1")
    html = Client().get(f"/tournaments/{event.slug}/bracket/").content.decode()
    boxes = re.findall(r'<a href="/matches/(\d+)/"><g class="slot ([^"]*)"', html)
    flagged = [int(pk) for pk, classes in boxes if "disputed" in classes.split()]
    assert flagged == [disputed.pk]
    assert "(disputed: the result may change)</title>" in html
    # the final the winner went on to (no match of its own yet: the other semi is open)
    fed = re.findall(r'<g class="slot ([^"]*)"[^>]*>\s*<title>([^<]*)</title>', html)
    titles = [t for c, t in fed if "fed-disputed" in c.split()]
    assert len(titles) == 1
    assert titles[0].startswith("main-r2-m1") and titles[0].endswith("(fed by a disputed result)")
    assert 'aria-label="fed by a disputed result">⚑</text>' in html


def test_the_brackets_flags_and_byes_read_in_german(make_event):
    """The boxes' words were English strings of the layout ("bye", "disputed: the result
    may change") on every page; they are the page's language now."""
    event = make_event(6)  # two byes in round 1
    _dispute(event, "main-r1-m2")
    html = Client().get(f"/tournaments/{event.slug}/bracket/", HTTP_ACCEPT_LANGUAGE="de")
    page = html.content.decode()
    titles = re.findall(r"<title>([^<]*)</title>", page)
    assert any("(angefochten: Das Ergebnis kann sich noch ändern)" in t for t in titles)
    assert any("Freilos" in t for t in titles)
    assert not any("bye" in t or "disputed" in t for t in titles)
    assert re.search(r'class="lbl"[^>]*>angefochten</text>', page)


def test_a_resolved_dispute_is_no_longer_flagged(make_event, actor):
    event = make_event(4)
    match = _dispute(event, "main-r1-m1")
    match_disputes.resolve_dispute(actor=actor, match_id=match.pk, resolution="Checked.")
    html = Client().get(f"/tournaments/{event.slug}/bracket/").content.decode()
    classes = re.findall(r'<g class="slot ([^"]*)"', html)
    assert classes and not [c for c in classes if {"disputed", "fed-disputed"} & set(c.split())]


@pytest.mark.parametrize("disputes", [1, 4])
def test_open_disputes_cost_one_query(make_event, club, disputes, django_assert_num_queries):
    event = make_event(8)
    for m in range(1, disputes + 1):
        _dispute(event, f"main-r1-m{m}")
    in_event = Pairing.objects.filter(tournament=event).values("match_id")
    for scope in ({"club": club}, {"match_ids": in_event}):
        with django_assert_num_queries(1):
            rows = open_disputes(**scope)
            shown = [
                (
                    d.match.player1.display_name,
                    d.match.player2.display_name,
                    d.raised_by.display_name,
                )
                for d in rows
            ] + [d.match.club.name for d in rows]
        assert len(rows) == disputes and all(shown)
