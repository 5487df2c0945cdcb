"""The "I corrected it" ruling from the pages: the director corrects the disputed result
on the match page first (which confirms it), then rules. The ruling form must still be
there after the correction, since the dispute is still open."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Dispute, Match
from games.services import score_entry
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_director_corrects_a_disputed_final_score_then_rules_corrected(
    make_match, alice_user, bob_user, alice, bob, director, club
):
    match = make_match(3)
    score_entry.record_final_score(
        actor=actor_for_user(alice_user), match_id=match.pk, score=(3, 0)
    )
    bob_client = _signed_in(bob_user)
    bob_client.post(f"/matches/{match.pk}/dispute/", {"reason": "I won 3-0, not Alice."})
    desk = _signed_in(director)
    swapped = desk.post(
        f"/matches/{match.pk}/correct/",
        {"action": "swap", "version": Match.objects.get(pk=match.pk).version, "confirm": "1"},
    )
    assert swapped.status_code == 302
    corrected = Match.objects.get(pk=match.pk)
    assert (corrected.score1, corrected.score2, corrected.winner_id) == (0, 3, bob.pk)
    assert Dispute.objects.get().status == "open"

    # The ruling form is still offered on the match page...
    page = desk.get(f"/matches/{match.pk}/").content.decode()
    assert f'action="/matches/{match.pk}/resolve/"' in page
    assert "I corrected it" in page
    # ... and the ruling goes through, and the players read it.
    ruled = desk.post(
        f"/matches/{match.pk}/resolve/",
        {"decision": "corrected", "note": "Swapped: the sheet shows it backwards."},
    )
    assert ruled.status_code == 302
    dispute = Dispute.objects.get()
    assert (dispute.status, dispute.decision) == ("resolved", "corrected")
    html = bob_client.get(f"/matches/{match.pk}/").content.decode()
    assert "Result corrected" in html and "the sheet shows it backwards" in html
    assert (
        f'action="/matches/{match.pk}/resolve/"'
        not in desk.get(f"/matches/{match.pk}/").content.decode()
    )
    assert "Open disputes" not in desk.get(f"/clubs/{club.slug}/").content.decode()
