"""Issue 37: a federation's address is confirmed by its owner before the first send.

A director of any club (a stranger) sets the address the federation files go to
(``PUT /api/v1/clubs/{slug}/federation-addresses/`` or the federation page); today's
code then mailed the files to it at once. Now the address gets one mail, a link for
its owner to agree; ``POST .../federation/<body>/send/`` is 409
``federation_address_unconfirmed`` with nothing mailed until the link is followed.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from games.services import clubs as club_services

from .conftest import CONFIRM_LINK

pytestmark = pytest.mark.django_db

SEND = "/api/v1/tournaments/{slug}/federation/{export}/send/"
ADDRESSES = "/api/v1/clubs/{slug}/federation-addresses/"


def test_a_federation_address_gets_nothing_but_its_link_until_its_owner_agrees(
    finished, client_for, director
):
    event, _ids = finished
    api = client_for(director)
    saved = api.put(
        ADDRESSES.format(slug=event.club.slug), {"wbgf": "Results@WBGF.example"}, format="json"
    )
    assert saved.status_code == 200
    (link_mail,) = mail.outbox
    assert link_mail.to == ["Results@WBGF.example"] and link_mail.attachments == []
    path = CONFIRM_LINK.search(str(link_mail.body))[1]
    preview = api.get(f"/api/v1/tournaments/{event.slug}/federation/wbgf/").json()
    assert preview["address_confirmed"] is False

    refused = api.post(SEND.format(slug=event.slug, export="wbgf"))
    assert refused.status_code == 409
    assert refused.json()["code"] == "federation_address_unconfirmed"
    assert refused.json()["field"] == "export" and "Nothing was sent" in refused.json()["detail"]
    assert len(mail.outbox) == 1  # nothing but the link

    owner = Client()
    page = owner.get(path)
    assert page.status_code == 200 and "Test Club asks to send mail" in page.content.decode()
    assert api.post(SEND.format(slug=event.slug, export="wbgf")).status_code == 409  # GET: no
    agreed = owner.post(path)
    assert 'id="confirmed"' in agreed.content.decode()
    sent = api.post(SEND.format(slug=event.slug, export="wbgf"))
    assert sent.status_code == 200 and mail.outbox[-1].attachments

    # a new address starts over: its own link, and no send until its owner agrees
    mail.outbox.clear()
    api.put(ADDRESSES.format(slug=event.club.slug), {"wbgf": "other@wbgf.example"}, format="json")
    assert [m.to for m in mail.outbox] == [["other@wbgf.example"]]
    again = api.post(SEND.format(slug=event.slug, export="wbgf"))
    assert again.status_code == 409 and len(mail.outbox) == 1
    # saving the same address again mails no second link
    api.put(ADDRESSES.format(slug=event.club.slug), {"wbgf": "other@wbgf.example"}, format="json")
    assert len(mail.outbox) == 1


def test_an_owners_yes_is_for_one_club_only(finished, client_for, director, make_user):
    event, _ids = finished
    api = client_for(director)
    api.put(ADDRESSES.format(slug=event.club.slug), {"wbgf": "r@wbgf.example"}, format="json")
    Client().post(CONFIRM_LINK.search(str(mail.outbox[0].body))[1])
    mallory = make_user("mallory")
    theirs = club_services.create_club(created_by=mallory, name="Mallory Club", slug="mallory")
    mail.outbox.clear()
    client_for(mallory).put(
        ADDRESSES.format(slug=theirs.slug), {"wbgf": "R@wbgf.example"}, format="json"
    )
    assert "Mallory Club asks to send you mail" in mail.outbox[0].subject


def test_a_look_alike_federation_address_is_refused_naming_the_export(
    finished, client_for, director
):
    event, _ids = finished
    answer = client_for(director).put(
        ADDRESSES.format(slug=event.club.slug), {"ukbgf": "rаtings@ukbgf.example"}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["field"] == "ukbgf" and "alphabets" in answer.json()["detail"]
    assert mail.outbox == []


def test_a_tampered_link_is_refused_in_words(finished):
    page = Client().get("/addresses/confirm/not-a-real-link/")
    assert page.status_code == 400 and "This link is not valid." in page.content.decode()
