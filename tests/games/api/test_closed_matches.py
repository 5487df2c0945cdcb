"""Closed stays closed: a void, forfeited or finished-and-confirmed match refuses the
writes its state does not allow (409 ``match_closed``), and a director reopens a void
or a forfeit only explicitly (``POST /api/v1/matches/{id}/reopen/``), with the audit
trail saying so and the rating lists following."""

from __future__ import annotations

import pytest

from core.models import DomainEvent
from games import score_links
from games.models import Game, Match, RatingChange
from games.services import clubs as club_services

pytestmark = pytest.mark.django_db


def games_url(match, number=None):
    base = f"/api/v1/matches/{match.pk}/games/"
    return base if number is None else f"{base}{number}/"


def finished(client, match, winner, games=1):
    """Play ``match`` to its end as the director (so the result stands confirmed)."""
    for _ in range(games):
        response = client.post(games_url(match), {"winner": winner.pk}, format="json")
        assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "finished" and body["confirmation"] == "confirmed"
    return body


def footprint(match):
    """Everything a refused write must leave alone."""
    match = Match.objects.get(pk=match.pk)
    return (
        match.status,
        match.winner_id,
        match.version,
        [match.score1, match.score2],
        list(Game.objects.filter(match=match).order_by("number").values_list("winner_id", "cube")),
        DomainEvent.objects.count(),
        RatingChange.objects.count(),
        Match.history.filter(id=match.pk).count(),
    )


# --- the probe's two findings -----------------------------------------------------------


def test_a_correction_does_not_reopen_a_void_match(
    client_for, director, make_match, alice, bob, django_capture_on_commit_callbacks
):
    client = client_for(director)
    match = make_match(1)
    with django_capture_on_commit_callbacks(execute=True):
        finished(client, match, alice)
    assert RatingChange.objects.filter(match=match).count() == 4  # both lists, both players
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/api/v1/matches/{match.pk}/void/").status_code == 200
    assert not RatingChange.objects.filter(match=match).exists()
    before = footprint(match)
    with django_capture_on_commit_callbacks(execute=True):
        patched = client.patch(games_url(match, 1), {"winner": bob.pk}, format="json")
        removed = client.delete(games_url(match, 1))
    for response in (patched, removed):
        assert response.status_code == 409, response.json()
        assert response.json()["code"] == "match_closed"
        assert "void" in response.json()["detail"]
    assert footprint(match) == before  # still void, no event, not rated, no history row


def test_removing_a_game_does_not_erase_a_forfeit(client_for, director, make_match, alice, bob):
    client = client_for(director)
    match = make_match(5)
    assert client.post(games_url(match), {"winner": alice.pk}, format="json").status_code == 201
    forfeit = client.post(f"/api/v1/matches/{match.pk}/forfeit/", {"winner": bob.pk}, format="json")
    assert forfeit.status_code == 200
    before = footprint(match)
    response = client.delete(games_url(match, 1))
    assert response.status_code == 409 and response.json()["code"] == "match_closed"
    assert "forfeited" in response.json()["detail"]
    assert footprint(match) == before
    body = client.get(f"/api/v1/matches/{match.pk}/").json()
    assert body["status"] == "forfeit" and body["winner"] == bob.pk and len(body["games"]) == 1


# --- every write to a closed match goes through the one check ----------------------------


WRITES = [
    ("post", "games/", {"winner": "alice"}),
    ("post", "result/", {"score": [5, 0]}),
    ("post", "confirm/", None),
    ("post", "undo/", None),
    ("post", "void/", None),
    ("post", "forfeit/", {"winner": "alice"}),
    ("post", "score-links/", None),
    ("patch", "games/1/", {"winner": "alice"}),
    ("delete", "games/1/", None),
]


@pytest.mark.parametrize("closed_by", ["void", "forfeit"])
@pytest.mark.parametrize(("method", "path", "body"), WRITES, ids=[w[1] + w[0] for w in WRITES])
def test_a_void_or_forfeited_match_refuses_every_write_but_reopen(
    client_for, director, make_match, alice, bob, closed_by, method, path, body
):
    client = client_for(director)
    match = make_match(5)
    assert client.post(games_url(match), {"winner": bob.pk}, format="json").status_code == 201
    close_body = {"winner": bob.pk} if closed_by == "forfeit" else None
    closed = client.post(f"/api/v1/matches/{match.pk}/{closed_by}/", close_body, format="json")
    assert closed.status_code == 200
    before = footprint(match)
    if body is not None:
        body = {k: alice.pk if v == "alice" else v for k, v in body.items()}
    response = getattr(client, method)(f"/api/v1/matches/{match.pk}/{path}", body, format="json")
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "match_closed"
    assert footprint(match) == before


@pytest.mark.parametrize(
    ("path", "body"),
    [("confirm/", None), ("undo/", None), ("dispute/", {"reason": "no"}), ("score-links/", None)],
)
def test_players_cannot_touch_a_finished_and_confirmed_match(
    client_for, director, alice_user, make_match, alice, bob, path, body
):
    match = make_match(1)
    finished(client_for(director), match, alice)
    before = footprint(match)
    response = client_for(alice_user).post(f"/api/v1/matches/{match.pk}/{path}", body, "json")
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "match_closed"
    assert "finished and confirmed" in response.json()["detail"]
    assert footprint(match) == before


def test_directors_still_correct_a_finished_and_confirmed_match(
    client_for, director, make_match, alice, bob
):
    client = client_for(director)
    match = make_match(1)
    finished(client, match, alice)
    response = client.patch(games_url(match, 1), {"winner": bob.pk}, format="json")
    assert response.status_code == 200 and response.json()["winner"] == bob.pk


# --- reopening -------------------------------------------------------------------------------


def test_reopen_then_correct_and_the_audit_says_reopened(
    client_for, director, make_match, alice, bob
):
    client = client_for(director)
    match = make_match(1)
    finished(client, match, alice)
    assert client.post(f"/api/v1/matches/{match.pk}/void/").status_code == 200
    reopened = client.post(
        f"/api/v1/matches/{match.pk}/reopen/", {"reason": "Voided the wrong match."}, "json"
    )
    assert reopened.status_code == 200, reopened.json()
    assert reopened.json()["status"] == "finished" and reopened.json()["winner"] == alice.pk
    assert reopened["ETag"] == f'"{reopened.json()["version"]}"'
    corrected = client.patch(games_url(match, 1), {"winner": bob.pk}, format="json")
    assert corrected.status_code == 200 and corrected.json()["winner"] == bob.pk
    trail = client.get(f"/api/v1/matches/{match.pk}/audit/").json()
    reasons = [e for e in trail if e["subject"] == "match" and e["reason"]]
    assert len(reasons) == 1
    entry = reasons[0]
    assert entry["reason"] == "reopened (was void): Voided the wrong match."
    assert entry["who"] == "director"
    assert entry["changes"]["status"] == {"before": "void", "after": "finished"}


def test_reopening_a_forfeit_gives_back_the_match_the_games_imply(
    client_for, director, alice_user, make_match, alice, bob
):
    client = client_for(director)
    match = make_match(5)
    assert client.post(games_url(match), {"winner": alice.pk}, format="json").status_code == 201
    client.post(f"/api/v1/matches/{match.pk}/forfeit/", {"winner": bob.pk}, format="json")
    reopened = client.post(f"/api/v1/matches/{match.pk}/reopen/", {}, format="json")
    assert reopened.status_code == 200
    body = reopened.json()
    assert body["status"] == "in_progress" and body["winner"] is None and body["score"] == [1, 0]
    assert body["next_game"] == 2
    # play goes on where it stopped
    more = client_for(alice_user).post(games_url(match), {"winner": alice.pk}, format="json")
    assert more.status_code == 201 and more.json()["score"] == [2, 0]


def test_the_rating_lists_follow_a_reopened_match(
    client_for, director, make_match, alice, bob, django_capture_on_commit_callbacks
):
    client = client_for(director)
    match = make_match(1)
    with django_capture_on_commit_callbacks(execute=True):
        finished(client, match, alice)
    rated = sorted(
        RatingChange.objects.filter(match=match).values_list(
            "rating_list_id", "player_id", "change"
        )
    )
    assert len(rated) == 4
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/api/v1/matches/{match.pk}/void/")
    assert not RatingChange.objects.filter(match=match).exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/v1/matches/{match.pk}/reopen/", {}, format="json")
    assert response.status_code == 200
    again = sorted(
        RatingChange.objects.filter(match=match).values_list(
            "rating_list_id", "player_id", "change"
        )
    )
    assert again == rated


def test_a_reopened_forfeit_is_rated_once_its_games_finish_it(
    client_for, director, make_match, alice, bob, django_capture_on_commit_callbacks
):
    client = client_for(director)
    match = make_match(1)
    with django_capture_on_commit_callbacks(execute=True):
        finished(client, match, alice)
    with django_capture_on_commit_callbacks(execute=True):
        # A forfeit replaces the result (and forfeits are never rated)...
        client.post(f"/api/v1/matches/{match.pk}/forfeit/", {"winner": bob.pk}, format="json")
    assert not RatingChange.objects.filter(match=match).exists()
    with django_capture_on_commit_callbacks(execute=True):
        # ...and reopening restores the result the games say, rated again.
        response = client.post(f"/api/v1/matches/{match.pk}/reopen/", {}, format="json")
    assert response.json()["status"] == "finished" and response.json()["winner"] == alice.pk
    assert RatingChange.objects.filter(match=match).count() == 4


def test_reopen_is_for_a_void_or_forfeited_match_and_its_clubs_directors(
    client_for, director, alice_user, make_user, make_match, alice, bob
):
    match = make_match(5)
    url = f"/api/v1/matches/{match.pk}/reopen/"
    open_match = client_for(director).post(url, {}, format="json")
    assert open_match.status_code == 409 and open_match.json()["code"] == "match_not_closed"
    client_for(director).post(f"/api/v1/matches/{match.pk}/void/")
    other_director = make_user("elsewhere")
    club_services.create_club(created_by=other_director, name="Other", slug="other")
    before = footprint(match)
    assert client_for(None).post(url, {}, format="json").status_code == 401
    assert client_for(alice_user).post(url, {}, format="json").status_code == 403
    assert client_for(other_director).post(url, {}, format="json").status_code == 403
    link = score_links.make_token(match, alice)
    linked = client_for(None).post(url, {}, format="json", HTTP_X_SCORE_LINK=link)
    assert linked.status_code == 403  # the link died with the void, and is no director
    assert footprint(match) == before


def test_reopen_checks_if_match(client_for, director, make_match):
    client = client_for(director)
    match = make_match(5)
    voided = client.post(f"/api/v1/matches/{match.pk}/void/")
    stale = client.post(
        f"/api/v1/matches/{match.pk}/reopen/", {}, format="json", HTTP_IF_MATCH='"1"'
    )
    assert stale.status_code == 412
    fresh = client.post(
        f"/api/v1/matches/{match.pk}/reopen/", {}, format="json", HTTP_IF_MATCH=voided["ETag"]
    )
    assert fresh.status_code == 200 and fresh.json()["status"] == "scheduled"
