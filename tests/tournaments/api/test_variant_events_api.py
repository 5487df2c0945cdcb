"""An event carries its variant (docs/api.md, "Variants"): chosen when it is created (the
API and the new-event page), shown by the API, and given to every match of the event."""

from __future__ import annotations

import pytest

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"


def test_the_variant_reaches_every_match_of_the_event(client_for, director, make_event):
    event = make_event(4, variant="acey-deucey")
    assert event.variant == "acey-deucey"
    variants = {p.match.variant for p in event.pairings.exclude(match=None)}
    assert variants == {"acey-deucey"}
    shown = client_for(director).get(f"{API}{event.slug}/").json()
    assert shown["variant"] == "acey-deucey"


def test_an_event_is_standard_unless_told(client_for, director, club):
    created = client_for(director).post(
        API,
        {"club": club.slug, "name": "Friday", "format": "swiss", "swiss_rounds": 3},
        format="json",
    )
    assert created.status_code == 201, created.content
    assert created.json()["variant"] == "standard"


def test_a_tavli_event_through_the_api(client_for, director, club):
    created = client_for(director).post(
        API,
        {"club": club.slug, "name": "Tavli", "format": "single_elimination", "variant": "tavli"},
        format="json",
    )
    assert created.status_code == 201, created.content
    assert Tournament.objects.get(slug=created.json()["slug"]).variant == "tavli"


def test_an_unknown_variant_is_refused_naming_the_field(client_for, director, club):
    refused = client_for(director).post(
        API,
        {"club": club.slug, "name": "Chess", "format": "single_elimination", "variant": "chess"},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["field"] == "variant"
    assert not Tournament.objects.filter(name="Chess").exists()


def test_the_new_event_page_offers_the_variants(client, director, club):
    client.force_login(director)
    page = client.get(f"/tournaments/new/{club.slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="variant"' in html and 'value="tavli"' in html
    created = client.post(
        f"/tournaments/new/{club.slug}/",
        {
            "name": "Nack Night",
            "format": "single_elimination",
            "length": "5",
            "crawford": "on",
            "rated": "on",
            "variant": "nackgammon",
            "action": "create",
        },
    )
    assert created.status_code == 302, created.content.decode()[:2000]
    assert Tournament.objects.get(name="Nack Night").variant == "nackgammon"
