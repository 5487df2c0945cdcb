"""Known bugs of the director dashboard found by the browser journeys, kept as strict
expected failures so that the fix turns them red and they are then made plain tests."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.formats.errors import FormatError

pytestmark = pytest.mark.django_db


@pytest.mark.xfail(
    strict=True,
    raises=FormatError,
    reason="the drop-map preview raises bad_feeding_rounds (500) while a consolation "
    "event has fewer entries than its feeding rounds need (tournaments/pages.py)",
)
def test_director_page_of_a_new_consolation_event_renders(club, director):
    browser = Client()
    browser.force_login(director)
    created = browser.post(
        f"/tournaments/new/{club.slug}/",
        {"name": "Cup", "format": "single_elimination", "consolation": "1", "length": 3},
    )
    assert created.status_code == 302
    assert browser.get(created["Location"]).status_code == 200
