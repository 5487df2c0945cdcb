"""Match pages: the score sheet, phone entry (signed in and by score link), the card."""

from __future__ import annotations

import pytest

from games import score_links
from games.models import Game, Match
from games.services import match_records, score_entry
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db


def _record(match, director, winner, **kwargs):
    return score_entry.record_game(
        actor=actor_for_user(director),
        match_id=match.pk,
        game=match_records.GameInput(winner_id=winner.pk, **kwargs),
    )


def test_score_sheet_marks_the_crawford_game(client, director, make_match, alice, bob):
    match = make_match(3)
    _record(match, director, alice, cube=2, cube_owner="player2")  # 2-0: Crawford next
    _record(match, director, bob)
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="crawford"' in html
    assert "Crawford</span>" in html
    assert "Audit trail" not in html  # anonymous visitors do not see the audit


def test_phone_entry_records_a_game_and_shows_rule_refusals(client, alice_user, match, alice):
    client.force_login(alice_user)
    page = client.get(f"/matches/{match.pk}/enter/")
    assert page.status_code == 200
    assert b"Record game 1" in page.content
    refused = client.post(
        f"/matches/{match.pk}/enter/",
        {
            "action": "game",
            "number": 1,
            "winner": alice.pk,
            "level": "single",
            "cube": 2,
            "cube_owner": "centre",
            "ending": "played",
        },
    )
    assert refused.status_code == 400
    assert b"Not recorded." in refused.content
    assert not Game.objects.exists()
    ok = client.post(
        f"/matches/{match.pk}/enter/",
        {
            "action": "game",
            "number": 1,
            "winner": alice.pk,
            "level": "gammon",
            "cube": 1,
            "cube_owner": "centre",
            "ending": "played",
        },
    )
    assert ok.status_code == 302
    assert Match.objects.get(pk=match.pk).score1 == 2


def test_opponent_confirms_through_the_score_link(client, alice_user, match, alice, bob):
    client.force_login(alice_user)
    client.post(f"/matches/{match.pk}/enter/", {"action": "final", "you": 5, "opponent": 2})
    client.logout()
    token = score_links.make_token(match, bob)
    page = client.get(f"/score/{token}/")
    assert b"is it right?" in page.content
    assert client.post(f"/score/{token}/", {"action": "confirm"}).status_code == 302
    assert Match.objects.get(pk=match.pk).confirmation == "confirmed"
    expired = client.get(f"/score/{token}/")
    assert expired.status_code == 403
    assert b"expired" in expired.content


def test_forged_link_is_refused(client):
    assert client.get("/score/not-a-token/").status_code == 403


def test_outsider_gets_no_entry_page(client, make_user, match):
    client.force_login(make_user())
    assert client.get(f"/matches/{match.pk}/enter/").status_code == 404


def test_score_sheet_query_count_does_not_grow(
    client, director, make_match, alice, bob, django_assert_max_num_queries
):
    match = make_match(0)  # an unlimited session never ends
    for i in range(30):
        _record(match, director, alice if i % 2 else bob)
    with django_assert_max_num_queries(12):
        assert client.get(f"/matches/{match.pk}/").status_code == 200
    with django_assert_max_num_queries(12):
        assert client.get(f"/matches/{match.pk}/card/").status_code == 200


def test_player_page_lists_matches_and_head_to_head(
    client, director, make_match, alice, bob, django_assert_max_num_queries
):
    for _ in range(3):
        _record(make_match(1), director, alice)
    _record(make_match(1), director, bob)
    with django_assert_max_num_queries(10):
        response = client.get(f"/players/{alice.slug}/")
    html = response.content.decode()
    assert html.count("Alice v Bob") == 4
    assert "<td>4</td><td>3</td><td>1</td>" in html.replace("\n", "")


def test_the_audit_trail_reads_as_sentences(client, director, make_match, alice, bob):
    """A director reads each change in words with the players' names, not raw fields."""
    match = make_match(3)
    _record(match, director, alice, cube=2, cube_owner="player2")  # 2-0: Crawford next
    _record(match, director, bob)  # the Crawford game
    client.force_login(director)
    corrected = client.patch(
        f"/api/v1/matches/{match.pk}/games/2/", {"winner": alice.pk}, "application/json"
    )
    assert corrected.status_code == 200, corrected.json()
    html = client.get(f"/matches/{match.pk}/").content.decode()
    audit = html.split("Audit trail", 1)[1]
    assert "director entered game 1: Alice won a single game on a 2-cube (2 points)" in audit
    assert "director entered game 2: Bob won a single game (1 point, the Crawford game)" in audit
    assert "director corrected game 2: winner Bob → Alice" in audit
    assert "Alice won the match (Alice 3 – Bob 0)" in audit
    assert "None" not in audit and "winner:" not in audit
