"""Rate limits that fit a venue (issue #26, item 3): score entry is limited per score
link (its match and player) or per account and match, never per client address, so a
room of phones behind one Wi-Fi address plays on; the address counts only failed
attempts (forged or unknown links, bad tokens, no credentials), which stay limited."""

from __future__ import annotations

import pytest
from django.core.cache import cache as default_cache
from django.test import Client, override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games import score_links
from games.services import clubs as club_services
from games.services import match_create
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db

LOCMEM = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "venue-rate-limits",
    }
}
VENUE = "203.0.113.7"  # every phone of the room behind the venue's one address


@pytest.fixture(autouse=True)
def _own_cache():
    """Rate-limit counters in a private cache: never the shared Redis of a test run."""
    with override_settings(CACHES=LOCMEM):
        default_cache.clear()
        yield
        default_cache.clear()


@pytest.fixture
def low_rates(monkeypatch):
    """DRF binds the rates at import; the test lowers them where the throttles read."""
    rates = dict(SimpleRateThrottle.THROTTLE_RATES)
    rates.update({"score": "5/min", "score_failed": "3/min"})
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


def phone() -> APIClient:
    return APIClient(REMOTE_ADDR=VENUE)


def _matches(club, director, count: int):
    actor = actor_for_user(director)
    players = [
        club_services.create_player(display_name=f"Player {n}", clubs=[club])
        for n in range(2 * count)
    ]
    return [
        match_create.create_match(
            actor=actor, club=club, player1=players[2 * n], player2=players[2 * n + 1], length=7
        )
        for n in range(count)
    ]


def test_a_hundred_links_behind_one_address_are_never_throttled(low_rates, club, director):
    """Fifty matches, a hundred private links, one address: each link enters a game and
    confirms the opponent's (a human's pace, within the link's own budget of 5 a
    minute here), 200 writes in all from one address, which a per-address limit of
    the same rate would have refused from the sixth on; none is refused."""
    statuses = []
    for match in _matches(club, director, 50):
        links = [score_links.make_token(match, p) for p in (match.player1, match.player2)]
        for n in range(2):
            enterer, confirmer = links[n], links[1 - n]
            entered = phone().post(
                f"/api/v1/matches/{match.pk}/games/",
                {"winner": (match.player1_id, match.player2_id)[n], "number": n + 1},
                format="json",
                HTTP_X_SCORE_LINK=enterer,
            )
            confirmed = phone().post(
                f"/api/v1/matches/{match.pk}/confirm/", HTTP_X_SCORE_LINK=confirmer
            )
            statuses += [entered.status_code, confirmed.status_code]
    assert len(statuses) == 200
    assert set(statuses) <= {200, 201}, sorted(set(statuses))


def test_accounts_behind_one_address_each_have_their_own_budget(
    low_rates, club, director, make_user
):
    matches = _matches(club, director, 4)
    for match in matches:
        for player in (match.player1, match.player2):
            player.user = make_user()
            player.save()
    for match in matches:  # eight accounts, four writes each: 32 > 5 from one address
        for player in (match.player1, match.player2):
            api = phone()
            api.force_authenticate(player.user)
            for _ in range(4):
                response = api.post(f"/api/v1/matches/{match.pk}/clock/pause/")
                assert response.status_code == 409, response.content  # no clock: not 429


def test_one_link_hammering_gets_429_with_retry_after(low_rates, club, director):
    hammered, other = _matches(club, director, 2)
    link = score_links.make_token(hammered, hammered.player1)
    statuses = [
        phone().post(f"/api/v1/matches/{hammered.pk}/undo/", HTTP_X_SCORE_LINK=link).status_code
        for _ in range(5)
    ]
    assert 429 not in statuses
    refused = phone().post(f"/api/v1/matches/{hammered.pk}/undo/", HTTP_X_SCORE_LINK=link)
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
    # the clock's writes share the link's budget
    clock = phone().post(f"/api/v1/matches/{hammered.pk}/clock/pause/", HTTP_X_SCORE_LINK=link)
    assert clock.status_code == 429
    # the opponent's link and another match's links are not slowed down
    opponent = score_links.make_token(hammered, hammered.player2)
    assert (
        phone().post(f"/api/v1/matches/{hammered.pk}/undo/", HTTP_X_SCORE_LINK=opponent).status_code
        != 429
    )
    fresh = score_links.make_token(other, other.player1)
    assert (
        phone().post(f"/api/v1/matches/{other.pk}/undo/", HTTP_X_SCORE_LINK=fresh).status_code
        != 429
    )


def test_failed_link_guesses_from_one_address_are_limited(low_rates, club, director):
    match, other = _matches(club, director, 2)
    guesses = [
        phone()
        .post(f"/api/v1/matches/{match.pk}/confirm/", HTTP_X_SCORE_LINK=f"guess-{n}")
        .status_code
        for n in range(3)
    ]
    assert guesses == [403, 403, 403]
    refused = phone().post(f"/api/v1/matches/{match.pk}/confirm/", HTTP_X_SCORE_LINK="guess-4")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    # a link for another match is a failure too; the pages share the budget
    assert Client(REMOTE_ADDR=VENUE).get("/score/guess-5/").status_code == 429
    # another address is not held back, and a valid link is never counted as a guess
    elsewhere = APIClient(REMOTE_ADDR="198.51.100.1")
    link = score_links.make_token(other, other.player1)
    assert (
        elsewhere.post(f"/api/v1/matches/{match.pk}/confirm/", HTTP_X_SCORE_LINK=link).status_code
        == 403
    )
    assert (
        elsewhere.post(f"/api/v1/matches/{other.pk}/undo/", HTTP_X_SCORE_LINK=link).status_code
        == 409
    )


def test_bad_tokens_from_one_address_are_limited(low_rates, match):
    api = phone()
    api.credentials(HTTP_AUTHORIZATION="Token " + "x" * 64)
    statuses = [api.post(f"/api/v1/matches/{match.pk}/confirm/").status_code for _ in range(4)]
    assert statuses == [401, 401, 401, 429]


def test_link_guesses_on_the_pages_are_limited(low_rates, match):
    browser = Client(REMOTE_ADDR=VENUE)
    assert [browser.get(f"/score/guess-{n}/").status_code for n in range(3)] == [403] * 3
    refused = browser.get("/score/guess-4/clock/")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0


def test_forged_links_from_the_venue_do_not_lock_its_valid_links_out(low_rates, club, director):
    """Issue #37, item 4: one phone sends 30 forged ``X-Score-Link`` values from the
    venue's address; every honest phone there still enters its score, by the API and
    by the link's page, while the forger stays refused."""
    match, other = _matches(club, director, 2)
    forged = [
        phone()
        .post(f"/api/v1/matches/{match.pk}/games/", {"winner": 1}, HTTP_X_SCORE_LINK=f"forged-{n}")
        .status_code
        for n in range(30)
    ]
    assert forged[:3] == [403] * 3 and set(forged[3:]) == {429}
    link = score_links.make_token(match, match.player1)
    entered = phone().post(
        f"/api/v1/matches/{match.pk}/games/",
        {"winner": match.player1_id, "number": 1},
        format="json",
        HTTP_X_SCORE_LINK=link,
    )
    assert entered.status_code == 201, entered.content
    page = Client(REMOTE_ADDR=VENUE).get(f"/score/{score_links.make_token(other, other.player2)}/")
    assert page.status_code == 200
    # the forger (no signed link) is still refused, on the API and on the pages
    assert phone().post(f"/api/v1/matches/{match.pk}/confirm/").status_code == 429
    assert Client(REMOTE_ADDR=VENUE).get("/score/forged-31/").status_code == 429


def test_a_valid_token_from_the_venue_is_not_locked_out_by_bad_tokens(low_rates, match, make_user):
    bad = phone()
    bad.credentials(HTTP_AUTHORIZATION="Token " + "x" * 64)
    assert [bad.post(f"/api/v1/matches/{match.pk}/confirm/").status_code for _ in range(4)] == [
        401,
        401,
        401,
        429,
    ]
    match.player1.user = make_user()
    match.player1.save()
    from tests.factories import token_for

    good = phone()
    good.credentials(HTTP_AUTHORIZATION="Token " + token_for(match.player1.user)[1])
    assert good.post(f"/api/v1/matches/{match.pk}/clock/pause/").status_code == 409  # not 429
