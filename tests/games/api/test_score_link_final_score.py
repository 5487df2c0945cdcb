"""A final score through a score link, tried as a hostile player would.

The link's final score no longer reads its match a second time to ask whether this is
a director's correction (a link never directs): these check that nothing else opened
with it. Another match's link, a tampered one, a link on a closed match, a match that
does not exist, and twenty copies at once are each refused or recorded once.
"""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from games import score_links
from games.models import Match
from tests.races import race

pytestmark = pytest.mark.django_db


def _post(match_id: int, link: str, score: list[int]):
    client = APIClient()
    client.credentials(HTTP_X_SCORE_LINK=link)
    return client.post(
        f"/api/v1/matches/{match_id}/result/",
        {"score": score},
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )


def test_another_matchs_link_a_tampered_one_and_no_match_are_refused(make_match, alice):
    first, second = make_match(5), make_match(5)
    link = score_links.make_token(first, alice)
    assert _post(second.pk, link, [5, 0]).status_code == 403
    assert _post(first.pk, link[:-2] + "xx", [5, 0]).status_code == 403
    missing = _post(999_999, link, [5, 0])
    assert missing.status_code in (403, 404) and missing.json()["code"]
    for match in (first, second):
        match.refresh_from_db()
        assert (match.status, match.score1, match.score2) == ("scheduled", 0, 0)


def test_a_link_cannot_correct_a_final_score_it_entered(make_match, alice, bob):
    match = make_match(5)
    link = score_links.make_token(match, alice)
    assert _post(match.pk, link, [5, 2]).status_code == 200
    # a director's second final score corrects the first; the player's link may not
    corrected = _post(match.pk, link, [5, 4])
    assert corrected.status_code in (403, 409), corrected.json()
    bob_link = score_links.make_token(match, bob)
    assert _post(match.pk, bob_link, [2, 5]).status_code in (403, 409)
    match.refresh_from_db()
    assert (match.score1, match.score2, match.winner_id) == (5, 2, alice.pk)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_final_scores_through_one_link_at_once_record_one(make_match, alice):
    match = make_match(5)
    link = score_links.make_token(match, alice)
    answers = race([lambda: _post(match.pk, link, [5, 1])] * 20)
    statuses = sorted(a.status_code for a in answers)
    assert statuses.count(200) == 1, statuses
    assert set(statuses) <= {200, 409, 412}, statuses  # refused, never a 5xx
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.score1, match.score2) == ("finished", 5, 1)
    assert match.version == 2  # written once
