"""Score entry through the API: games, final scores, confirmation, disputes, undo,
corrections, voids, forfeits, idempotent retries, stale writes and permissions."""

from __future__ import annotations

import pytest

from core.models import DomainEvent
from games.models import Game, Match

pytestmark = pytest.mark.django_db


def game_url(match):
    return f"/api/v1/matches/{match.pk}/games/"


def post_game(client, match, winner, **body):
    return client.post(game_url(match), {"winner": winner.pk, **body}, format="json")


# --- creating ---


def test_director_creates_a_rated_match(client_for, director, club, alice, bob):
    response = client_for(director).post(
        "/api/v1/matches/",
        {"club": club.slug, "player1": alice.pk, "player2": bob.pk, "length": 7},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["length"] == 7 and body["rated"] is True and body["status"] == "scheduled"
    assert body["next_game"] == 1 and body["crawford_game"] is None
    assert response["ETag"] == '"1"'


def test_player_may_only_create_an_unrated_friendly(client_for, alice_user, club, alice, bob):
    client = client_for(alice_user)
    payload = {"club": club.slug, "player1": alice.pk, "player2": bob.pk, "length": 3}
    refused = client.post("/api/v1/matches/", payload, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "friendly_matches_are_unrated"
    created = client.post("/api/v1/matches/", {**payload, "rated": False}, format="json")
    assert created.status_code == 201
    assert created.json()["rated"] is False


def test_a_match_needs_two_different_players(client_for, director, club, alice):
    response = client_for(director).post(
        "/api/v1/matches/",
        {"club": club.slug, "player1": alice.pk, "player2": alice.pk, "length": 3},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "same_player_twice",
        "detail": "A match needs two different players.",
        "field": "player2",
    }
    assert not Match.objects.exists()


# --- game by game ---


def test_recording_games_derives_score_crawford_and_winner(client_for, director, match, alice, bob):
    client = client_for(director)
    first = post_game(client, match, alice, cube=2, cube_owner="player2", level="gammon")
    assert first.status_code == 201
    body = first.json()  # 4-0 in a 5-point match: the next game is the Crawford game
    assert body["score"] == [4, 0]
    assert body["next_game_is_crawford"] is True
    refused = post_game(client, match, bob, cube=2, cube_owner="player1")
    assert refused.status_code == 400
    assert refused.json()["code"] == "double_in_crawford_game"
    crawford = post_game(client, match, bob).json()  # 4-1, the Crawford game played
    assert crawford["crawford_game"] == 2
    assert crawford["post_crawford"] is True
    assert crawford["next_game_is_crawford"] is False
    final = post_game(client, match, alice, cube=2, cube_owner="player2").json()
    assert final["status"] == "finished"
    assert final["score"] == [6, 1]
    assert final["winner"] == alice.pk
    assert [g["crawford"] for g in final["games"]] == [False, True, False]
    assert [g["post_crawford"] for g in final["games"]] == [False, False, True]
    assert DomainEvent.objects.filter(kind="match.finished").count() == 1


def test_no_game_after_the_match_is_over(client_for, director, make_match, alice, bob):
    match = make_match(1)
    client = client_for(director)
    assert post_game(client, match, alice).json()["status"] == "finished"
    response = post_game(client, match, bob)
    assert response.status_code == 400
    assert response.json()["code"] == "game_after_match_end"
    assert Game.objects.filter(match=match).count() == 1


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"cube": 3}, "cube_not_power_of_two", "cube"),
        (
            {"ending": "dropped", "level": "gammon", "cube": 2, "cube_owner": "player1"},
            "dropped_game_is_single",
            "level",
        ),
        (
            {"cube": 2, "cube_owner": "player2", "level": "gammon", "points": 2},
            "points_disagree_with_cube_and_level",
            "points",
        ),
    ],
)
def test_impossible_games_are_refused_naming_the_rule(
    client_for, director, match, alice, body, code, field
):
    response = post_game(client_for(director), match, alice, **body)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["field"].endswith(field)
    assert not Game.objects.exists()
    match.refresh_from_db()
    assert match.version == 1


def test_bad_json_field_is_named(client_for, director, match):
    response = client_for(director).post(
        game_url(match), {"winner": "alice", "level": "quadruple"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] in {"winner", "level"}


def test_winner_must_play_in_the_match(client_for, director, match, club):
    from tests.factories import member

    stranger = member(club)
    response = post_game(client_for(director), match, stranger)
    assert response.status_code == 400
    assert response.json()["code"] == "winner_not_in_match"


# --- final score only ---


def test_final_score_entry_and_confirmation(client_for, alice_user, bob_user, match, alice):
    response = client_for(alice_user).post(
        f"/api/v1/matches/{match.pk}/result/", {"score": [5, 3]}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "finished" and body["winner"] == alice.pk
    assert body["confirmation"] == "pending" and body["final_score_only"] is True
    own = client_for(alice_user).post(f"/api/v1/matches/{match.pk}/confirm/")
    assert own.status_code == 403
    confirmed = client_for(bob_user).post(f"/api/v1/matches/{match.pk}/confirm/")
    assert confirmed.status_code == 200
    assert confirmed.json()["confirmation"] == "confirmed"


@pytest.mark.parametrize("score", [[5, 5], [4, 3], [6, 5], [-1, 5]])
def test_impossible_final_scores_are_refused(client_for, director, match, score):
    response = client_for(director).post(
        f"/api/v1/matches/{match.pk}/result/", {"score": score}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"].startswith("score")
    match.refresh_from_db()
    assert match.status == "scheduled"


# --- confirmation, dispute, undo ---


def test_dispute_goes_to_directors_who_resolve_it(
    client_for, alice_user, bob_user, director, match, alice, bob
):
    assert post_game(client_for(alice_user), match, alice).status_code == 201
    blocked = client_for(alice_user).post(
        f"/api/v1/matches/{match.pk}/dispute/", {"reason": "x"}, format="json"
    )
    assert blocked.status_code == 409
    disputed = client_for(bob_user).post(
        f"/api/v1/matches/{match.pk}/dispute/", {"reason": "I won game 1"}, format="json"
    )
    assert disputed.status_code == 200
    assert disputed.json()["confirmation"] == "disputed"
    frozen = post_game(client_for(alice_user), match, alice)
    assert frozen.status_code == 409 and frozen.json()["code"] == "match_disputed"
    corrected = client_for(director).patch(
        f"/api/v1/matches/{match.pk}/games/1/", {"winner": bob.pk}, format="json"
    )
    assert corrected.status_code == 200, corrected.json()
    assert corrected.json()["score"] == [0, 1]
    resolved = client_for(director).post(
        f"/api/v1/matches/{match.pk}/resolve/", {"resolution": "Bob won game 1"}, format="json"
    )
    assert resolved.status_code == 200
    assert resolved.json()["confirmation"] == "confirmed"
    assert all(g["confirmed"] for g in resolved.json()["games"])


def test_undo_last_game_only_by_its_author_until_confirmed(
    client_for, alice_user, bob_user, match, alice
):
    assert post_game(client_for(alice_user), match, alice).status_code == 201
    assert client_for(bob_user).post(f"/api/v1/matches/{match.pk}/undo/").status_code == 403
    undone = client_for(alice_user).post(f"/api/v1/matches/{match.pk}/undo/")
    assert undone.status_code == 200
    assert undone.json()["games"] == [] and undone.json()["score"] == [0, 0]
    assert post_game(client_for(alice_user), match, alice).status_code == 201
    assert client_for(bob_user).post(f"/api/v1/matches/{match.pk}/confirm/").status_code == 200
    late = client_for(alice_user).post(f"/api/v1/matches/{match.pk}/undo/")
    assert late.status_code == 409 and late.json()["code"] == "game_confirmed"


# --- corrections ---


def test_correction_re_derives_later_games(client_for, director, match, alice, bob):
    client = client_for(director)
    for winner in (alice, alice, alice, bob):  # 3-1
        post_game(client, match, winner)
    response = client.patch(
        f"/api/v1/matches/{match.pk}/games/1/",
        {"cube": 2, "cube_owner": "player2"},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["score"] == [4, 1]
    assert [g["score_before"] for g in body["games"]] == [[0, 0], [2, 0], [3, 0], [4, 0]]
    assert body["games"][3]["crawford"] is True


def test_correction_that_breaks_a_later_game_is_refused_whole(
    client_for, director, match, alice, bob
):
    client = client_for(director)
    post_game(client, match, alice, cube=2, cube_owner="player2")  # 2-0
    post_game(client, match, alice)  # 3-0
    post_game(client, match, bob)  # 3-1
    response = client.patch(
        f"/api/v1/matches/{match.pk}/games/1/",
        {"cube": 8, "cube_owner": "player2"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "game_after_match_end"
    assert [g.cube for g in Game.objects.filter(match=match).order_by("number")] == [2, 1, 1]


def test_only_directors_correct(client_for, alice_user, match, alice, bob):
    post_game(client_for(alice_user), match, alice)
    response = client_for(alice_user).patch(
        f"/api/v1/matches/{match.pk}/games/1/", {"winner": bob.pk}, format="json"
    )
    assert response.status_code == 403


def test_director_removes_a_game_and_later_games_renumber(client_for, director, match, alice, bob):
    client = client_for(director)
    for winner in (alice, bob, bob):
        post_game(client, match, winner)
    response = client.delete(f"/api/v1/matches/{match.pk}/games/1/")
    assert response.status_code == 200
    body = response.json()
    assert [g["number"] for g in body["games"]] == [1, 2]
    assert body["score"] == [0, 2]


def test_void_and_forfeit(client_for, director, make_match, alice, bob):
    client = client_for(director)
    match = make_match(3)
    post_game(client, match, alice, cube=4, cube_owner="player2")
    void = client.post(f"/api/v1/matches/{match.pk}/void/")
    assert void.status_code == 200 and void.json()["status"] == "void"
    assert DomainEvent.objects.filter(kind="match.result_changed").count() == 1
    other = make_match(3)
    forfeit = client.post(f"/api/v1/matches/{other.pk}/forfeit/", {"winner": bob.pk}, format="json")
    assert forfeit.status_code == 200
    assert forfeit.json()["status"] == "forfeit" and forfeit.json()["winner"] == bob.pk
    assert post_game(client, other, alice).status_code == 409


# --- concurrency contract: versions and idempotency ----------------------------------------------


def test_stale_if_match_gets_412(client_for, director, match, alice):
    client = client_for(director)
    first = post_game(client, match, alice)
    assert first["ETag"] == '"2"'
    stale = client.post(game_url(match), {"winner": alice.pk}, format="json", HTTP_IF_MATCH='"1"')
    assert stale.status_code == 412
    assert stale.json()["code"] == "stale_version"
    fresh = client.post(game_url(match), {"winner": alice.pk}, format="json", HTTP_IF_MATCH='"2"')
    assert fresh.status_code == 201
    assert Game.objects.filter(match=match).count() == 2


def test_the_same_game_number_twice_gets_409(client_for, alice_user, bob_user, match, alice, bob):
    assert post_game(client_for(alice_user), match, alice, number=1).status_code == 201
    second = post_game(client_for(bob_user), match, bob, number=1)
    assert second.status_code == 409
    assert second.json()["code"] == "game_already_recorded"
    assert Game.objects.filter(match=match).count() == 1


def test_idempotent_retry_records_once(client_for, director, match, alice):
    client = client_for(director)
    first = client.post(
        game_url(match), {"winner": alice.pk}, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    retry = client.post(
        game_url(match), {"winner": alice.pk}, format="json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert Game.objects.filter(match=match).count() == 1


def test_reused_idempotency_key_with_another_body_gets_422(client_for, director, match, alice, bob):
    client = client_for(director)
    client.post(game_url(match), {"winner": alice.pk}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    other = client.post(
        game_url(match), {"winner": bob.pk}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"
    assert Game.objects.filter(match=match).count() == 1


# --- permissions ---


def test_anonymous_reads_but_cannot_write(client_for, match, alice):
    assert client_for(None).get(f"/api/v1/matches/{match.pk}/").status_code == 200
    assert post_game(client_for(None), match, alice).status_code == 401


def test_outsider_cannot_write(client_for, make_user, match, alice):
    response = post_game(client_for(make_user()), match, alice)
    assert response.status_code == 403
    assert response.json()["code"] == "not_a_participant"


def test_director_of_another_club_cannot_write(client_for, make_user, match, alice):
    from games.services.clubs import create_club

    other = make_user()
    create_club(created_by=other, name="Elsewhere")
    assert post_game(client_for(other), match, alice).status_code == 403


def test_list_filters_by_player_and_status(client_for, director, make_match, alice, bob):
    done = make_match(1)
    make_match(3)
    post_game(client_for(director), done, bob)
    listed = client_for(None).get(f"/api/v1/matches/?player={alice.pk}&status=finished").json()
    assert [m["id"] for m in listed["results"]] == [done.pk]


# --- score links and audit ---


def test_private_score_link_enters_and_expires(client_for, director, match, alice, bob):
    links = client_for(director).post(f"/api/v1/matches/{match.pk}/score-links/").json()["links"]
    token = {link["player"]: link["token"] for link in links}
    anon = client_for(None)
    entered = anon.post(
        game_url(match),
        {"winner": alice.pk, "cube": 8, "cube_owner": "player2"},
        format="json",
        HTTP_X_SCORE_LINK=token[alice.pk],
    )
    assert entered.status_code == 201, entered.json()
    assert entered.json()["status"] == "finished"
    forged = anon.post(
        f"/api/v1/matches/{match.pk}/confirm/", HTTP_X_SCORE_LINK=token[bob.pk][:-2] + "xx"
    )
    assert forged.status_code == 403
    confirmed = anon.post(f"/api/v1/matches/{match.pk}/confirm/", HTTP_X_SCORE_LINK=token[bob.pk])
    assert confirmed.status_code == 200
    expired = anon.post(f"/api/v1/matches/{match.pk}/undo/", HTTP_X_SCORE_LINK=token[alice.pk])
    assert expired.status_code == 403


def test_score_link_is_scoped_to_its_match(client_for, director, make_match, alice):
    first, second = make_match(3), make_match(3)
    links = client_for(director).post(f"/api/v1/matches/{first.pk}/score-links/").json()["links"]
    response = client_for(None).post(
        game_url(second), {"winner": alice.pk}, format="json", HTTP_X_SCORE_LINK=links[0]["token"]
    )
    assert response.status_code == 403


def test_audit_trail_shows_who_changed_what(client_for, director, alice_user, match, alice, bob):
    post_game(client_for(alice_user), match, alice)
    client_for(director).patch(
        f"/api/v1/matches/{match.pk}/games/1/", {"winner": bob.pk}, format="json"
    )
    trail = client_for(director).get(f"/api/v1/matches/{match.pk}/audit/")
    assert trail.status_code == 200
    game_changes = [e for e in trail.json() if e["subject"] == "game 1" and e["what"] == "changed"]
    assert any(
        e["changes"].get("winner", {}).get("after") == str(bob.pk)
        or e["changes"].get("winner", {}).get("after") == bob.pk
        for e in game_changes
    )
    assert client_for(None).get(f"/api/v1/matches/{match.pk}/audit/").status_code == 401
