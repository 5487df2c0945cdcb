"""Ratings per variant (docs/ratings.md, "Variants"): a club rates a variant on a list of
its own, or not at all (the default, as the UKBGF leaves nackgammon unrated); a
variant's result never reaches the club's standard list or the site list."""

from __future__ import annotations

import pytest

from games.models import Rating, RatingChange, RatingList
from games.services import match_create, score_entry
from games.services import ratings as rating_services
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db


def finish(director, club, winner, loser, capture, variant="standard"):
    actor = actor_for_user(director)
    with capture(execute=True):
        match = match_create.create_match(
            actor=actor, club=club, player1=winner, player2=loser, length=3, variant=variant
        )
        score_entry.record_final_score(actor=actor, match_id=match.pk, score=(3, 0))
    return match


def standard_lists():
    return sorted(
        (r.rating_list_id, r.player_id, r.rating, r.matches_played)
        for r in Rating.objects.filter(rating_list__variant="standard")
    )


def test_an_unrated_variant_moves_no_list(
    client_for, club, director, alice, bob, django_capture_on_commit_callbacks
):
    finish(director, club, alice, bob, django_capture_on_commit_callbacks)
    before = standard_lists()
    finish(director, club, bob, alice, django_capture_on_commit_callbacks, "acey-deucey")
    assert standard_lists() == before
    assert not RatingList.objects.exclude(variant="standard").exists()
    body = client_for(None).get(f"/api/v1/clubs/{club.slug}/ratings/?variant=acey-deucey")
    assert body.status_code == 400 and body.json()["code"] == "variant_unrated"
    assert body.json()["field"] == "variant"


def test_a_rated_variant_has_its_own_list_and_leaves_the_standard_one(
    client_for, club, director, alice, bob, django_capture_on_commit_callbacks
):
    finish(director, club, alice, bob, django_capture_on_commit_callbacks)
    # a match of tavli finished before the club rated tavli: its list starts with it
    finish(director, club, bob, alice, django_capture_on_commit_callbacks, "tavli")
    client = client_for(director)
    patched = client.patch(
        f"/api/v1/clubs/{club.slug}/", {"rated_variants": ["tavli"]}, format="json"
    )
    assert patched.status_code == 200, patched.content
    assert patched.json()["rated_variants"] == ["tavli"]
    before = standard_lists()
    finish(director, club, bob, alice, django_capture_on_commit_callbacks, "tavli")
    assert standard_lists() == before  # the club's standard list and the site list
    tavli = client_for(None).get(f"/api/v1/clubs/{club.slug}/ratings/?variant=tavli").json()
    assert tavli["list"]["variant"] == "tavli"
    assert [(r["player"]["display_name"], r["matches_played"]) for r in tavli["results"]] == [
        ("Bob", 2),
        ("Alice", 2),
    ]
    standard = client_for(None).get(f"/api/v1/clubs/{club.slug}/ratings/").json()
    assert [r["matches_played"] for r in standard["results"]] == [1, 1]
    # a full recomputation keeps the lists apart too
    rating_services.recompute_all_lists()
    assert standard_lists() == before
    assert RatingChange.objects.filter(rating_list__variant="tavli").count() == 4


def test_the_settings_page_marks_variants_rated(client, club, director):
    client.force_login(director)
    page = client.get(f"/clubs/{club.slug}/settings/")
    assert page.status_code == 200
    assert 'value="acey-deucey"' in page.content.decode()
    posted = client.post(
        f"/clubs/{club.slug}/settings/",
        {
            "time_zone": club.time_zone,
            "language": club.language,
            "rated_variants": ["nackgammon", "acey-deucey"],
            "rated_variants_sent": "True",
        },
    )
    assert posted.status_code == 302, posted.content
    club.refresh_from_db()
    assert club.rated_variants == ["nackgammon", "acey-deucey"]
    # a form without the block (an older page) keeps the choice
    client.post(f"/clubs/{club.slug}/settings/", {"time_zone": club.time_zone})
    club.refresh_from_db()
    assert club.rated_variants == ["nackgammon", "acey-deucey"]


def test_the_standard_list_cannot_be_named_a_variant(client_for, club, director):
    refused = client_for(director).patch(
        f"/api/v1/clubs/{club.slug}/", {"rated_variants": ["standard"]}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["field"] == "rated_variants"
