"""The tournament reads against the schema that types them (issue #30): the bracket, the
standings with their places, the odds and a pairing's answer, as real events answer
them, each validated against its declared schema closed to undeclared keys
(``tests.openapi_answers``), so the serializers of ``tournaments.api.shapes`` and the
functions that render the answers cannot drift apart."""

from __future__ import annotations

import pytest

from tests.openapi_answers import check_body, closed
from tournaments.services import odds as odds_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(api_client):
    return closed(api_client.get("/api/schema/", {"format": "json"}).json())


def answer(schema, client, method: str, path: str, url: str, **kwargs):
    response = getattr(client, method)(url, **kwargs)
    declared = schema["paths"][path][method]["responses"][str(response.status_code)]
    check_body(schema, declared, response.json())
    return response


def test_an_elimination_event_half_played_answers_as_declared(
    schema, make_event, win, api_client, client_for, director
):
    event = make_event(8, consolation_from=[1])
    win(event, "main-r1-m1", 1)
    win(event, "main-r1-m2", 5)  # an upset: 4 goes to the consolation
    odds_services.compute_odds(tournament_id=event.pk)
    base = f"/api/v1/tournaments/{event.slug}"
    forfeit = answer(
        schema,
        client_for(director),
        "post",
        "/api/v1/tournaments/{slug}/pairings/{key}/forfeit/",
        f"{base}/pairings/main-r1-m3/forfeit/",
        data={"winner": event.entries.get(seed=3).pk},
        format="json",
    ).json()
    assert forfeit["forfeit"] is True and "replaced_matches" in forfeit

    bracket = answer(
        schema, api_client, "get", "/api/v1/tournaments/{slug}/bracket/", f"{base}/bracket/"
    ).json()
    assert {stage["kind"] for stage in bracket["stages"]} == {"main", "consolation"}
    standings = answer(
        schema, api_client, "get", "/api/v1/tournaments/{slug}/standings/", f"{base}/standings/"
    ).json()
    assert len(standings["standings"]) == 8
    odds = answer(
        schema, api_client, "get", "/api/v1/tournaments/{slug}/odds/", f"{base}/odds/"
    ).json()
    assert odds["available"] is True and odds["entries"][0]["player"]["entry"]


def test_a_finished_event_lists_its_places(schema, make_event, win, api_client):
    event = make_event(4)
    for key, seed in [("main-r1-m1", 1), ("main-r1-m2", 2), ("main-r2-m1", 1)]:
        win(event, key, seed)
    standings = answer(
        schema,
        api_client,
        "get",
        "/api/v1/tournaments/{slug}/standings/",
        f"/api/v1/tournaments/{event.slug}/standings/",
    ).json()
    assert standings["winner"]["seed"] == 1
    assert [place["place"] for place in standings["places"]][:2] == ["1", "2"]


def test_a_swiss_round_answers_its_tie_breaks_as_declared(schema, make_event, api_client):
    event = make_event(6, format="swiss", swiss_rounds=3)
    base = f"/api/v1/tournaments/{event.slug}"
    answer(schema, api_client, "get", "/api/v1/tournaments/{slug}/bracket/", f"{base}/bracket/")
    standings = answer(
        schema, api_client, "get", "/api/v1/tournaments/{slug}/standings/", f"{base}/standings/"
    ).json()
    assert set(standings["standings"][0]["tie_breaks"]) == set(standings["tie_breaks"])


def test_the_drop_map_answers_as_declared(schema, make_event, client_for, director):
    event = make_event(8, consolation_from=[1])
    drop_map = answer(
        schema,
        client_for(director),
        "get",
        "/api/v1/tournaments/{slug}/drop-map/",
        f"/api/v1/tournaments/{event.slug}/drop-map/",
    ).json()
    assert drop_map["entries"] == 8 and drop_map["feeds"][0]["stage"] == "consolation"
    assert any(drop["to_match"] is None for drop in drop_map["drops"])
