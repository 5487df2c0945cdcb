"""Issue 37: an event's walk-in with an address (``POST
/api/v1/tournaments/{slug}/entries/walk-in/``) asks its owner once; a spent mail cap
holds the link back, never the registration."""

from __future__ import annotations

import pytest
from django.core import mail

from games.services.actors import actor_for_user
from tournaments.models import Entry
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_cache(own_cache):
    """Rate limits and mail caps count in a cache of this test's own."""


@pytest.fixture
def api(client_for, director):
    return client_for(director)


def test_an_events_walk_in_is_entered_with_a_spent_cap_and_the_answer_says_so(
    api, club, director, settings
):
    """The registration never fails for the link: the entry stands, the link waits."""
    night = event_services.create_tournament(
        actor=actor_for_user(director), club=club, name="Thursday", format="single_elimination"
    )
    settings.MAIL_CAP_USER_PER_HOUR = 1
    url = f"/api/v1/tournaments/{night.slug}/entries/walk-in/"
    first = api.post(url, {"display_name": "Ida", "email": "ida@example.org"}, format="json")
    held = api.post(url, {"display_name": "Jo", "email": "jo@example.org"}, format="json")
    assert first.status_code == 201 and first.json()["address_link"]["state"] == "sent"
    assert held.status_code == 201, held.content
    assert held.json()["player"]["display_name"] == "Jo"
    assert held.json()["address_link"]["state"] == "cap_reached"
    assert Entry.objects.filter(tournament=night).count() == 2
    assert [m.to for m in mail.outbox] == [["ida@example.org"]]
