"""The room page and an event's reserved tables, as a director uses them: saved and said
in words, refusals next to the field, nothing saved."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.models import Room

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def _said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_the_club_page_links_the_room_and_the_room_is_saved(browser, club):
    assert (
        f"/tournaments/room/{club.slug}/" in browser.get(club.get_absolute_url()).content.decode()
    )
    response = browser.post(
        f"/tournaments/room/{club.slug}/", {"name": "Back room", "tables": "12"}, follow=True
    )
    assert _said(response) == ["The room is saved: 12 tables."]
    room = Room.objects.get(club=club)
    assert (room.name, room.tables) == ("Back room", 12)


def test_a_room_of_zero_tables_is_refused_next_to_the_field(browser, club):
    html = browser.post(f"/tournaments/room/{club.slug}/", {"tables": "0"}).content.decode()
    field = html.split('id="id_tables-error"', 1)[1].split("</p>", 1)[0]
    assert "Tables are numbered from 1." in field
    assert not Room.objects.filter(club=club, tables=0).exists()


def test_strangers_do_not_see_the_room_page(club, make_user):
    client = Client()
    client.force_login(make_user("stranger"))
    assert client.get(f"/tournaments/room/{club.slug}/").status_code == 404


def test_an_event_reserves_tables_from_its_dashboard(browser, make_event, club):
    Room.objects.create(club=club, tables=10)
    main = make_event(4, name="Main", start=False)
    side = make_event(4, name="Side", start=False)
    dashboard = browser.get(f"/tournaments/{main.slug}/director/").content.decode()
    assert f"/tournaments/{main.slug}/director/tables/" in dashboard
    response = browser.post(
        f"/tournaments/{main.slug}/director/tables/",
        {"table_first": "1", "table_last": "6"},
        follow=True,
    )
    assert _said(response) == ["Tables 1 to 6 are reserved for Main."]
    html = browser.post(
        f"/tournaments/{side.slug}/director/tables/", {"table_first": "5", "table_last": "8"}
    ).content.decode()
    first = html.split('id="id_table_first-error"', 1)[1].split("</p>", 1)[0]
    assert "Main has reserved tables 1 to 6." in first
    side.refresh_from_db()
    assert side.table_first is None
    html = browser.post(
        f"/tournaments/{side.slug}/director/tables/", {"table_first": "7", "table_last": "12"}
    ).content.decode()
    assert "The room has 10 tables." in html.split('id="id_table_last-error"', 1)[1]
    room_page = browser.get(f"/tournaments/room/{club.slug}/").content.decode()
    assert "tables 1 to 6" in room_page and "shared tables" in room_page
