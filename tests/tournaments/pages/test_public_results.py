"""Public results that stay (issue #27 item 1): the events index, a club's past events,
a player's results with their opt-out, and the sitemap."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client

from games.services import clubs as club_services
from tests.tournaments.conftest import play_out
from tournaments.models import Tournament, TournamentStatus
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def _event(club, name, status, *, format="swiss", starts_on=None):
    slug = name.lower().replace(" ", "-")
    return Tournament.objects.create(
        club=club, name=name, slug=slug, status=status, format=format, starts_on=starts_on
    )


@pytest.fixture
def finished(make_event, win, actor):
    """An 8-player knockout played out and finished: P01 wins, P02 is runner-up."""
    event = make_event(8, name="Spring Open", starts_on=datetime.date(2026, 4, 11))
    play_out(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    return event


def test_a_visitor_finds_a_finished_event_from_the_home_page(finished):
    visitor = Client()
    home = visitor.get("/").content.decode()
    assert 'href="/tournaments/"' in home
    index = visitor.get("/tournaments/")
    assert index.status_code == 200
    html = index.content.decode()
    assert "Spring Open" in html and f"/tournaments/{finished.slug}/standings/" in html
    assert "Winner: P01" in visitor.get(f"/tournaments/{finished.slug}/").content.decode()


def test_the_index_filters_searches_and_leaves_drafts_out(club, make_user):
    other = club_services.create_club(created_by=make_user("other"), name="Harbour BG", slug="hbg")
    _event(club, "Tuesday Swiss", TournamentStatus.RUNNING, starts_on=datetime.date(2026, 11, 3))
    _event(club, "Winter Cup", TournamentStatus.REGISTRATION, format="single_elimination")
    _event(other, "Harbour Open", TournamentStatus.FINISHED, starts_on=datetime.date(2025, 6, 1))
    _event(club, "Secret Draft", TournamentStatus.DRAFT)
    visitor = Client()

    def names(query: str) -> list[str]:
        html = visitor.get(f"/tournaments/?{query}").content.decode()
        return [
            n for n in ("Tuesday Swiss", "Winter Cup", "Harbour Open", "Secret Draft") if n in html
        ]

    assert names("") == ["Tuesday Swiss", "Winter Cup", "Harbour Open"]
    assert names("when=finished") == ["Harbour Open"]
    assert names("when=upcoming") == ["Winter Cup"]
    assert names("club=hbg") == ["Harbour Open"]
    assert names("format=single_elimination") == ["Winter Cup"]
    assert names("year=2025") == ["Harbour Open"]
    assert names("q=harbour") == ["Harbour Open"]  # by the club's name too
    assert names("q=secret") == []
    # running first, then upcoming, then finished
    html = visitor.get("/tournaments/").content.decode()
    assert html.index("Tuesday Swiss") < html.index("Winter Cup") < html.index("Harbour Open")


def test_a_bad_filter_is_said_next_to_its_field_and_the_list_still_shows(club):
    _event(club, "Tuesday Swiss", TournamentStatus.RUNNING)
    response = Client().get("/tournaments/?format=chess&year=abc&page=zzz")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Select a valid choice. chess is not one of the available choices." in html
    assert 'id="id_year-error"' in html
    assert "Tuesday Swiss" in html


def test_the_index_is_paginated_25_a_page(club):
    for n in range(27):
        _event(
            club,
            f"Night {n:02d}",
            TournamentStatus.FINISHED,
            starts_on=datetime.date(2026, 1, 1) + datetime.timedelta(days=n),
        )
    first = Client().get("/tournaments/").content.decode()
    assert "Night 26" in first and "Night 02" in first and "Night 01" not in first
    assert "Page 1 of 2" in first and 'rel="next"' in first
    second = Client().get("/tournaments/?when=finished&page=2").content.decode()
    assert "Night 01" in second and "Night 00" in second and "Night 02" not in second
    assert 'href="?when=finished&amp;page=1"' in second


def test_the_club_page_keeps_past_events_and_shows_drafts_to_directors_only(
    club, director, finished
):
    _event(club, "Next Draft", TournamentStatus.DRAFT)
    visitor = Client().get(f"/clubs/{club.slug}/").content.decode()
    assert "Past events" in visitor and "Spring Open" in visitor
    assert f"/tournaments/{finished.slug}/standings/" in visitor
    assert "Next Draft" not in visitor
    browser = Client()
    browser.force_login(director)
    assert "Next Draft" in browser.get(f"/clubs/{club.slug}/").content.decode()


def test_a_players_page_lists_their_finishes_unless_they_opted_out(finished, director):
    p02 = finished.entries.get(seed=2).player
    page = Client().get(f"/players/{p02.slug}/").content.decode()
    assert "Events and results" in page and "Spring Open" in page
    assert "2 of 8" in page  # the runner-up
    p01 = finished.entries.get(seed=1).player
    assert "1 of 8" in Client().get(f"/players/{p01.slug}/").content.decode()

    browser = Client()
    browser.force_login(director)
    edit = browser.get(f"/players/{p02.slug}/edit/").content.decode()
    assert re.search(r'<input type="checkbox" name="public_results"[^>]*checked', edit)
    browser.post(
        f"/players/{p02.slug}/edit/",
        {"display_name": p02.display_name, "email": "", "clubs": [c.pk for c in p02.clubs.all()]},
    )
    p02.refresh_from_db()
    assert p02.public_results is False
    assert "Spring Open" not in Client().get(f"/players/{p02.slug}/").content.decode()
    own = browser.get(f"/players/{p02.slug}/").content.decode()  # a director of the club
    assert "Spring Open" in own and "asked that it not be public" in own


def test_the_sitemap_lists_published_events_only(club, finished):
    _event(club, "Hidden Draft", TournamentStatus.DRAFT)
    _event(club, "Open Later", TournamentStatus.REGISTRATION)
    xml = Client().get("/sitemap.xml").content.decode()
    assert f"/tournaments/{finished.slug}/</loc>" in xml
    assert "/tournaments/</loc>" in xml
    assert "hidden-draft" not in xml and "open-later" not in xml
