"""The API's optional ``cube_owner`` (a turned cube nobody named is ``unknown``) and a
player's undo of their own final score until the opponent confirms (issue 13)."""

from __future__ import annotations

import pytest

from games.models import Game, Match
from games.rules.matfile import parse_mat

pytestmark = pytest.mark.django_db


def _games(match):
    return f"/api/v1/matches/{match.pk}/games/"


def test_a_doubled_cube_without_its_owner_is_stored_as_unknown(
    client_for, alice_user, match, alice
):
    response = client_for(alice_user).post(
        _games(match), {"winner": alice.pk, "cube": 2}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["games"][0]["cube_owner"] == "unknown"
    assert response.json()["score"] == [2, 0]
    assert Game.objects.get(match=match).cube_owner == "unknown"


def test_a_cube_of_one_without_its_owner_is_centred(client_for, alice_user, match, alice):
    response = client_for(alice_user).post(_games(match), {"winner": alice.pk}, format="json")
    assert response.status_code == 201
    assert Game.objects.get(match=match).cube_owner == "centre"


def test_unknown_is_refused_for_an_unturned_cube(client_for, alice_user, match, alice):
    response = client_for(alice_user).post(
        _games(match), {"winner": alice.pk, "cube": 1, "cube_owner": "unknown"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "cube_owner_invalid"
    assert response.json()["field"] == "games[0].cube_owner"
    assert not Game.objects.exists()


def test_a_dropped_redouble_with_unknown_owner_scores_the_cube_before(
    client_for, alice_user, match, bob
):
    response = client_for(alice_user).post(
        _games(match), {"winner": bob.pk, "cube": 2, "ending": "dropped"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["score"] == [0, 2]


def test_correcting_the_cube_alone_takes_the_default_owner(
    client_for, director, alice_user, match, alice
):
    assert (
        client_for(alice_user).post(_games(match), {"winner": alice.pk}, format="json").status_code
        == 201
    )
    corrected = client_for(director).patch(
        f"/api/v1/matches/{match.pk}/games/1/", {"cube": 4}, format="json"
    )
    assert corrected.status_code == 200, corrected.json()
    assert corrected.json()["games"][0]["cube_owner"] == "unknown"
    assert corrected.json()["score"] == [4, 0]


def test_mat_export_of_an_unknown_owner_game_is_a_valid_transcript(
    client_for, director, match, alice, bob
):
    client = client_for(director)
    for body in (
        {"winner": alice.pk, "cube": 2},
        {"winner": bob.pk, "cube": 2, "ending": "dropped"},
        {"winner": bob.pk, "cube": 4, "cube_owner": "player1"},
    ):
        assert client.post(_games(match), body, format="json").status_code == 201
    response = client_for(None).get(f"/api/v1/matches/{match.pk}/transcript.mat")
    assert response.status_code == 200
    sheet = parse_mat(response.content.decode())
    assert [(g.declared_winner, g.declared_points) for g in sheet.games] == [
        (0, 2),
        (1, 2),
        (1, 4),
    ]
    assert [g.score_before for g in sheet.games] == [(0, 0), (2, 0), (2, 2)]


# --- undo of a final score ---


def _result(client, match, score):
    return client.post(f"/api/v1/matches/{match.pk}/result/", {"score": score}, format="json")


def test_author_undoes_a_backwards_final_score_and_enters_it_right(
    client_for, alice_user, bob_user, match, alice, bob
):
    alice_client = client_for(alice_user)
    assert _result(alice_client, match, [2, 5]).status_code == 200  # typed backwards
    assert client_for(bob_user).post(f"/api/v1/matches/{match.pk}/undo/").status_code == 403
    undone = alice_client.post(f"/api/v1/matches/{match.pk}/undo/")
    assert undone.status_code == 200, undone.json()
    body = undone.json()
    assert body["score"] == [0, 0] and body["status"] == "scheduled"
    assert body["winner"] is None and body["confirmation"] == "none"
    assert _result(alice_client, match, [5, 2]).status_code == 200
    stored = Match.objects.get(pk=match.pk)
    assert (stored.score1, stored.score2, stored.winner_id) == (5, 2, alice.pk)
    audit = alice_client.get(f"/api/v1/matches/{match.pk}/audit/").json()
    assert "final score taken back" in str(audit)


def test_a_confirmed_final_score_is_not_undone_by_its_author(
    client_for, alice_user, bob_user, director, match
):
    assert _result(client_for(alice_user), match, [5, 2]).status_code == 200
    assert client_for(bob_user).post(f"/api/v1/matches/{match.pk}/confirm/").status_code == 200
    late = client_for(alice_user).post(f"/api/v1/matches/{match.pk}/undo/")
    assert late.status_code == 409 and late.json()["code"] == "match_closed"
    assert Match.objects.get(pk=match.pk).score1 == 5
    by_director = client_for(director).post(f"/api/v1/matches/{match.pk}/undo/")
    assert by_director.status_code == 200 and by_director.json()["score"] == [0, 0]


def test_a_disputed_final_score_waits_for_a_director(client_for, alice_user, bob_user, match):
    assert _result(client_for(alice_user), match, [5, 2]).status_code == 200
    disputed = client_for(bob_user).post(
        f"/api/v1/matches/{match.pk}/dispute/", {"reason": "I won"}, format="json"
    )
    assert disputed.status_code == 200
    late = client_for(alice_user).post(f"/api/v1/matches/{match.pk}/undo/")
    assert late.status_code == 409 and late.json()["code"] == "result_disputed"


def test_nothing_recorded_is_still_no_game_to_undo(client_for, alice_user, match):
    response = client_for(alice_user).post(f"/api/v1/matches/{match.pk}/undo/")
    assert response.status_code == 409 and response.json()["code"] == "no_game_to_undo"
