"""Limits on clubs (issue #37, item 7): clubs per account, names that read like another
club's or of invisible characters only, and slugs the site's addresses use.

Through the API (``POST /api/v1/clubs/``) and the page (``/clubs/new/``), as the probe
did."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import path

from config import urls as site_urls
from games import club_slugs
from games.models import Club
from games.services import clubs as club_services

pytestmark = pytest.mark.django_db


def _create(client_for, user, **body):
    return client_for(user).post("/api/v1/clubs/", body, format="json")


def test_an_account_creates_at_most_the_setting_and_admins_more(
    client_for, make_user, admin_user, settings
):
    settings.CLUBS_PER_USER = 3
    user = make_user("maker")
    statuses = [_create(client_for, user, name=f"Maker club {n}").status_code for n in range(5)]
    assert statuses == [201, 201, 201, 400, 400]
    refused = _create(client_for, user, name="Maker club 9").json()
    assert refused["code"] == "too_many_clubs" and refused["field"] == "name"
    assert "You direct 3 clubs" in refused["detail"]
    assert Club.objects.filter(directors=user).count() == 3
    # the page says it next to the name
    browser = Client()
    browser.force_login(user)
    page = browser.post("/clubs/new/", {"name": "Maker club 10"})
    assert page.status_code == 400 and "You direct 3 clubs" in page.content.decode()
    # a site admin is not limited
    admin_statuses = [
        _create(client_for, admin_user, name=f"Admin club {n}").status_code for n in range(5)
    ]
    assert admin_statuses == [201] * 5


@pytest.mark.parametrize(
    "name",
    [
        "\u0410lpha",  # a Cyrillic А
        "ALPHA",
        "Alpha\u200b",  # a zero-width space
        "A\u202elpha",  # a right-to-left override
        "\uff21lpha",  # a fullwidth A
        "A\u217cpha",  # a Roman numeral fifty (looks like l)
    ],
)
def test_a_name_that_reads_like_an_existing_clubs_is_refused(client_for, make_user, name):
    club_services.create_club(created_by=make_user("first"), name="Alpha")
    response = _create(client_for, make_user("second"), name=name)
    assert response.status_code == 400, response.content
    data = response.json()
    assert data["code"] == "name_confusable" and data["field"] == "name"
    assert "reads like the name of the club 'Alpha'" in data["detail"]
    assert Club.objects.count() == 1


@pytest.mark.parametrize("name", ["\u200b", "\u202e\u200d", " \u2066 "])
def test_a_name_of_invisible_characters_only_is_refused(client_for, make_user, name):
    response = _create(client_for, make_user(), name=name)
    assert response.status_code == 400
    assert response.json()["field"] == "name"
    assert not Club.objects.exists()


def test_a_name_is_stored_normalised_and_a_different_name_is_fine(client_for, make_user):
    club_services.create_club(created_by=make_user("first"), name="Alpha")
    response = _create(client_for, make_user(), name="Be\u200bta \ufb01ve\u202e")
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Beta five"


def test_renaming_to_another_clubs_look_alike_is_refused(client_for, make_user, club):
    club_services.create_club(created_by=make_user("first"), name="Alpha")
    api = client_for(club.directors.get())
    response = api.patch(f"/api/v1/clubs/{club.slug}/", {"name": "\u0410LPHA"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "name_confusable"
    own = api.patch(f"/api/v1/clubs/{club.slug}/", {"name": "TEST CLUB"}, format="json")
    assert own.status_code == 200  # its own name in other letters is no conflict


def test_a_club_named_new_gets_a_slug_its_page_answers_at(client_for, make_user):
    response = _create(client_for, make_user(), name="New")
    assert response.status_code == 201
    slug = response.json()["slug"]
    assert slug != "new" and not club_slugs.is_reserved(slug)
    browser = Client()
    assert browser.get(f"/clubs/{slug}/").status_code == 200
    chosen = _create(client_for, make_user(), name="Admins", slug="admin")
    assert chosen.status_code == 400 and chosen.json()["code"] == "slug_reserved"


def test_a_word_the_urlconf_routes_under_clubs_is_reserved_without_a_list(make_user):
    """A route added under ``/clubs/`` reserves its word by itself: with this module's
    URLconf (the site's, plus ``clubs/calendar/``), a club named "Calendar" does not
    get the slug its page could never be reached at."""
    user = make_user()
    assert club_services.create_club(created_by=user, name="Almanac").slug == "almanac"
    with override_settings(ROOT_URLCONF=__name__):
        assert club_slugs.is_reserved("calendar") and club_slugs.is_reserved("new")
        club = club_services.create_club(created_by=user, name="Calendar")
        assert club.slug == "calendar-2"
    assert not club_slugs.is_reserved("calendar")


urlpatterns = [
    path("clubs/calendar/", lambda request: HttpResponse("calendar")),
    *site_urls.urlpatterns,
]
