"""Each house rule is declared once (``chouette.rules.HOUSE_RULES``) and reaches every layer.

For every declared rule: the pure rules know it (a field of ``ChouetteRules`` or of
``MoneyRules``), the Session stores it, the OpenAPI schema states its bounds, the
API takes and echoes a value that is not the default, the open-session page takes
it too, and the stored session plays under it. Adding a rule to the declaration is
then the one edit: a rule this file cannot push through every door fails here.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum

import pytest
from django.db import models
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from chouette.forms import OpenSessionForm
from chouette.models import Session
from chouette.records import RULE_FIELDS, build_rules, session_rules
from chouette.rules import HOUSE_RULES, ChouetteRules, HouseRule
from games.rules import limits
from games.rules.money import MoneyRules
from tests.chouette.helpers import client, make_table, sessions_url

pytestmark = pytest.mark.django_db

RULES = pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda rule: rule.name)
NUMBER_RULES = pytest.mark.parametrize(
    "rule", [r for r in HOUSE_RULES if r.kind is int], ids=lambda rule: rule.name
)


def _other_value(rule: HouseRule) -> bool | int | str:
    """A valid value that is not the modern default (an integer rule's maximum, so the
    column is shown to hold the largest value the API accepts)."""
    if rule.kind is bool:
        return not rule.default
    if rule.offered:
        return next(value for value in rule.offered if value != rule.default)
    if rule.kind is int:
        assert rule.maximum is not None
        return rule.maximum
    return next(value for value, _ in rule.choices if value != rule.default)


def _rule_value(rules: ChouetteRules, rule: HouseRule) -> object:
    value = getattr(rules.money if rule.money else rules, rule.name)
    return value.value if isinstance(value, StrEnum) else value


def test_the_declaration_is_every_field_of_the_pure_rules():
    chouette = {f.name for f in dataclasses.fields(ChouetteRules)} - {"money"}
    money = {f.name for f in dataclasses.fields(MoneyRules)}
    assert {r.name for r in HOUSE_RULES if not r.money} == chouette
    assert {r.name for r in HOUSE_RULES if r.money} == money
    assert sorted(RULE_FIELDS) == sorted(r.name for r in HOUSE_RULES)


@RULES
def test_the_session_column_stores_the_rule(rule):
    column = Session._meta.get_field(rule.name)
    assert isinstance(column, models.Field)
    assert column.null is rule.nullable
    if rule.default is None:
        assert not column.has_default()
    else:
        assert column.default == rule.default
    if rule.kind is bool:
        assert isinstance(column, models.BooleanField)
    elif rule.kind is int:
        assert isinstance(column, models.PositiveSmallIntegerField | models.PositiveIntegerField)
        ceiling = (
            limits.MAX_INT16
            if isinstance(column, models.PositiveSmallIntegerField)
            else limits.MAX_INT32
        )
        assert rule.minimum is not None and rule.maximum is not None
        assert rule.minimum >= 0 and rule.maximum <= ceiling
    else:
        assert list(column.choices) == list(rule.choices)
        assert column.max_length == rule.max_length


@RULES
def test_the_api_schema_states_the_rule(rule):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    properties = schema["components"]["schemas"]["HouseRulesRequest"]["properties"]
    field = properties[rule.name]
    if rule.kind is bool:
        assert field["type"] == "boolean"
    elif rule.kind is int:
        assert field["type"] == "integer"
        assert (field["minimum"], field["maximum"]) == (rule.minimum, rule.maximum)
        assert field.get("nullable", False) is rule.nullable
    else:
        enum = schema["components"]["schemas"][field["$ref"].rsplit("/", 1)[1]]["enum"]
        assert enum == [value for value, _ in rule.choices]


@RULES
def test_the_api_takes_the_rule_and_the_session_plays_under_it(rule, club, director):
    table = make_table(club, count=4, accounts=0)
    value = _other_value(rule)
    body = {
        "club": club.slug,
        "stake": "1.00",
        "players": [p.pk for p in table.values()],
        "rules": {rule.name: value},
    }
    response = client(director).post(sessions_url(), body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["rules"][rule.name] == value
    session = Session.objects.get(pk=response.json()["id"])
    assert getattr(session, rule.name) == value
    assert _rule_value(session_rules(session), rule) == value
    assert _rule_value(build_rules("modern", {rule.name: value}), rule) == value


@NUMBER_RULES
def test_the_api_refuses_a_value_above_the_declared_bound(rule, club, director):
    table = make_table(club, count=4, accounts=0)
    assert rule.maximum is not None
    body = {
        "club": club.slug,
        "stake": "1.00",
        "players": [p.pk for p in table.values()],
        "rules": {rule.name: rule.maximum + 1},
    }
    response = client(director).post(sessions_url(), body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == f"rules.{rule.name}"
    assert not Session.objects.exists()


def _page_post(rule: HouseRule, value: object, table: dict) -> dict:
    """The open-session page's POST with the modern rules and ``value`` for ``rule``
    (an unticked checkbox is absent, as a browser sends it)."""
    data: dict = {"stake": "1.00", "currency": "EUR", "profile": "modern", "order_from": "seats"}
    for index, player in enumerate(table.values(), start=1):
        data[f"p{player.pk}_seat"] = str(index)
    for each in HOUSE_RULES:
        chosen = value if each is rule else each.default
        if each.kind is bool:
            if chosen:
                data[each.name] = "on"
        else:
            data[each.name] = "" if chosen is None else str(chosen)
    return data


@RULES
def test_the_open_page_takes_the_rule(rule, club, director):
    table = make_table(club, count=4, accounts=0)
    assert OpenSessionForm(list(table.values())).fields[rule.name].label == rule.label
    value = _other_value(rule)
    browser = Client()
    browser.force_login(director)
    response = browser.post(f"/chouette/clubs/{club.slug}/open/", _page_post(rule, value, table))
    assert response.status_code == 302, response.content.decode()[:2000]
    session = Session.objects.get()
    assert getattr(session, rule.name) == value
    assert _rule_value(session_rules(session), rule) == value


def test_the_open_page_refuses_a_cube_limit_beyond_the_column(club, director):
    """The form reads the API's bound: a cube limit of 2**21 (a power of two, so the
    rules would take it) is refused on the field instead of reaching the column."""
    table = make_table(club, count=4, accounts=0)
    rule = next(r for r in HOUSE_RULES if r.name == "cube_limit")
    browser = Client()
    browser.force_login(director)
    data = _page_post(rule, 2**21, table)
    response = browser.post(f"/chouette/clubs/{club.slug}/open/", data)
    assert response.status_code == 400
    assert f"less than or equal to {limits.MAX_CUBE}" in response.content.decode()
    assert not Session.objects.exists()
