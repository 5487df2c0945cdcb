"""The variants API (docs/api.md, "Variants"): the registry and the legal plays of a
position, anonymous and throttled; bad positions and throws are 400s naming the field."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.throttling import SimpleRateThrottle

pytestmark = pytest.mark.django_db

EMPTY = [0] * 24


def side(points: dict[int, int] | None = None, **extra):
    row = list(EMPTY)
    for p, n in (points or {}).items():
        row[p - 1] = n
    return {"points": row, **extra}


def plays(client, key, body):
    return client.post(f"/api/v1/variants/{key}/plays/", body, format="json")


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()
    yield
    cache.clear()


def test_the_list_names_every_variant_with_sources_and_rules(client_for):
    response = client_for(None).get("/api/v1/variants/")
    assert response.status_code == 200
    entries = {v["key"]: v for v in response.json()["results"]}
    assert {"standard", "nackgammon", "hypergammon-3", "russian", "turkish"} <= set(entries)
    assert {"acey-deucey", "portes", "plakoto", "fevga", "tavla"} <= set(entries)
    assert entries["russian"]["sources"] == ["Cady 1895, Backgammon: Russian Backgammon"]
    assert entries["plakoto"]["allows"]["contact"] == "pin"
    assert entries["tavla"]["allows"]["levels"] == {"single": 1, "gammon": 2}
    assert entries["hypergammon-2"]["allows"]["checkers"] == 2
    assert entries["standard"]["start"]["mover"]["points"][23] == 2
    assert entries["standard"]["start"]["opponent"]["points"][0] == 2  # his 24 is our 1
    options = {o["key"]: o["default"] for o in entries["russian"]["options"]}
    assert options["opponent_finishes"] is False


def test_standard_opening_plays_from_the_start(client_for):
    response = plays(client_for(None), "standard", {"dice": [3, 1]})
    assert response.status_code == 200
    body = response.json()
    assert body["next"] == "turn_over" and body["dice_played"] == [3, 1]
    assert "8/5 6/5" in {
        " ".join(sorted(p["notation"].split(), reverse=True)) for p in body["plays"]
    }
    made = [p for p in body["plays"] if sorted(map(tuple, p["moves"])) == [(6, 5), (8, 5)]]
    assert made[0]["position"]["mover"]["points"][4] == 2


def test_a_russian_doublet_is_followed_by_its_complementary(client_for):
    body = {
        "position": {
            "mover": side(not_entered=15),
            "opponent": side(not_entered=15),
        },
        "dice": [6, 6],
        "throw": {"stage": "roll", "earlier_doublets": True},
    }
    first = plays(client_for(None), "russian", body).json()
    assert first["next"] == "complementary"
    after = first["plays"][0]["position"]
    assert after["mover"]["points"][18] == 4 and after["mover"]["not_entered"] == 11
    second = plays(
        client_for(None),
        "russian",
        {**body, "position": after, "throw": {"stage": "complementary", "earlier_doublets": True}},
    ).json()
    assert second["dice_played"] == [1, 1, 1, 1] and second["next"] == "throw_again"


def test_the_opponent_is_given_from_the_movers_side(client_for):
    """A hit: the opponent's lone man on the mover's point 5 goes to the bar."""
    body = {
        "position": {"mover": side({8: 2, 6: 13}), "opponent": side({5: 1, 24: 14})},
        "dice": [3, 1],
    }
    result = plays(client_for(None), "standard", body).json()
    hits = [p for p in result["plays"] if 5 in p["hits"]]
    assert hits and hits[0]["position"]["opponent"]["bar"] == 1


def test_house_options_change_the_throw(client_for):
    body = {"dice": [3, 3]}
    assert plays(client_for(None), "acey-deucey", body).json()["next"] == "turn_over"
    european = plays(
        client_for(None), "acey-deucey", {**body, "options": {"complementary_doublets": True}}
    )
    assert european.json()["next"] == "complementary"


def test_a_game_ending_play_carries_its_result(client_for):
    body = {
        "position": {"mover": side({1: 1}, off=14), "opponent": side({20: 15})},
        "dice": [2, 1],
    }
    result = plays(client_for(None), "tavla", body).json()
    assert result["next"] == "game_over"
    assert result["plays"][0]["result"] == {
        "winner": "mover",
        "level": "gammon",
        "points": 2,
        "reason": "borne_off",
    }


@pytest.mark.parametrize(
    ("key", "body", "code", "field", "words"),
    [
        (
            "standard",
            {"position": {"mover": side({24: 2}), "opponent": side({1: 15})}, "dice": [3, 1]},
            "bad_position",
            "position.mover",
            "2 checkers",
        ),
        (
            "standard",
            {"position": {"mover": side({6: 15}), "opponent": side({6: 1, 1: 14})}, "dice": [3, 1]},
            "bad_position",
            "position.opponent.points",
            "point 6 is held by both sides",
        ),
        (
            "standard",
            {"position": {"mover": side({6: 15}), "opponent": side({1: 15})}, "dice": [7, 1]},
            "max_value",
            "dice[0]",
            "",
        ),
        ("standard", {"dice": [3]}, "min_length", "dice", ""),
        (
            "hypergammon-1",
            {"dice": [3, 1], "options": {"cube": True}},
            "unknown_option",
            "options",
            "cube",
        ),
        (
            "russian",
            {"dice": [3, 1], "throw": {"stage": "complementary"}},
            "bad_throw",
            "throw.stage",
            "doublets",
        ),
        (
            "standard",
            {"dice": [3, 1], "throw": {"stage": "chosen", "chosen": 4}},
            "bad_throw",
            "throw.stage",
            "1-2",
        ),
        (
            "standard",
            {
                "position": {"mover": side({24: 1}, not_entered=14), "opponent": side({1: 15})},
                "dice": [3, 1],
            },
            "bad_position",
            "position.mover.not_entered",
            "not yet entered",
        ),
    ],
)
def test_bad_input_is_a_400_naming_what_is_wrong(client_for, key, body, code, field, words):
    response = plays(client_for(None), key, body)
    assert response.status_code == 400, response.content
    error = response.json()
    assert (error["code"], error["field"]) == (code, field)
    assert words in error["detail"]


def test_an_unknown_variant_is_a_404(client_for):
    response = plays(client_for(None), "chess", {"dice": [3, 1]})
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@override_settings(  # its own counts: another test process may clear the shared cache
    CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                        "LOCATION": "variants-throttle"}}
)  # fmt: skip
def test_anonymous_reads_are_throttled(client_for, monkeypatch):
    """The registry at its rate; the plays (each up to ~0.1 s of CPU) at their own,
    lower one (``variant_plays``), so the plays' budget is not the registry's."""
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "variants": "2/min", "variant_plays": "1/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    client = client_for(None)
    assert client.get("/api/v1/variants/").status_code == 200
    assert plays(client, "standard", {"dice": [3, 1]}).status_code == 200
    again = plays(client, "standard", {"dice": [3, 1]})
    assert again.status_code == 429 and int(again["Retry-After"]) > 0
    assert client.get("/api/v1/variants/").status_code == 200
    third = client.get("/api/v1/variants/")
    assert third.status_code == 429
    assert third.json()["code"] == "throttled"


def test_the_schema_documents_both_endpoints_with_examples(client_for):
    schema = client_for(None).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = json.loads(schema.content)["paths"]
    assert "get" in paths["/api/v1/variants/"]
    post = paths["/api/v1/variants/{key}/plays/"]["post"]
    assert post["requestBody"]["content"]["application/json"]["examples"]
    assert (
        post["security"] == [{"knoxApiToken": []}, {"cookieAuth": []}, {}] or {} in post["security"]
    )


def test_a_throw_with_a_thousand_plays_answers_the_first_hundred_and_says_so(client_for):
    """Issue #37, item 7: a Russian 1-1 from a spread position has over a thousand legal
    plays (370 KB); the answer carries the first ``MAX_PLAYS_ANSWERED``, ``total`` and
    ``truncated``."""
    spread = dict.fromkeys((1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 15, 17, 19, 21, 23), 1)
    body = {
        "position": {"mover": side(spread), "opponent": side(not_entered=15)},
        "dice": [1, 1],
        "throw": {"stage": "roll", "earlier_doublets": True},
    }
    answer = plays(client_for(None), "russian", body)
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["truncated"] is True and data["total"] > 1000
    assert len(data["plays"]) == 100 and len(answer.content) < 100_000
    small = plays(client_for(None), "standard", {"dice": [3, 1]}).json()
    assert small["truncated"] is False and small["total"] == len(small["plays"])
