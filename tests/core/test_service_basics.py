"""Health, schema, docs and pages answer."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Club, Player

pytestmark = pytest.mark.django_db


def test_healthz_reports_every_part(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "cache", "broker"}


def test_openapi_schema_and_docs(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/v1/clubs/" in schema.json()["paths"]
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"cdn" not in docs.content.lower()


def test_home_lists_clubs(client, club):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Test Club" in response.content


def test_seed_demo_is_idempotent():
    call_command("seed_demo")
    clubs, players = Club.objects.count(), Player.objects.count()
    call_command("seed_demo")
    assert (Club.objects.count(), Player.objects.count()) == (clubs, players)
    assert players >= 8
