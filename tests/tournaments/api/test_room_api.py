"""The club's room and an event's reserved tables through the API: directors write,
bad input is a 400 naming the field and the rule, a stale ``If-Match`` is a 412."""

from __future__ import annotations

import pytest

from tournaments.models import Room

pytestmark = pytest.mark.django_db


def test_a_director_sets_the_room_and_anyone_reads_it(client_for, director, club, make_user):
    api = client_for(director)
    answer = api.put(
        f"/api/v1/clubs/{club.slug}/room/", {"name": "Hall", "tables": 20}, format="json"
    )
    assert answer.status_code == 200, answer.data
    assert answer.data == {"name": "Hall", "tables": 20}
    assert client_for(None).get(f"/api/v1/clubs/{club.slug}/room/").data["tables"] == 20
    stranger = client_for(make_user("stranger"))
    refused = stranger.put(f"/api/v1/clubs/{club.slug}/room/", {"tables": 2}, format="json")
    assert refused.status_code == 403 and refused.data["code"] == "directors_only"
    assert Room.objects.get(club=club).tables == 20


@pytest.mark.parametrize("tables", [0, 1000, "many"])
def test_a_room_of_no_tables_or_too_many_is_refused_naming_the_field(
    client_for, director, club, tables
):
    answer = client_for(director).put(
        f"/api/v1/clubs/{club.slug}/room/", {"tables": tables}, format="json"
    )
    assert answer.status_code == 400 and answer.data["field"] == "tables", answer.data
    assert not Room.objects.filter(
        club=club, tables=tables if isinstance(tables, int) else -1
    ).exists()


def test_reservations_are_checked_against_the_room_and_other_events(
    client_for, director, make_event, club
):
    api = client_for(director)
    api.put(f"/api/v1/clubs/{club.slug}/room/", {"tables": 16}, format="json")
    main = make_event(4, name="Main", start=False)
    side = make_event(4, name="Side", start=False)
    url = f"/api/v1/tournaments/{main.slug}/tables/"
    done = api.put(url, {"table_first": 1, "table_last": 8}, format="json")
    assert done.status_code == 200 and done.data == {"table_first": 1, "table_last": 8}
    version = done["ETag"]
    stale = api.put(url, {"table_first": 1, "table_last": 4}, format="json", HTTP_IF_MATCH='"1"')
    assert stale.status_code == 412
    fresh = api.put(url, {"table_first": 1, "table_last": 4}, format="json", HTTP_IF_MATCH=version)
    assert fresh.status_code == 200
    cases = [
        (side, {"table_first": 3, "table_last": 6}, "table_range_taken", "table_first"),
        (side, {"table_first": 9, "table_last": 17}, "table_out_of_range", "table_last"),
        (side, {"table_first": 9, "table_last": 5}, "table_range_invalid", "table_last"),
        (side, {"table_first": 9, "table_last": None}, "table_range_invalid", "table_last"),
    ]
    for event, body, code, field in cases:
        answer = api.put(f"/api/v1/tournaments/{event.slug}/tables/", body, format="json")
        assert answer.status_code == 400, answer.data
        assert (answer.data["code"], answer.data["field"]) == (code, field)
    side.refresh_from_db()
    assert (side.table_first, side.table_last) == (None, None)  # nothing half-written
    shrink = api.put(f"/api/v1/clubs/{club.slug}/room/", {"tables": 3}, format="json")
    assert shrink.status_code == 400 and shrink.data["code"] == "room_too_small"
    assert shrink.data["field"] == "tables"
