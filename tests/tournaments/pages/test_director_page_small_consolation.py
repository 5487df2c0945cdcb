"""The director dashboard of a consolation event with too few entries for its feeding
rounds renders (it once crashed on the drop-map preview, found by a browser journey)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_director_page_of_a_new_consolation_event_renders(club, director):
    browser = Client()
    browser.force_login(director)
    created = browser.post(
        f"/tournaments/new/{club.slug}/",
        {"name": "Cup", "format": "single_elimination", "consolation_from": "1, 2", "length": 3},
    )
    assert created.status_code == 302
    page = browser.get(created["Location"])
    assert page.status_code == 200
    assert b"No preview yet" in page.content
