"""A match's table: the club's director sets or clears it; nobody else does."""

from __future__ import annotations

import pytest

from games.models import Match

pytestmark = pytest.mark.django_db


def url(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/table/"


def test_director_sets_a_table_and_the_audit_trail_says_so(client_for, director, match):
    response = client_for(director).post(url(match), {"table": 7}, format="json")
    assert response.status_code == 200, response.content
    assert response.data["table"] == 7
    assert response["ETag"] == f'"{match.version + 1}"'
    match.refresh_from_db()
    assert match.table == 7
    trail = client_for(director).get(f"/api/v1/matches/{match.pk}/audit/").data
    last = trail[-1]
    assert last["who"] == "director" and last["changes"]["table"] == {"before": None, "after": 7}
    assert "table" in (last["reason"] or "")
    # the match list shows it too
    listed = client_for(None).get("/api/v1/matches/").data["results"]
    assert [m["table"] for m in listed if m["id"] == match.pk] == [7]


def test_null_clears_the_table(client_for, director, make_match):
    match = make_match(5)
    client_for(director).post(url(match), {"table": 3}, format="json")
    response = client_for(director).post(url(match), {"table": None}, format="json")
    assert response.status_code == 200 and response.data["table"] is None
    match.refresh_from_db()
    assert match.table is None


def test_a_player_of_the_match_may_not_move_it(client_for, alice_user, match):
    response = client_for(alice_user).post(url(match), {"table": 2}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "directors_only"
    match.refresh_from_db()
    assert match.table is None and match.history.count() == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"table": 0}, "min_value"),
        ({"table": 1000}, "max_value"),
        ({"table": "seven"}, "invalid"),
        ({}, "required"),
    ],
)
def test_a_bad_table_is_a_400_naming_the_field(client_for, director, match, body, code):
    response = client_for(director).post(url(match), body, format="json")
    assert response.status_code == 400
    error = response.json()
    assert error["field"] == "table" and error["code"] == code and error["detail"]
    match.refresh_from_db()
    assert match.table is None and match.version == 1


def test_a_stale_if_match_is_refused(client_for, director, match):
    response = client_for(director).post(
        url(match), {"table": 4}, format="json", HTTP_IF_MATCH='"99"'
    )
    assert response.status_code == 412
    match.refresh_from_db()
    assert match.table is None
