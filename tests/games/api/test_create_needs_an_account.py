"""Creating anything needs an account: an anonymous caller gets 401 in the JSON error
shape before its body is read, and a private score link (which speaks for one player
of one match) authorises nothing outside its match, least of all a new match."""

from __future__ import annotations

import pytest
from django.apps import apps

from games import score_links

pytestmark = pytest.mark.django_db

#: Every model a create endpoint below could write.
WATCHED = [
    "games.Match",
    "games.Club",
    "games.Player",
    "core.DomainEvent",
    "core.Job",
    "chouette.Session",
    "tournaments.Tournament",
    "tournaments.Entry",
]


def counts() -> dict[str, int]:
    return {name: apps.get_model(name).objects.count() for name in WATCHED}


def bodies(club, alice, bob, carol) -> dict[str, tuple[dict, str]]:
    """A request each endpoint would accept from its rightful caller (path: body, format)."""
    return {
        "/api/v1/matches/": (
            {
                "club": club.slug,
                "player1": alice.pk,
                "player2": carol.pk,
                "length": 3,
                "rated": False,
            },
            "json",
        ),
        "/api/v1/clubs/": ({"name": "Link Club", "slug": "link-club"}, "json"),
        "/api/v1/players/": ({"display_name": "Newcomer", "clubs": [club.slug]}, "json"),
        "/api/v1/chouette/sessions/": (
            {"club": club.slug, "stake": "1.00", "players": [alice.pk, bob.pk, carol.pk]},
            "json",
        ),
        "/api/v1/tournaments/": (
            {"club": club.slug, "name": "Link Open", "format": "single_elimination"},
            "json",
        ),
        "/api/v1/matches/import/": ({"club": club.slug}, "multipart"),
        f"/api/v1/clubs/{club.slug}/results/import/": (
            {"text": "date,winner,loser,length\n2024-01-05,Alice,Bob,5\n"},
            "json",
        ),
        f"/api/v1/clubs/{club.slug}/ratings/recompute/": ({}, "json"),
    }


PATHS = [
    "/api/v1/matches/",
    "/api/v1/clubs/",
    "/api/v1/players/",
    "/api/v1/chouette/sessions/",
    "/api/v1/tournaments/",
    "/api/v1/matches/import/",
    "/api/v1/clubs/{slug}/results/import/",
    "/api/v1/clubs/{slug}/ratings/recompute/",
]


@pytest.fixture
def carol(club):
    from games.services import clubs as club_services

    return club_services.create_player(display_name="Carol", clubs=[club])


@pytest.mark.parametrize("how", ["empty body", "score link"])
@pytest.mark.parametrize("template", PATHS)
def test_anonymous_creates_nothing_and_gets_401(
    client_for, club, make_match, alice, bob, carol, template, how
):
    path = template.format(slug=club.slug)
    body, fmt = bodies(club, alice, bob, carol)[path]
    headers = {}
    if how == "empty body":
        body = {}
    else:  # a live link for one of Alice's own matches, presented for something else
        match = make_match(5)
        headers["HTTP_X_SCORE_LINK"] = score_links.make_token(match, alice)
    before = counts()
    response = client_for(None).post(path, body, format=fmt, **headers)
    assert response.status_code == 401, (path, response.status_code, response.content[:200])
    error = response.json()
    assert error["code"] == "not_authenticated" and error["field"] is None and error["detail"]
    assert counts() == before


def test_a_score_link_still_scores_its_own_match(client_for, make_match, alice):
    """The same link that creates nothing does what it is for, on its match."""
    match = make_match(5)
    token = score_links.make_token(match, alice)
    response = client_for(None).post(
        f"/api/v1/matches/{match.pk}/games/",
        {"winner": alice.pk},
        format="json",
        HTTP_X_SCORE_LINK=token,
    )
    assert response.status_code == 201 and response.json()["score"] == [1, 0]


def test_a_score_link_cannot_write_another_match(client_for, make_match, alice):
    first, second = make_match(5), make_match(5)
    token = score_links.make_token(first, alice)
    response = client_for(None).post(
        f"/api/v1/matches/{second.pk}/games/",
        {"winner": alice.pk},
        format="json",
        HTTP_X_SCORE_LINK=token,
    )
    assert response.status_code == 403
    assert not second.games.exists()
