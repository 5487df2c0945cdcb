"""The tournament reads against the schema that types them (issue #30): the bracket, the
standings with their places, the odds and a pairing's answer, as real events answer
them, each validated against its declared schema closed to undeclared keys
(``tests.openapi_answers``), so the serializers of ``tournaments.api.shapes`` and the
functions that render the answers cannot drift apart."""

from __future__ import annotations

from typing import Any

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


OPTIONS = {
    "consolation_from": [1, 2],
    "last_chance_from": [1],
    "feed_orders": ["reversed", "straight"],
    "tie_breaks": ["match_wins", "head_to_head"],
    "match_lengths": {"default": 5, "rounds": {"main": {"1": 3, "-2": 7, "-1": 11}}},
    "prize_order": ["main:2", "consolation:1", "main"],
    "clock_rounds": [{"stage": "main", "from": -3, "policy": "required"}],
}


def test_an_events_json_options_answer_in_their_declared_shapes(schema, club, client_for, director):
    """The event's JSON columns are typed in the schema (``tournaments.api.config_shapes``),
    not free-form: the create, change and read answers hold them to those shapes."""
    client = client_for(director)
    body = {"club": club.slug, "name": "Shapes Open", "format": "single_elimination", **OPTIONS}
    created = answer(
        schema,
        client,
        "post",
        "/api/v1/tournaments/",
        "/api/v1/tournaments/",
        data=body,
        format="json",
    )
    assert created.status_code == 201, created.json()
    slug = created.json()["slug"]
    for key, value in OPTIONS.items():
        assert created.json()[key] == value, key
    url = f"/api/v1/tournaments/{slug}/"
    changed = answer(
        schema,
        client,
        "patch",
        "/api/v1/tournaments/{slug}/",
        url,
        data={"match_lengths": {"default": 7}, "clock_rounds": []},
        format="json",
    ).json()
    assert changed["match_lengths"] == {"default": 7, "rounds": {}}
    assert changed["clock_rounds"] == []
    read = answer(schema, client, "get", "/api/v1/tournaments/{slug}/", url).json()
    assert read["prize_order"] == OPTIONS["prize_order"]
    listed = answer(schema, client, "get", "/api/v1/tournaments/", "/api/v1/tournaments/")
    assert slug in [row["slug"] for row in listed.json()["results"]]


def test_a_bad_option_is_still_refused_by_its_rule(club, client_for, director):
    """Typing the options in the schema did not move their checks: the service still
    names the rule (not a generic "invalid" of the serializer)."""
    client = client_for(director)
    base = {"club": club.slug, "name": "Bad Options", "format": "single_elimination"}
    refusals: list[tuple[dict[str, Any], str]] = [
        ({"match_lengths": {"rounds": {"main": {"final": 7}}}}, "match_lengths_round"),
        ({"match_lengths": {"length": 7}}, "match_lengths_unknown_key"),
        (
            {"clock_rounds": [{"stage": "main", "from": 0, "policy": "required"}]},
            "clock_rounds_round",
        ),
        ({"clock_rounds": [{"stage": "main"}]}, "clock_rounds_invalid"),
        ({"prize_order": ["main:x"]}, "bad_prize_order"),
    ]
    for options, code in refusals:
        response = client.post("/api/v1/tournaments/", {**base, **options}, format="json")
        assert response.status_code == 400, options
        assert response.json()["code"] == code, response.json()
