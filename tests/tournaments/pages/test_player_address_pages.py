"""Issue 37, "Mail only to who asked", through the pages: a director's walk-in (the
club's page, an event's dashboard) and a player's edit page send a new address one
link and nothing else; the edit page says whose address waits, in words, with a button
to send the link again; a round call emails only confirmed players and, once the link
is followed, the next call reaches them too (eager tasks: the job runs in the test)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tests.factories import confirm_address
from tournaments.models import Entry, Pairing, Round
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/addresses/confirm/[^\s]+/)")


@pytest.fixture
def web(director) -> Client:
    client = Client()
    client.force_login(director)
    return client


def _text(response) -> str:
    return response.content.decode()


def test_a_walk_in_from_the_club_page_gets_one_link_and_the_page_says_so(web, club):
    answer = web.post(
        f"/clubs/{club.slug}/players/add/",
        {"display_name": "Wanda", "email": "wanda@example.org"},
        follow=True,
    )
    assert "A link went to the address" in _text(answer)
    (link,) = mail.outbox
    assert link.to == ["wanda@example.org"] and "asks to send you mail" in link.subject


def test_the_edit_page_says_the_address_waits_and_resends_its_link(web, club):
    wanda = club_services.add_walk_in(club=club, display_name="Wanda", by=_actor(club))
    saved = web.post(
        f"/players/{wanda.slug}/edit/",
        {"display_name": "Wanda", "email": "wanda@example.org", "clubs": [club.pk]},
        follow=True,
    )
    assert "A link went to the address" in _text(saved)
    assert [m.to for m in mail.outbox] == [["wanda@example.org"]]
    page = _text(web.get(f"/players/{wanda.slug}/edit/"))
    assert 'id="address-state"' in page
    assert "waiting for its owner to follow the link mailed to it" in page
    assert "Send the link again" in page
    again = web.post(f"/players/{wanda.slug}/address-link/{club.slug}/", follow=True)
    assert "A link went to the address" in _text(again)
    assert [m.to for m in mail.outbox] == [["wanda@example.org"]] * 2
    Client().post(LINK.search(str(mail.outbox[-1].body))[1])
    page = _text(web.get(f"/players/{wanda.slug}/edit/"))
    assert "confirmed: the club may mail it" in page and "Send the link again" not in page


def test_a_director_of_another_club_cannot_resend(club, make_user):
    wanda = club_services.add_walk_in(
        club=club, display_name="Wanda", email="wanda@example.org", by=_actor(club)
    )
    stranger = make_user("stranger")
    other = club_services.create_club(created_by=stranger, name="Other Club")
    browser = Client()
    browser.force_login(stranger)
    answer = browser.post(f"/players/{wanda.slug}/address-link/{other.slug}/", follow=True)
    assert "is not a member of Other Club" in _text(answer)
    assert browser.post(f"/players/{wanda.slug}/address-link/{club.slug}/").status_code == 404
    assert mail.outbox == []


def test_a_walk_in_from_the_dashboard_gets_one_link(web, club, director):
    night = event_services.create_tournament(
        actor=actor_for_user(director), club=club, name="Thursday", format="single_elimination"
    )
    web.post(
        f"/tournaments/{night.slug}/director/walk-in/",
        {"walkin-display_name": "Wal Kin", "walkin-email": "wal@example.org"},
    )
    assert Entry.objects.filter(tournament=night, player__display_name="Wal Kin").exists()
    assert [m.to for m in mail.outbox] == [["wal@example.org"]]


def _call(web, night, number: int, capture):
    """Call round ``number`` from the dashboard; the notifying job runs after the commit
    (eager tasks, as the suite runs them)."""
    round_id = Round.objects.get(stage__tournament=night, number=number).pk
    with capture(execute=True):
        return web.post(
            f"/tournaments/{night.slug}/director/calls/call/", {"round": round_id}, follow=True
        )


def test_a_round_call_emails_only_confirmed_players_until_the_link_is_followed(
    web, club, director, win, django_capture_on_commit_callbacks
):
    actor = actor_for_user(director)
    night = event_services.create_tournament(
        actor=actor, club=club, name="Thursday", format="single_elimination", seeding="manual"
    )
    players = [
        club_services.add_walk_in(
            club=club, display_name=f"P{n}", email=f"p{n}@example.org", by=actor
        )
        for n in range(4)
    ]
    for player in players:
        entry_services.register_entry(actor=actor, tournament_id=night.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=night.pk)
    for player in players[:2]:
        confirm_address(club, player.email)

    called = _text(_call(web, night, 1, django_capture_on_commit_callbacks))
    assert "2 players have not confirmed their address yet, so were not emailed" in called
    assert "P2" in called and "P3" in called
    assert sorted(m.to[0] for m in mail.outbox) == ["p0@example.org", "p1@example.org"]

    # P2 follows the link the director sends again from the player's page
    mail.outbox.clear()
    web.post(f"/players/{players[2].slug}/address-link/{club.slug}/")
    (link,) = mail.outbox
    assert link.to == ["p2@example.org"]
    Client().post(LINK.search(str(link.body))[1])

    # P2 and P0 win round 1; the next call reaches P2 now, and P3 never heard a thing
    for pairing in Pairing.objects.filter(tournament=night, round__number=1).select_related(
        "entry1__player", "entry2__player"
    ):
        entries = (pairing.entry1, pairing.entry2)
        winner = next(e for e in entries if e.player in (players[0], players[2]))
        win(night, pairing.key, winner.seed)
    mail.outbox.clear()
    called = _text(_call(web, night, 2, django_capture_on_commit_callbacks))
    assert "not confirmed" not in called
    assert sorted(m.to[0] for m in mail.outbox) == ["p0@example.org", "p2@example.org"]


def _actor(club):
    return actor_for_user(club.directors.first())
