"""Issue 13: a director's corrections from the score sheet, a player's undo of a final
score, the "you / opponent" entry page, the "are you sure?" of a far-fetched final
score, and the dropped double entered as the cube offered."""

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


def _fresh(match):
    return Match.objects.get(pk=match.pk)


def _correct(client, match, **fields):
    return client.post(
        f"/matches/{match.pk}/correct/", {"version": _fresh(match).version, **fields}
    )


def _correct_game_at_cube_2(client, match, number, winner):
    """Corrects game ``number`` to a single won by ``winner`` with the cube at 2 on player
    2's side: every field of the score sheet's game form, as the form posts them."""
    return _correct(
        client,
        match,
        action="game",
        number=number,
        winner=winner.pk,
        cube=2,
        cube_owner="player2",
        level="single",
        ending="played",
    )


# --- a director's corrections ---


def test_only_directors_see_the_corrections(client, director, alice_user, match):
    client.force_login(alice_user)
    assert b"Corrections" not in client.get(f"/matches/{match.pk}/").content
    assert _correct(client, match, action="void", confirm="1").status_code == 404
    assert _fresh(match).status == "scheduled"
    client.force_login(director)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Corrections" in page and "Void the match…" in page


def test_director_corrects_a_game_and_the_score_follows(client, director, make_match, alice, bob):
    match = make_match(3)
    _record(match, director, alice)  # 1-0
    _record(match, director, bob)  # 1-1
    client.force_login(director)
    assert "Correct game 1" in client.get(f"/matches/{match.pk}/").content.decode()
    response = _correct_game_at_cube_2(client, match, 1, alice)
    assert response.status_code == 302
    stored = _fresh(match)
    assert (stored.score1, stored.score2) == (2, 1)  # game 1 now worth 2: Crawford next
    second = Game.objects.get(match=match, number=2)
    assert (second.score1_before, second.score2_before, second.crawford) == (2, 0, True)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Game 1 corrected" in page


def test_a_correction_the_rules_refuse_changes_nothing_and_says_why(
    client, director, make_match, alice, bob
):
    match = make_match(3)
    _record(match, director, alice, level="gammon")  # 2-0: game 2 is the Crawford game
    _record(match, director, bob)
    client.force_login(director)
    response = _correct_game_at_cube_2(client, match, 2, bob)
    assert response.status_code == 302
    assert (_fresh(match).score1, _fresh(match).score2) == (2, 1)
    assert "double_in_crawford_game" in client.get(f"/matches/{match.pk}/").content.decode()


def test_remove_game_asks_then_renumbers(client, director, match, alice, bob):
    _record(match, director, alice)
    _record(match, director, bob, level="gammon")
    client.force_login(director)
    asked = _correct(client, match, action="remove", number=1)
    assert asked.status_code == 200 and b"Remove game 1?" in asked.content
    assert Game.objects.filter(match=match).count() == 2
    done = _correct(client, match, action="remove", number=1, confirm="1")
    assert done.status_code == 302
    games = list(Game.objects.filter(match=match))
    assert [(g.number, g.winner_id, g.points) for g in games] == [(1, bob.pk, 2)]
    assert (_fresh(match).score1, _fresh(match).score2) == (0, 2)


def test_director_swaps_a_backwards_final_score(client, director, alice_user, match, alice, bob):
    client.force_login(alice_user)
    client.post(f"/matches/{match.pk}/enter/", {"action": "final", "you": 2, "opponent": 5})
    assert _fresh(match).winner_id == bob.pk
    client.force_login(director)
    assert "Swap to 5–2…" in client.get(f"/matches/{match.pk}/").content.decode()
    asked = _correct(client, match, action="swap")
    assert b"Swap the final score: Alice 5\xe2\x80\x932 Bob?" in asked.content
    assert _fresh(match).winner_id == bob.pk
    _correct(client, match, action="swap", confirm="1")
    stored = _fresh(match)
    assert (stored.score1, stored.score2, stored.winner_id) == (5, 2, alice.pk)
    assert stored.confirmation == "confirmed"


def test_director_replaces_a_final_score(client, director, match, alice, bob):
    score_entry.record_final_score(actor=actor_for_user(director), match_id=match.pk, score=(5, 2))
    client.force_login(director)
    asked = _correct(client, match, action="final", score1=3, score2=6)
    assert asked.status_code == 200 and _fresh(match).score1 == 5
    _correct(client, match, action="final", score1=3, score2=6, confirm="1")
    assert (_fresh(match).score1, _fresh(match).winner_id) == (3, bob.pk)


def test_void_asks_first_and_a_post_without_confirm_does_nothing(client, director, match, alice):
    _record(match, director, alice)
    client.force_login(director)
    asked = _correct(client, match, action="void")
    assert asked.status_code == 200
    assert b"Void this match?" in asked.content and b'name="confirm" value="1"' in asked.content
    assert _fresh(match).status == "in_progress"
    _correct(client, match, action="void", confirm="1")
    assert _fresh(match).status == "void"
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Reopen…" in page and "Void the match…" not in page
    _correct(client, match, action="reopen", reason="wrong table", confirm="1")
    assert _fresh(match).status == "in_progress"


def test_forfeit_to_a_chosen_player(client, director, match, bob):
    client.force_login(director)
    asked = _correct(client, match, action="forfeit", winner=bob.pk)
    assert b"Award the match to Bob by forfeit?" in asked.content
    assert _fresh(match).status == "scheduled"
    _correct(client, match, action="forfeit", winner=bob.pk, confirm="1")
    assert (_fresh(match).status, _fresh(match).winner_id) == ("forfeit", bob.pk)


def test_a_stale_correction_is_refused(client, director, match, alice, bob):
    _record(match, director, alice)
    client.force_login(director)
    stale = _fresh(match).version
    _record(match, director, bob)
    client.post(
        f"/matches/{match.pk}/correct/",
        {"version": stale, "action": "void", "confirm": "1"},
    )
    assert _fresh(match).status == "in_progress"


# --- the player's entry page ---


def test_player_undoes_a_reversed_final_score_and_enters_it_right(
    client, alice_user, match, alice, bob
):
    client.force_login(alice_user)
    url = f"/matches/{match.pk}/enter/"
    client.post(url, {"action": "final", "you": 2, "opponent": 5})  # meant 5-2
    assert _fresh(match).winner_id == bob.pk
    page = client.get(url).content.decode()
    assert "Undo final score: you 2, opponent 5" in page
    assert client.post(url, {"action": "undo"}).status_code == 302
    assert (_fresh(match).score1, _fresh(match).status) == (0, "scheduled")
    client.post(url, {"action": "final", "you": 5, "opponent": 2})
    stored = _fresh(match)
    assert (stored.score1, stored.score2, stored.winner_id) == (5, 2, alice.pk)


def test_the_opponent_link_page_says_you_for_that_player(client, match, alice, bob):
    page = client.get(f"/score/{score_links.make_token(match, bob)}/").content.decode()
    assert "You (Bob)" in page and "Opponent (Alice)" in page
    assert page.index("You (Bob)") < page.index("Opponent (Alice)")
    # Bob, player 2, types "you 5, opponent 3": stored as Alice 3, Bob 5
    client.post(
        f"/score/{score_links.make_token(match, bob)}/",
        {"action": "final", "you": 5, "opponent": 3},
    )
    stored = _fresh(match)
    assert (stored.score1, stored.score2, stored.winner_id) == (3, 5, bob.pk)


def test_directors_see_names_in_match_order(client, director, match):
    client.force_login(director)
    page = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert "You (" not in page
    assert page.index('name="score1"') < page.index('name="score2"')


def test_nine_nil_in_a_three_pointer_asks_before_storing(client, alice_user, make_match):
    match = make_match(3)
    client.force_login(alice_user)
    url = f"/matches/{match.pk}/enter/"
    asked = client.post(url, {"action": "final", "you": 9, "opponent": 0})
    assert asked.status_code == 200
    assert "in a 3-point match: are you sure?" in asked.content.decode()
    assert _fresh(match).status == "scheduled"
    stored = client.post(url, {"action": "final", "you": 9, "opponent": 0, "confirm": "1"})
    assert stored.status_code == 302
    assert (_fresh(match).score1, _fresh(match).score2) == (9, 0)


def test_an_impossible_far_score_is_refused_not_asked_about(client, alice_user, make_match):
    match = make_match(3)
    client.force_login(alice_user)
    refused = client.post(
        f"/matches/{match.pk}/enter/", {"action": "final", "you": 9, "opponent": 9}
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "final_score_needs_one_winner" in html and "are you sure?" not in html


def test_a_plausible_final_score_is_not_asked_about(client, alice_user, make_match):
    match = make_match(3)
    client.force_login(alice_user)
    done = client.post(f"/matches/{match.pk}/enter/", {"action": "final", "you": 5, "opponent": 2})
    assert done.status_code == 302 and _fresh(match).score1 == 5  # 3 + 2: not asked


# --- a dropped double: the cube offered ---


def _game(client, match, **fields):
    body = {"action": "game", "number": 1, "level": "single", "cube": 1, "ending": "played"}
    return client.post(f"/matches/{match.pk}/enter/", {**body, **fields})


def test_first_double_dropped_is_entered_as_cube_offered_two(client, alice_user, match, alice, bob):
    client.force_login(alice_user)
    response = _game(client, match, winner=bob.pk, ending="dropped", cube_offered=2, cube=2)
    assert response.status_code == 302
    game = Game.objects.get(match=match)
    assert (game.cube, game.cube_owner, game.points, game.ending) == (1, "centre", 1, "dropped")


def test_a_dropped_redouble_offered_at_four_scores_two(client, alice_user, match, alice):
    client.force_login(alice_user)
    assert (
        _game(client, match, winner=alice.pk, ending="dropped", cube_offered=4).status_code == 302
    )
    game = Game.objects.get(match=match)
    assert (game.cube, game.cube_owner, game.points) == (2, "player1", 2)


def test_a_drop_without_the_cube_offered_asks_for_it(client, alice_user, match, alice):
    client.force_login(alice_user)
    response = _game(client, match, winner=alice.pk, ending="dropped")
    assert response.status_code == 200
    assert "Say which cube was offered" in response.content.decode()
    assert not Game.objects.exists()


def test_a_turned_cube_without_an_owner_is_recorded_unknown(client, alice_user, match, alice):
    client.force_login(alice_user)
    assert _game(client, match, winner=alice.pk, cube=4).status_code == 302
    game = Game.objects.get(match=match)
    assert (game.cube, game.cube_owner, game.points) == (4, "unknown", 4)
    assert "owner not recorded" in client.get(f"/matches/{match.pk}/").content.decode()


def test_a_refusal_shows_the_rule_next_to_its_field(client, alice_user, make_match, alice, bob):
    match = make_match(3)
    client.force_login(alice_user)
    assert _game(client, match, winner=alice.pk, level="gammon").status_code == 302  # 2-0
    refused = _game(client, match, number=2, winner=bob.pk, ending="dropped", cube_offered=2)
    assert refused.status_code == 400
    html = refused.content.decode()
    fieldset = html[html.index('data-field="ending"') :]
    fieldset = fieldset[: fieldset.index("</fieldset>")]
    assert "Crawford rule" in fieldset


def _fieldset(html: str, name: str) -> str:
    part = html[html.index(f'data-field="{name}"') :]
    return part[: part.index("</fieldset>")]


def test_the_crawford_games_form_offers_no_double(client, alice_user, make_match, alice):
    match = make_match(3)
    client.force_login(alice_user)
    before = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert 'value="64"' in _fieldset(before, "cube") and 'value="dropped"' in before
    assert _game(client, match, winner=alice.pk, level="gammon").status_code == 302  # 2-0
    html = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert "Crawford game: no doubling" in html
    cubes = _fieldset(html, "cube")
    assert 'name="cube" value="1"' in cubes
    assert not any(f'name="cube" value="{v}"' in html for v in (2, 4, 8, 16, 32, 64))
    assert 'value="dropped"' not in html and 'data-field="cube_offered"' not in html
    assert 'value="player1"' not in _fieldset(html, "cube_owner")


def test_a_hand_made_double_in_the_crawford_game_is_refused_at_the_cube(
    client, alice_user, make_match, alice, bob
):
    match = make_match(3)
    client.force_login(alice_user)
    assert _game(client, match, winner=alice.pk, level="gammon").status_code == 302  # 2-0
    refused = _game(client, match, number=2, winner=bob.pk, cube=2, cube_owner="player1")
    assert refused.status_code == 400
    assert "Crawford rule" in _fieldset(refused.content.decode(), "cube")
    assert Game.objects.filter(match=match).count() == 1
