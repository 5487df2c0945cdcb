"""The director's score links for a round: a slip per player with an absolute link and
a server-drawn QR code, closed matches left out, links emailed to those with an
address; only the club's directors get them. And a match of an event links back to it."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from games import score_links
from games.models import Player
from games.services import clubs as club_services
from games.services import match_create
from games.services.actors import actor_for_user
from tests.factories import confirm_address
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db

LINK = re.compile(r'href="(http://testserver/score/([^/"]+)/)"')


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def _round_one(event):
    return Pairing.objects.filter(tournament=event, round__number=1).first().round


def _url(event, round_) -> str:
    return f"/tournaments/{event.slug}/director/rounds/{round_.pk}/links/"


def test_director_gets_a_slip_with_link_and_qr_code_per_player(make_event, browser):
    event = make_event(4)
    round_ = _round_one(event)
    dashboard = browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert f'href="{_url(event, round_)}"' in dashboard  # the way in: the director's page

    response = browser.get(_url(event, round_))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("<svg") == 4  # one QR code per player of the two matches
    links = {token: url for url, token in LINK.findall(html)}
    assert len(links) == 4
    expected = {
        (p.match_id, entry.player_id)
        for p in Pairing.objects.filter(round=round_).select_related("entry1", "entry2")
        for entry in (p.entry1, p.entry2)
    }
    assert {score_links.read_token(t) for t in links} == expected
    assert html.count('class="copy') == 4  # a Copy button per link (shown by the script)
    # each link opens its player's score entry
    token = next(iter(links))
    assert Client().get(f"/score/{token}/").status_code == 200


def test_closed_matches_get_no_links_but_a_note(make_event, browser, win):
    event = make_event(4)
    round_ = _round_one(event)
    done = win(event, "main-r1-m1", 1)  # a director's result: finished and confirmed
    html = browser.get(_url(event, round_)).content.decode()
    assert html.count("<svg") == 2
    assert {score_links.read_token(t)[0] for _, t in LINK.findall(html)} == {
        Pairing.objects.get(tournament=event, key="main-r1-m2").match_id
    }
    assert "No links for 1 closed match" in html
    assert f'href="/matches/{done.pk}/"' in html


def test_only_the_clubs_directors_get_the_links(make_event, make_user, club):
    event = make_event(4)
    url = _url(event, _round_one(event))
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    player_user = make_user("p1-user")
    Player.objects.filter(display_name="P01").update(user=player_user)  # plays round 1
    for user in (player_user, make_user("stranger")):
        client = Client()
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert client.post(url).status_code == 403
    assert mail.outbox == []


def test_email_the_links_to_players_with_an_address(make_event, browser, win, settings):
    settings.SITE_URL = "https://club.example.org"
    event = make_event(6)  # round 1: seeds 1, 2 have byes; 3 v 6 and 4 v 5 play
    round_ = _round_one(event)
    addresses = {"P03": "p3@example.org", "P04": "p4@example.org", "P06": "p6@example.org"}
    for name, address in addresses.items():
        Player.objects.filter(display_name=name).update(email=address)
        confirm_address(event.club, address)
    Player.objects.filter(display_name="P01").update(email="p1@example.org")  # a bye
    response = browser.post(_url(event, round_), follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert sorted(m.to[0] for m in mail.outbox) == sorted(addresses.values())
    by_address = {m.to[0]: m for m in mail.outbox}
    p3 = by_address["p3@example.org"]
    assert "P06" in p3.subject and "5-point match" in p3.body  # opponent, length
    token = re.search(r"https://club\.example\.org/score/([^/\s]+)/", str(p3.body)).group(1)
    p3_player = Player.objects.get(display_name="P03")
    pairing = Pairing.objects.get(round=round_, entry1__player=p3_player)
    assert score_links.read_token(token) == (
        pairing.match_id,
        p3_player.pk,
    )
    assert "Emailed: " in html and "No email address (hand them their slip): P05." in html
    # a finished match's players get nothing
    mail.outbox.clear()
    win(event, pairing.key, 3)
    browser.post(_url(event, round_))
    assert sorted(m.to[0] for m in mail.outbox) == ["p4@example.org"]


def test_a_mail_server_that_refuses_is_a_message_not_a_500(make_event, browser, monkeypatch):
    import smtplib

    event = make_event(4)
    Player.objects.filter(display_name="P01").update(email="p1@example.org")
    confirm_address(event.club, "p1@example.org")

    def refuse(self, messages):
        raise smtplib.SMTPServerDisconnected("connection closed")

    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", refuse)
    response = browser.post(_url(event, _round_one(event)), follow=True)
    assert response.status_code == 200
    assert "The mail server did not take the messages" in response.content.decode()


def test_round_links_page_costs_the_same_for_a_big_round(
    make_event, browser, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    small = make_event(4, name="Small")
    with CaptureQueriesContext(connection) as captured:
        assert browser.get(_url(small, _round_one(small))).status_code == 200
    big = make_event(32, name="Big")
    with django_assert_max_num_queries(len(captured)):
        html = browser.get(_url(big, _round_one(big))).content.decode()
    assert html.count("<svg") == 32


def test_a_match_of_an_event_links_back_to_it(make_event, club, director):
    event = make_event(4)
    pairing = Pairing.objects.get(tournament=event, key="main-r1-m1")
    html = Client().get(f"/matches/{pairing.match_id}/").content.decode()
    assert f'<a href="/tournaments/{event.slug}/">← Club Night</a>' in html
    assert f'<a href="/tournaments/{event.slug}/bracket/">Main round 1</a>' in html
    one, two = (club_services.create_player(display_name=n, clubs=[club]) for n in "XY")
    friendly = match_create.create_match(
        actor=actor_for_user(director), club=club, player1=one, player2=two, length=3
    )
    assert "event-back" not in Client().get(f"/matches/{friendly.pk}/").content.decode()


def test_the_emailed_links_are_in_the_players_language_else_the_clubs(make_event, browser, club):
    from games.services import clubs as club_services

    club_services.update_club(club=club, language="da")
    event = make_event(6)  # round 1: 3 v 6 and 4 v 5 play
    round_ = _round_one(event)
    Player.objects.filter(display_name="P03").update(email="p3@example.org", language="fr")
    Player.objects.filter(display_name="P06").update(email="p6@example.org")
    confirm_address(club, "p3@example.org")
    confirm_address(club, "p6@example.org")
    browser.post(_url(event, round_), follow=True)
    by_address = {m.to[0]: m for m in mail.outbox}
    french, danish = by_address["p3@example.org"], by_address["p6@example.org"]
    assert "votre match contre P06" in french.subject
    assert "un match en 5 points" in french.body and "Bonne chance" in french.body
    assert "din match mod P03" in danish.subject
    assert "en match til 5 point" in danish.body and "Held og lykke!" in danish.body
