"""A club's pages show its own wall clock; everything is stored in UTC (docs/languages.md).

A resolved dispute of a match in a Copenhagen club, ruled at 18:00 UTC in January, reads
19:00 on the match page (CET, UTC+1) and 20:00 in July (CEST); the same instant stays
18:00 on a UTC club's page, and the API answers it in UTC whatever the club.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from core.club_zones import zone_for
from games.models import Club, Dispute
from games.services import clubs as club_services

pytestmark = pytest.mark.django_db

WINTER = dt.datetime(2026, 1, 15, 18, 0, tzinfo=dt.UTC)
SUMMER = dt.datetime(2026, 7, 15, 18, 0, tzinfo=dt.UTC)


def _ruled(match, player, director, at: dt.datetime) -> Dispute:
    return Dispute.objects.create(
        match=match,
        raised_by=player,
        reason="Wrong score.",
        status=Dispute.Status.RESOLVED,
        decision=Dispute.Decision.KEEP,
        resolution="Stands.",
        resolved_by=director,
        resolved_at=at,
    )


def _page(user, match) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/matches/{match.pk}/").content.decode()


@pytest.mark.parametrize(
    ("at", "local"), [(WINTER, "15 Jan 2026, 19:00"), (SUMMER, "15 Jul 2026, 20:00")]
)
def test_a_copenhagen_club_sees_its_local_time(club, match, alice, director, at, local):
    Club.objects.filter(pk=club.pk).update(time_zone="Europe/Copenhagen")
    _ruled(match, alice, director, at)
    page = _page(director, match)
    assert local in page
    assert "18:00" not in page


def test_a_utc_club_sees_the_same_instant_in_utc(club, match, alice, director):
    assert club.time_zone == "UTC"  # the server default
    _ruled(match, alice, director, WINTER)
    assert "15 Jan 2026, 18:00" in _page(director, match)


def test_the_zone_does_not_leak_into_the_next_request(club, match, alice, director):
    Club.objects.filter(pk=club.pk).update(time_zone="Europe/Copenhagen")
    _ruled(match, alice, director, WINTER)
    _page(director, match)
    from django.utils import timezone

    assert timezone.get_current_timezone_name() == "UTC"


def test_club_pages_know_their_zone(club, match):
    Club.objects.filter(pk=club.pk).update(time_zone="Europe/Copenhagen")
    for view, kwargs in [
        ("club-detail", {"slug": club.slug}),
        ("match-detail", {"pk": match.pk}),
        ("match-analysis-page", {"pk": match.pk}),
    ]:
        assert str(zone_for(view, kwargs)) == "Europe/Copenhagen", view
    assert zone_for("home", {}) is None
    assert zone_for("club-detail", {"slug": "no-such-club"}) is None


def test_the_api_sets_and_validates_the_zone_and_answers_in_utc(client_for, director, club):
    api = client_for(director)
    changed = api.patch(
        f"/api/v1/clubs/{club.slug}/", {"time_zone": "Europe/Copenhagen"}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["time_zone"] == "Europe/Copenhagen"
    assert changed.json()["created_at"].endswith("Z")  # UTC, whatever the club's zone
    wrong = api.patch(
        f"/api/v1/clubs/{club.slug}/", {"time_zone": "Europe/Atlantis"}, format="json"
    )
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "invalid_time_zone" and wrong.json()["field"] == "time_zone"
    assert Club.objects.get(pk=club.pk).time_zone == "Europe/Copenhagen"


def test_a_new_club_takes_the_zone_it_is_given_or_the_default(director):
    given = club_services.create_club(
        created_by=director, name="Nord", time_zone="Europe/Copenhagen"
    )
    assert given.time_zone == "Europe/Copenhagen"
    assert club_services.create_club(created_by=director, name="Syd").time_zone == "UTC"
    with pytest.raises(club_services.RuleViolation) as refused:
        club_services.create_club(created_by=director, name="Vest", time_zone="Nowhere/Town")
    assert refused.value.code == "invalid_time_zone"


def test_a_director_sets_the_zone_on_the_club_settings_page(club, director, make_user):
    page = Client()
    page.force_login(director)
    form = page.get(f"/clubs/{club.slug}/settings/")
    assert form.status_code == 200 and 'list="time-zones"' in form.content.decode()
    assert '<option value="Europe/Copenhagen">' in form.content.decode()
    wrong = page.post(f"/clubs/{club.slug}/settings/", {"time_zone": "Europe/Atlantis"})
    assert wrong.status_code == 400 and "is not a known time zone" in wrong.content.decode()
    assert Club.objects.get(pk=club.pk).time_zone == "UTC"  # nothing written
    saved = page.post(f"/clubs/{club.slug}/settings/", {"time_zone": "Europe/Copenhagen"})
    assert saved.status_code == 302
    assert Club.objects.get(pk=club.pk).time_zone == "Europe/Copenhagen"
    # a member who does not direct the club is told there is no such page
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(f"/clubs/{club.slug}/settings/").status_code == 404
