"""A club's time zone is a canonical IANA name (issue #25 item 8d).

``zoneinfo`` opens ``localtime`` (whatever the server is set to), ``Factory`` and
``posixrules``, and the backward-compatible aliases (``GMT``, ``US/Eastern``...), so the
API accepted all of them. Only canonical names pass now: 400 ``invalid_time_zone``
naming ``time_zone`` otherwise, on create and on update, in the API and the service.
"""

from __future__ import annotations

import zoneinfo

import pytest

from core.club_zones import canonical_time_zones
from games.models import Club

pytestmark = pytest.mark.django_db

REFUSED = ["localtime", "Factory", "posixrules", "GMT", "Zulu", "US/Eastern", "Japan", "posix/UTC"]


@pytest.mark.parametrize("name", REFUSED)
def test_a_non_zone_or_alias_is_refused_on_create(client_for, director, name):
    response = client_for(director).post(
        "/api/v1/clubs/", {"name": "Nord", "time_zone": name}, format="json"
    )
    assert response.status_code == 400, response.content
    assert (response.json()["code"], response.json()["field"]) == ("invalid_time_zone", "time_zone")
    assert not Club.objects.filter(name="Nord").exists()


@pytest.mark.parametrize("name", ["localtime", "Factory", "posixrules"])
def test_a_non_zone_is_refused_on_update(client_for, director, club, name):
    response = client_for(director).patch(
        f"/api/v1/clubs/{club.slug}/", {"time_zone": name}, format="json"
    )
    assert response.status_code == 400, response.content
    assert Club.objects.get(pk=club.pk).time_zone == "UTC"


@pytest.mark.parametrize("name", ["Europe/Copenhagen", "UTC", "America/Argentina/Buenos_Aires"])
def test_canonical_names_are_accepted(client_for, director, name):
    response = client_for(director).post(
        "/api/v1/clubs/", {"name": f"Club {name}", "time_zone": name}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["time_zone"] == name


def test_the_canonical_list_is_the_databases_zones_without_the_non_zones():
    zones = canonical_time_zones()
    assert zones <= zoneinfo.available_timezones()
    assert {"Europe/Copenhagen", "UTC", "Asia/Tokyo"} <= zones
    assert not zones & {"localtime", "Factory", "posixrules", "GMT", "US/Eastern"}
