"""A private score link is its player's alone (issue #25, item 1).

A participant asking for the match's score links gets their own link, never the
opponent's; a person whose account is the opponent's cannot act through the other
player's link on any door (API with token or session, the score-link page, the clock
page); and a result is confirmed only by the other player or a director, so nobody
confirms, disputes or undoes on the opponent's behalf. Each refusal writes nothing.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games import score_links
from games.models import Confirmation, Match

pytestmark = pytest.mark.django_db


def links_url(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/score-links/"


def game_url(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/games/"


def test_a_participant_gets_their_own_link_only(
    client_for, alice_user, bob_user, match, alice, bob
):
    for user, player in ((alice_user, alice), (bob_user, bob)):
        response = client_for(user).post(links_url(match))
        assert response.status_code == 200, response.content
        links = response.json()["links"]
        assert [link["player"] for link in links] == [player.pk]
        assert score_links.read_token(links[0]["token"]) == (match.pk, player.pk)


def test_directors_still_get_both_links(client_for, director, match, alice, bob):
    links = client_for(director).post(links_url(match)).json()["links"]
    assert {link["player"] for link in links} == {alice.pk, bob.pk}


def test_alice_cannot_confirm_her_own_result_with_a_link_from_the_api(
    client_for, alice_user, match, alice, bob
):
    """The issue's reproduction: Alice asks for the links, enters the final score and
    confirms it with the link she was given. She holds no link of Bob's to do it with."""
    alice_api = client_for(alice_user)
    tokens = [link["token"] for link in alice_api.post(links_url(match)).json()["links"]]
    assert (
        alice_api.post(
            f"/api/v1/matches/{match.pk}/result/", {"score": [5, 2]}, format="json"
        ).status_code
        == 200
    )
    anon = client_for(None)
    for token in tokens:
        refused = anon.post(f"/api/v1/matches/{match.pk}/confirm/", HTTP_X_SCORE_LINK=token)
        assert refused.status_code == 403, refused.content
        assert refused.json()["code"] == "confirm_own_entry"
    match.refresh_from_db()
    assert match.confirmation == Confirmation.PENDING
    assert match.awaiting_id == bob.pk
    # Bob is still free to dispute it
    disputed = client_for(None).post(
        f"/api/v1/matches/{match.pk}/dispute/",
        {"reason": "It was 5-4."},
        format="json",
        HTTP_X_SCORE_LINK=score_links.make_token(match, bob),
    )
    assert disputed.status_code == 200, disputed.content


@pytest.mark.parametrize("action", ["confirm", "dispute", "undo"])
def test_the_opponents_account_holding_the_other_link_is_refused(
    client_for, alice_user, match, alice, bob, action
):
    """A person who is both (Alice's account, and Bob's link in hand) is refused on the
    API, whatever the write, with a code that says why, and nothing is written."""
    alice_api = client_for(alice_user)
    alice_api.post(f"/api/v1/matches/{match.pk}/result/", {"score": [5, 2]}, format="json")
    before = Match.objects.get(pk=match.pk)
    refused = alice_api.post(
        f"/api/v1/matches/{match.pk}/{action}/",
        {"reason": "no"} if action == "dispute" else {},
        format="json",
        HTTP_X_SCORE_LINK=score_links.make_token(match, bob),
    )
    assert refused.status_code == 403, refused.content
    assert refused.json()["code"] == "link_not_yours"
    after = Match.objects.get(pk=match.pk)
    assert after.version == before.version
    assert after.confirmation == Confirmation.PENDING


def test_the_opponents_account_with_a_knox_token_and_the_other_link_is_refused(
    api_client, alice_user, match, alice, bob
):
    from knox.models import AuthToken

    _, token = AuthToken.objects.create(alice_user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    api_client.post(f"/api/v1/matches/{match.pk}/result/", {"score": [5, 2]}, format="json")
    refused = api_client.post(
        f"/api/v1/matches/{match.pk}/confirm/",
        HTTP_X_SCORE_LINK=score_links.make_token(match, bob),
    )
    assert refused.status_code == 403
    assert refused.json()["code"] == "link_not_yours"


def test_a_director_who_plays_may_still_act_with_the_other_link(
    client_for, club, alice_user, match, alice, bob
):
    club.directors.add(alice_user)
    api = client_for(alice_user)
    api.post(f"/api/v1/matches/{match.pk}/result/", {"score": [5, 2]}, format="json")
    confirmed = api.post(
        f"/api/v1/matches/{match.pk}/confirm/",
        HTTP_X_SCORE_LINK=score_links.make_token(match, bob),
    )
    assert confirmed.status_code == 200, confirmed.content


def test_the_score_link_page_refuses_the_opponents_session(alice_user, match, alice, bob):
    browser = Client()
    browser.force_login(alice_user)
    entered = browser.post(
        f"/score/{score_links.make_token(match, alice)}/",
        {"action": "final", "you": 5, "opponent": 2},
    )
    assert entered.status_code in (200, 302)
    match.refresh_from_db()
    before = match.version
    bobs_page = f"/score/{score_links.make_token(match, bob)}/"
    assert browser.get(bobs_page).status_code == 403
    assert browser.post(bobs_page, {"action": "confirm"}).status_code == 403
    assert browser.get(f"{bobs_page}clock/").status_code == 403
    match.refresh_from_db()
    assert match.version == before
    assert match.confirmation != Confirmation.CONFIRMED


def test_the_match_page_refuses_a_confirm_of_ones_own_entry(alice_user, match, alice, bob):
    browser = Client()
    browser.force_login(alice_user)
    browser.post(f"/matches/{match.pk}/enter/", {"action": "final", "you": 5, "opponent": 2})
    match.refresh_from_db()
    assert match.awaiting_id == bob.pk
    refused = browser.post(f"/matches/{match.pk}/enter/", {"action": "confirm"})
    assert refused.status_code == 400
    match.refresh_from_db()
    assert match.confirmation == Confirmation.PENDING
