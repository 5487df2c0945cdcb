"""A player enters a match result from a phone; the opponent confirms it by score link."""

from __future__ import annotations

import pytest

from games import score_links
from games.models import Match

from .conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_player_enters_games_on_a_phone_and_opponent_confirms(
    page_for, login, make_match, alice, bob
):
    match = make_match(3)
    phone = page_for(PHONE, name="score-entry-player")
    login(phone, "alice")
    phone.goto(f"/matches/{match.pk}/enter/")

    def choose(question: str, answer: str) -> None:
        phone.get_by_role("group", name=question).get_by_role(
            "radio", name=answer, exact=True
        ).check()

    # Game 1: Alice wins a gammon on the centred cube: 2-0, the Crawford game is next.
    choose("Who won?", "You (Alice)")
    choose("Won by", "Gammon")
    phone.get_by_role("button", name="Record game 1").click()
    phone.get_by_text("Game 1 recorded.").wait_for()
    assert phone.get_by_text("Crawford game: no doubling").is_visible()
    # The Crawford game's card offers no double (#27): only the centred cube of 1, and
    # no "Double dropped" ending (a hand-made double is still refused by the rules:
    # tests/games/pages/test_corrections_and_entry.py).
    cube = phone.get_by_role("group", name="Cube")
    assert cube.get_by_role("radio", name="2", exact=True).count() == 0
    assert phone.get_by_role("radio", name="Double dropped").count() == 0
    # Game 2 as it really went: Alice wins single on the centred cube, 3-0, match over.
    choose("Who won?", "You (Alice)")
    choose("Won by", "Single")
    choose("Cube", "1")
    choose("Cube owned by", "Centre")
    phone.get_by_role("button", name="Record game 2").click()
    phone.get_by_text("Game 2 recorded.").wait_for()
    assert Match.objects.get(pk=match.pk).status == "finished"

    opponent = page_for(PHONE, name="score-entry-opponent-confirms")
    opponent.goto(f"/score/{score_links.make_token(match, bob)}/")
    opponent.get_by_text("is it right?").wait_for()
    opponent.get_by_role("button", name="Yes, confirm").click()
    opponent.get_by_text("Confirmed. Thank you!").wait_for()
    assert Match.objects.get(pk=match.pk).confirmation == "confirmed"
