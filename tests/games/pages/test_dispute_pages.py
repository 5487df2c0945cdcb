"""Disputes on the pages: a player disputes from the match page (or a score link) with
a reason; the club's directors see it on the club page and rule from the match page;
the players see the ruling and its note. Everything through Django's test client."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import score_links
from games.models import Dispute, Match
from games.services import clubs as club_services
from games.services import match_records, score_entry
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def entered(match, alice_user, alice):
    """Alice entered game 1 (she won it); Bob has to confirm or dispute it."""
    score_entry.record_game(
        actor=actor_for_user(alice_user),
        match_id=match.pk,
        game=match_records.GameInput(winner_id=alice.pk),
    )
    return match


@pytest.fixture
def disputed(entered, bob_user):
    response = _signed_in(bob_user).post(
        f"/matches/{entered.pk}/dispute/", {"reason": "I won game 1 with a gammon."}
    )
    assert response.status_code == 302
    return entered


def test_a_player_disputes_with_a_reason_and_the_match_page_shows_it(entered, bob_user, alice_user):
    bob = _signed_in(bob_user)
    page = bob.get(f"/matches/{entered.pk}/").content.decode()
    assert f'action="/matches/{entered.pk}/dispute/"' in page
    # Alice entered it: she confirms nothing and disputes nothing
    assert "/dispute/" not in _signed_in(alice_user).get(f"/matches/{entered.pk}/").content.decode()

    empty = bob.post(f"/matches/{entered.pk}/dispute/", {"reason": "  "})
    assert empty.status_code == 400
    html = empty.content.decode()
    assert 'id="id_reason-error"' in html and "Say what is wrong" in html
    assert not Dispute.objects.exists()
    assert Match.objects.get(pk=entered.pk).confirmation == "pending"

    done = bob.post(f"/matches/{entered.pk}/dispute/", {"reason": "I won game 1 with a gammon."})
    assert done.status_code == 302 and done["Location"].endswith(f"/matches/{entered.pk}/#dispute")
    for viewer in (bob, _signed_in(alice_user)):
        html = viewer.get(f"/matches/{entered.pk}/").content.decode()
        assert 'id="dispute"' in html
        assert "I won game 1 with a gammon." in html
        assert "<strong>Bob</strong> disputed the entry" in html
        assert ">open</span>" in html
    # the public sees the tag, not the players' argument
    public = Client().get(f"/matches/{entered.pk}/").content.decode()
    assert "disputed</span>" in public and "with a gammon" not in public


def test_a_second_dispute_is_refused_with_the_rule(disputed, bob_user):
    again = _signed_in(bob_user).post(f"/matches/{disputed.pk}/dispute/", {"reason": "And again"})
    assert again.status_code == 400
    assert "nothing_to_dispute" in again.content.decode()
    assert Dispute.objects.count() == 1


def test_the_opponent_disputes_through_the_score_link(entered, bob, alice, director):
    link = f"/score/{score_links.make_token(entered, bob)}/"
    empty = Client().post(link, {"action": "dispute", "reason": ""})
    assert 'id="id_reason-error"' in empty.content.decode()
    assert not Dispute.objects.exists()
    assert (
        Client().post(link, {"action": "dispute", "reason": "Game 1 was mine."}).status_code == 302
    )
    page = Client().get(link).content.decode()
    assert "Game 1 was mine." in page and ">open</span>" in page
    _signed_in(director).post(
        f"/matches/{entered.pk}/resolve/",
        {"decision": "void", "note": "Alice's sheet is blank.", "confirm": "1"},
    )
    # the match is void, so the links have expired; their holders still read the ruling
    for player in (bob, alice):
        expired = Client().get(f"/score/{score_links.make_token(entered, player)}/")
        assert expired.status_code == 403
        html = expired.content.decode()
        assert "has expired" in html and "Match voided" in html
        assert "Alice&#x27;s sheet is blank." in html
    forged = Client().get("/score/not-a-token/").content.decode()
    assert "sheet is blank" not in forged


def test_directors_see_open_disputes_on_the_club_page_with_a_count(
    disputed, director, club, make_match, alice_user, bob_user, alice
):
    second = make_match(3)
    score_entry.record_game(
        actor=actor_for_user(bob_user),
        match_id=second.pk,
        game=match_records.GameInput(winner_id=second.player2_id),
    )
    _signed_in(alice_user).post(f"/matches/{second.pk}/dispute/", {"reason": "Bob misread"})
    html = _signed_in(director).get(f"/clubs/{club.slug}/").content.decode()
    assert "Open disputes (2)" in html
    assert "I won game 1 with a gammon." in html and "Bob misread" in html
    assert html.count(f'href="/matches/{disputed.pk}/#dispute"') >= 1
    assert f'href="/matches/{second.pk}/#dispute"' in html
    assert re.search(r">just now\s*</time>", html)  # raised a moment ago
    # players do not get the directors' list
    assert (
        "Open disputes" not in _signed_in(alice_user).get(f"/clubs/{club.slug}/").content.decode()
    )
    assert "Open disputes" not in Client().get(f"/clubs/{club.slug}/").content.decode()


def test_resolve_keep_and_the_players_see_the_note(disputed, director, bob_user, club):
    director_client = _signed_in(director)
    page = director_client.get(f"/matches/{disputed.pk}/").content.decode()
    assert f'action="/matches/{disputed.pk}/resolve/"' in page and 'href="#corrections"' in page
    response = director_client.post(
        f"/matches/{disputed.pk}/resolve/",
        {"decision": "keep", "note": "The score sheet shows a single game."},
    )
    assert response.status_code == 302
    match = Match.objects.get(pk=disputed.pk)
    assert match.confirmation == "confirmed" and match.status == "in_progress"
    html = _signed_in(bob_user).get(f"/matches/{disputed.pk}/").content.decode()
    assert "Result kept as entered" in html
    assert "The score sheet shows a single game." in html and ">resolved</span>" in html
    assert "Open disputes" not in director_client.get(f"/clubs/{club.slug}/").content.decode()


def test_resolve_needs_a_note_next_to_the_field(disputed, director):
    response = _signed_in(director).post(
        f"/matches/{disputed.pk}/resolve/", {"decision": "keep", "note": ""}
    )
    assert response.status_code == 400
    assert 'id="id_note-error"' in response.content.decode()
    assert Dispute.objects.get().status == "open"


def test_resolve_void_asks_first(disputed, director, alice_user):
    client = _signed_in(director)
    body = {"decision": "void", "note": "Nobody kept score: replay it next week."}
    asked = client.post(f"/matches/{disputed.pk}/resolve/", body)
    assert asked.status_code == 200
    html = asked.content.decode()
    assert "Yes, void the match" in html and 'name="confirm" value="1"' in html
    assert Match.objects.get(pk=disputed.pk).status != "void"
    assert Dispute.objects.get().status == "open"

    done = client.post(f"/matches/{disputed.pk}/resolve/", {**body, "confirm": "1"})
    assert done.status_code == 302
    match = Match.objects.get(pk=disputed.pk)
    assert match.status == "void" and match.winner_id is None
    seen = _signed_in(alice_user).get(f"/matches/{disputed.pk}/").content.decode()
    assert "Match voided" in seen and "replay it next week" in seen


def test_only_the_clubs_directors_resolve(disputed, alice_user, bob_user, make_user):
    other = make_user("elsewhere")
    club_services.create_club(created_by=other, name="Other", slug="other")
    body = {"decision": "keep", "note": "Mine to rule."}
    url = f"/matches/{disputed.pk}/resolve/"
    anonymous = Client().post(url, body)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    for user in (alice_user, bob_user, other):
        assert _signed_in(user).post(url, body).status_code == 404
        page = _signed_in(user).get(f"/matches/{disputed.pk}/").content.decode()
        assert f'action="{url}"' not in page
    assert Dispute.objects.get().status == "open"
    assert Match.objects.get(pk=disputed.pk).confirmation == "disputed"
