"""Resolving a dispute through the API: the decision (keep, corrected, void) and the
note the players see; a body without a decision keeps the result, as before."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Dispute

pytestmark = pytest.mark.django_db


@pytest.fixture
def disputed(client_for, alice_user, bob_user, match, alice):
    assert (
        client_for(alice_user)
        .post(f"/api/v1/matches/{match.pk}/games/", {"winner": alice.pk}, format="json")
        .status_code
        == 201
    )
    response = client_for(bob_user).post(
        f"/api/v1/matches/{match.pk}/dispute/", {"reason": "I won game 1"}, format="json"
    )
    assert response.status_code == 200
    return match


def _resolve(client, match, body):
    return client.post(f"/api/v1/matches/{match.pk}/resolve/", body, format="json")


def test_without_a_decision_the_result_is_kept(client_for, director, disputed, bob_user):
    response = _resolve(client_for(director), disputed, {"resolution": "Alice won it."})
    assert response.status_code == 200
    body = response.json()
    assert body["confirmation"] == "confirmed" and body["score"] == [1, 0]
    bob = Client()
    bob.force_login(bob_user)
    page = bob.get(f"/matches/{disputed.pk}/").content.decode()
    assert "Result kept as entered" in page and "Alice won it." in page


def test_void_decision_voids_the_match_in_the_same_write(client_for, director, disputed):
    response = _resolve(
        client_for(director), disputed, {"resolution": "No score sheet.", "decision": "void"}
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "void" and body["winner"] is None
    assert client_for(director).get(f"/api/v1/matches/{disputed.pk}/").json()["status"] == "void"
    assert Dispute.objects.get().decision == "void"


def test_corrected_decision_after_a_correction(client_for, director, disputed, bob):
    director_client = client_for(director)
    fixed = director_client.patch(
        f"/api/v1/matches/{disputed.pk}/games/1/", {"winner": bob.pk}, format="json"
    )
    assert fixed.status_code == 200
    response = _resolve(
        director_client, disputed, {"resolution": "Bob won game 1.", "decision": "corrected"}
    )
    assert response.status_code == 200
    assert response.json()["score"] == [0, 1] and response.json()["status"] != "void"
    assert Dispute.objects.get().decision == "corrected"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"resolution": "Fine.", "decision": "toss a coin"}, "decision"),
        ({"resolution": "   ", "decision": "keep"}, "resolution"),
        ({"decision": "keep"}, "resolution"),
    ],
)
def test_bad_rulings_are_refused_naming_the_field(client_for, director, disputed, body, field):
    response = _resolve(client_for(director), disputed, body)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert Dispute.objects.get().status == "open"


def test_players_cannot_rule(client_for, bob_user, alice_user, disputed):
    for user in (alice_user, bob_user):
        response = _resolve(client_for(user), disputed, {"resolution": "Mine.", "decision": "void"})
        assert response.status_code == 403
    assert Dispute.objects.get().status == "open"
