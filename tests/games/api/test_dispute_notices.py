"""A dispute tells the club's directors (the ``match.disputed`` outbox event)."""

from __future__ import annotations

import pytest
from django.core import mail

from core.models import DomainEvent
from core.outbox import handle_event
from games.selectors import open_disputes
from games.services.addresses import confirm_by_password_link

pytestmark = pytest.mark.django_db


def test_a_dispute_emails_the_directors_with_an_address_once(
    client_for,
    club,
    director,
    make_user,
    alice_user,
    bob_user,
    match,
    alice,
    bob,
    django_capture_on_commit_callbacks,
):
    director.email = "director@example.org"
    director.save()
    confirm_by_password_link(director)
    silent = make_user("silent-director")  # a director without an address gets nothing
    club.directors.add(silent)
    # nor one whose address nobody confirmed (issue 37: a stranger may have typed it)
    club.directors.add(make_user("unconfirmed-director", email="unconfirmed@example.org"))
    client_for(alice_user).post(
        f"/api/v1/matches/{match.pk}/games/", {"winner": alice.pk}, format="json"
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(bob_user).post(
            f"/api/v1/matches/{match.pk}/dispute/",
            {"reason": "I won that game, not Alice."},
            format="json",
        )
    assert response.status_code == 200, response.json()

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["director@example.org"]
    assert f"Match {match.pk} is disputed" in message.subject
    assert "I won that game, not Alice." in message.body
    (dispute,) = open_disputes(club=club)
    assert dispute.directors_notified_at is not None
    event = DomainEvent.objects.get(kind="match.disputed")
    assert event.handled_at is not None

    # handled again (a redelivery): nothing more is sent
    event.handled_at = None
    event.save()
    assert handle_event(event_id=event.pk) == "handled"
    assert len(mail.outbox) == 1


def test_a_resolved_dispute_leaves_the_open_list(
    client_for, club, director, alice_user, bob_user, match, alice
):
    client_for(alice_user).post(
        f"/api/v1/matches/{match.pk}/games/", {"winner": alice.pk}, format="json"
    )
    client_for(bob_user).post(
        f"/api/v1/matches/{match.pk}/dispute/", {"reason": "wrong"}, format="json"
    )
    assert [d.match_id for d in open_disputes(club=club)] == [match.pk]
    response = client_for(director).post(
        f"/api/v1/matches/{match.pk}/resolve/", {"resolution": "checked"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert list(open_disputes(club=club)) == []


def test_each_director_reads_the_dispute_in_their_language(
    client_for,
    club,
    director,
    make_user,
    alice_user,
    bob_user,
    match,
    alice,
    bob,
    django_capture_on_commit_callbacks,
):
    from games.services import clubs as club_services

    club_services.update_club(club=club, language="fr")
    director.email = "director@example.org"
    director.save()
    german = make_user("german-director", email="de@example.org")
    confirm_by_password_link(director)
    confirm_by_password_link(german)
    club.directors.add(german)
    gerd = club_services.create_player(display_name="Gerd", user=german)
    gerd.language = "de"  # picked in the header while signed in
    gerd.save()
    client_for(alice_user).post(
        f"/api/v1/matches/{match.pk}/games/", {"winner": alice.pk}, format="json"
    )
    with django_capture_on_commit_callbacks(execute=True):
        client_for(bob_user).post(
            f"/api/v1/matches/{match.pk}/dispute/", {"reason": "wrong"}, format="json"
        )

    by_address = {m.to[0]: m for m in mail.outbox}
    assert sorted(by_address) == ["de@example.org", "director@example.org"]
    assert f"Le match {match.pk} est contesté" in by_address["director@example.org"].subject
    assert "Motif : wrong" in by_address["director@example.org"].body
    assert f"Einspruch gegen Match {match.pk}" in by_address["de@example.org"].subject
    assert "Grund: wrong" in by_address["de@example.org"].body
