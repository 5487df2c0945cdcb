"""Names the code builds, and numbers, in the reader's language (issue #41, items 4 and 9).

A German club saw "Main, round 2, match 1", "Round 1 · 9 pts", "Quarter-finals" and
"50,000 simulated events (±0.4)" on German pages, and the big screen lost its layout
because its body class went through the catalog (``class="Bildschirm"``). Labels are
built from the slot's key when a page is drawn, so each reader gets their own language;
the same bracket read in English right after still reads English.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from tests.tournaments.conftest import pairing
from tournaments.models import OddsSnapshot

pytestmark = pytest.mark.django_db


def page(path: str, language: str) -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_the_big_screen_keeps_its_body_class_in_every_language(make_event):
    event = make_event(8)
    for language in ("en", "de", "fr", "da"):
        html = page(f"/tournaments/{event.slug}/screen/", language)
        assert re.search(r'<body class="screen"', html), language


def test_bracket_headings_read_german_for_a_german_reader_and_english_after(make_event):
    event = make_event(16, consolation_from=[1])
    german = page(f"/tournaments/{event.slug}/bracket/", "de")
    assert "Viertelfinale · " in german and "Pkt." in german
    assert "Trostrunde" in german
    assert "Quarter-finals" not in german and " pts" not in german
    english = page(f"/tournaments/{event.slug}/bracket/", "en")
    assert "Quarter-finals · " in english and " pts" in english


def test_match_labels_on_the_director_dashboard_and_big_screen_are_german(
    make_event, director, win
):
    event = make_event(16, consolation_from=[1])
    win(event, "main-r1-m1", 1)
    win(event, "main-r1-m2", 8)
    assert pairing(event, "consolation-r1-m1").match is not None
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(director)
    html = client.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert "Hauptrunde, Runde 1, Match 3" in html
    assert "Trostrunde, Runde 1, Match 1" in html
    assert "Main, round" not in html and "Consolation, round" not in html
    screen = page(f"/tournaments/{event.slug}/screen/", "de")
    assert "Hauptrunde, Runde 1, Match 3" in screen


def test_the_odds_sentence_groups_and_marks_decimals_as_the_language_does(make_event):
    event = make_event(8)
    OddsSnapshot.objects.filter(tournament=event).delete()
    entries = list(event.entries.order_by("seed"))
    share = 1 / len(entries)
    OddsSnapshot.objects.create(
        tournament=event,
        computed_at=timezone.now(),
        version=event.version,
        method="simulation",
        simulations=50000,
        standard_error=0.002,
        results=0,
        places=[{"label": "1", "size": 1}],
        entries={str(e.pk): {"win": share, "final": 2 * share, "places": [share]} for e in entries},
    )
    assert "50,000 simulated events" in page(f"/tournaments/{event.slug}/odds/", "en")
    assert "±0.4 points" in page(f"/tournaments/{event.slug}/odds/", "en")
    german = page(f"/tournaments/{event.slug}/odds/", "de")
    assert "50.000" in german and "±0,4" in german and "50,000" not in german
    french = page(f"/tournaments/{event.slug}/odds/", "fr")
    assert "50\u00a0000" in french and "±0,4" in french


def test_the_prize_order_reads_in_the_readers_language(make_event, win):
    """The standings' sentence took the prize order in English words ("main places,
    consolation 1–2, ..., then the other places") inside its German sentence."""
    event = make_event(4, consolation_from=[1])
    for key, seed in (("main-r1-m1", 1), ("main-r1-m2", 2)):
        win(event, key, seed)
    german = page(f"/tournaments/{event.slug}/standings/", "de")
    english = page(f"/tournaments/{event.slug}/standings/", "en")
    assert "main places, consolation 1–2" in english
    assert "alle Plätze der Hauptrunde, Trostrunde 1–2" in german
    assert "dann die übrigen Plätze" in german
    assert "main places" not in german and "then the other places" not in german


def test_a_match_a_result_makes_keeps_its_label_in_the_clubs_language(make_event, win):
    """A match's label is stored (the match page's title): a bracket match made by a
    result is labelled in the club's language, as a paired round's is, not in whatever
    language the request or the worker happened to speak."""
    event = make_event(16, consolation_from=[1])
    event.club.language = "de"
    event.club.save(update_fields=["language"])
    win(event, "main-r1-m1", 1)  # in an English request
    win(event, "main-r1-m2", 8)
    label = pairing(event, "consolation-r1-m1").match.label
    assert label.startswith(f"{event.name}: ") and "Runde 1" in label, label
    assert "round" not in label, label
