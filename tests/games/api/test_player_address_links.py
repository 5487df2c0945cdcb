"""Issue 37, "Mail only to who asked": an address a director sets for a player gets one
mail, the club's link asking its owner to agree, and nothing else until they follow it.

Through the API doors that set an address: a player made (``POST /api/v1/players/``),
changed (``PATCH /api/v1/players/{id}/``), a club's walk-in (``POST
/api/v1/clubs/{slug}/players/``), and the director's resend
(``POST /api/v1/clubs/{slug}/players/{id}/address-link/``).
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from games.models import Player
from games.selectors_addresses import may_mail_player
from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tests.factories import confirm_address

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/addresses/confirm/[^\s]+/)")


@pytest.fixture(autouse=True)
def _own_cache(own_cache):
    """Rate limits and mail caps count in a cache of this test's own."""


@pytest.fixture
def api(client_for, director):
    return client_for(director)


def _link_path(message) -> str:
    found = LINK.search(str(message.body))
    assert found, message.body
    return found[1]


def test_a_new_players_address_gets_one_link_and_nothing_else(api, club):
    made = api.post(
        "/api/v1/players/",
        {"display_name": "Carol", "clubs": [club.slug], "email": "Carol@Example.org"},
        format="json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["email"] == "Carol@Example.org"
    assert made.json()["address_link"]["state"] == "sent"
    (link,) = mail.outbox
    assert link.to == ["Carol@Example.org"]
    assert "Test Club asks to send you mail" in link.subject
    assert LINK.search(str(link.body))
    carol = Player.objects.get(pk=made.json()["id"])
    assert not may_mail_player(club, carol)


def test_changing_an_address_asks_the_new_one_once_and_the_same_address_again_not(
    api, club, make_user
):
    walk_in = club_services.add_walk_in(club=club, display_name="Dora", by=_actor(club))
    changed = api.patch(
        f"/api/v1/players/{walk_in.pk}/", {"email": "dora@example.org"}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["address_link"]["state"] == "sent"
    assert [m.to for m in mail.outbox] == [["dora@example.org"]]
    again = api.patch(
        f"/api/v1/players/{walk_in.pk}/",
        {"email": "dora@example.org", "display_name": "Dora B"},
        format="json",
    )
    assert again.json()["address_link"]["state"] == "none"
    assert len(mail.outbox) == 1


def test_an_address_confirmed_for_the_club_gets_no_link(api, club):
    confirm_address(club, "eve@example.org")
    made = api.post(
        f"/api/v1/clubs/{club.slug}/players/",
        {"display_name": "Eve", "email": "EVE@example.org"},
        format="json",
    )
    assert made.status_code == 201
    assert made.json()["address_link"]["state"] == "confirmed"
    assert mail.outbox == []


def test_a_look_alike_address_is_refused_before_anything_is_written(api, club):
    answer = api.post(
        f"/api/v1/clubs/{club.slug}/players/",
        {"display_name": "Ivan", "email": "vаsya@example.org"},  # a Cyrillic а
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["field"] == "email"
    assert not Player.objects.filter(display_name="Ivan").exists() and mail.outbox == []


def test_a_spent_cap_saves_the_walk_in_and_holds_the_link_back_saying_so(api, club, settings):
    settings.MAIL_CAP_CLUB_PER_HOUR = 1
    first = api.post(
        f"/api/v1/clubs/{club.slug}/players/",
        {"display_name": "Fay", "email": "fay@example.org"},
        format="json",
    )
    held = api.post(
        f"/api/v1/clubs/{club.slug}/players/",
        {"display_name": "Gus", "email": "gus@example.org"},
        format="json",
    )
    assert first.json()["address_link"]["state"] == "sent"
    assert held.status_code == 201, held.content
    assert held.json()["email"] == "gus@example.org"
    link = held.json()["address_link"]
    assert link["state"] == "cap_reached" and link["retry_after"] > 0
    assert "mail cap held its link back" in link["detail"]
    assert [m.to for m in mail.outbox] == [["fay@example.org"]]
    resend = api.post(f"/api/v1/clubs/{club.slug}/players/{held.json()['id']}/address-link/")
    assert resend.status_code == 429 and resend.json()["code"] == "mail_cap_reached"
    assert len(mail.outbox) == 1


def test_the_director_resends_the_link_and_following_it_confirms(api, club):
    gus = club_services.add_walk_in(
        club=club, display_name="Gus", email="gus@example.org", by=_actor(club)
    )
    sent = api.post(f"/api/v1/clubs/{club.slug}/players/{gus.pk}/address-link/")
    assert sent.status_code == 200 and sent.json()["state"] == "sent"
    (link,) = mail.outbox
    assert link.to == ["gus@example.org"]
    assert Client().post(_link_path(link)).status_code == 200
    assert may_mail_player(club, gus)
    again = api.post(f"/api/v1/clubs/{club.slug}/players/{gus.pk}/address-link/")
    assert again.status_code == 409 and again.json()["code"] == "address_confirmed_already"
    assert len(mail.outbox) == 1


def test_resending_is_refused_in_the_error_shape(api, club, client_for, make_user):
    bare = club_services.add_walk_in(club=club, display_name="Hal", by=_actor(club))
    no_email = api.post(f"/api/v1/clubs/{club.slug}/players/{bare.pk}/address-link/")
    assert no_email.status_code == 400
    assert no_email.json()["code"] == "player_has_no_email"
    assert no_email.json()["field"] == "player"
    stranger = make_user("stranger")
    other = club_services.create_club(created_by=stranger, name="Other Club")
    outsider = club_services.add_walk_in(
        club=other, display_name="Ola", email="ola@example.org", by=_actor(other, stranger)
    )
    mine = api.post(f"/api/v1/clubs/{club.slug}/players/{outsider.pk}/address-link/")
    assert mine.status_code == 403 and mine.json()["code"] == "player_not_in_club"
    theirs = client_for(stranger).post(f"/api/v1/clubs/{club.slug}/players/{bare.pk}/address-link/")
    assert theirs.status_code == 403
    assert mail.outbox == []


def _actor(club, user=None):
    return actor_for_user(user or club.directors.first())
