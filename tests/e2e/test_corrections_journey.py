"""Issue 13 on a 360-px phone: a player types a final score backwards, undoes it and
enters it right; enters a dropped double as "cube offered 2". Then pictures of the
entry page and of a director's corrections at 360 and 1366 px (saved under
``artifacts/e2e/corrections/``, or ``docs/screenshots/`` with
``BOXCARS_UPDATE_SCREENSHOTS=1``)."""

from __future__ import annotations

import pytest

from games.models import Game, Match
from games.services import match_records, score_entry
from games.services.actors import actor_for_user

from .conftest import pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NARROW_PHONE = {"width": 360, "height": 740}
WIDE = {"width": 1366, "height": 900}


def test_player_fixes_a_backwards_final_score_and_enters_a_drop(
    page_for, login, make_match, alice, bob
):
    phone = page_for(NARROW_PHONE, name="corrections-phone")
    login(phone, "alice")

    # A final score typed backwards (Alice won 5-2), taken back and entered right.
    match = make_match(5)
    phone.goto(f"/matches/{match.pk}/enter/")
    phone.get_by_role("spinbutton", name="You (Alice)").fill("2")
    phone.get_by_role("spinbutton", name="Opponent (Bob)").fill("5")
    phone.get_by_role("button", name="Record final score").click()
    phone.get_by_text("Final score recorded.").wait_for()
    assert Match.objects.get(pk=match.pk).winner_id == bob.pk
    phone.get_by_role("button", name="Undo final score: you 2, opponent 5").click()
    phone.get_by_text("Final score taken back.").wait_for()
    phone.get_by_role("spinbutton", name="You (Alice)").fill("5")
    phone.get_by_role("spinbutton", name="Opponent (Bob)").fill("2")
    phone.get_by_role("button", name="Record final score").click()
    phone.get_by_text("Final score recorded.").wait_for()
    stored = Match.objects.get(pk=match.pk)
    assert (stored.score1, stored.score2, stored.winner_id) == (5, 2, alice.pk)

    # A first double dropped: Bob offered 2, Alice dropped, Bob wins 1 point.
    second = make_match(5)
    phone.goto(f"/matches/{second.pk}/enter/")

    def choose(question: str, answer: str) -> None:
        phone.get_by_role("group", name=question).get_by_role(
            "radio", name=answer, exact=True
        ).check()

    assert not phone.get_by_role("group", name="Cube offered").is_visible()
    choose("Who won?", "Opponent (Bob)")
    choose("Ended by", "Double dropped")
    assert not phone.get_by_role("group", name="Won by").is_visible()
    choose("Cube offered", "2")
    hint = phone.locator("#points-hint")
    assert hint.inner_text() == "Cube offered: 2 → Alice dropped, Bob wins 1 point."
    phone.screenshot(
        path=str(pictures_folder("corrections") / "score-entry-drop-360.png"), full_page=True
    )
    phone.get_by_role("button", name="Record game 1").click()
    phone.get_by_text("Game 1 recorded.").wait_for()
    game = Game.objects.get(match=second)
    assert (game.cube, game.ending, game.points, game.winner_id) == (1, "dropped", 1, bob.pk)


def test_pictures_of_the_corrections_and_the_entry_page(
    page_for, login, make_match, director, alice, bob
):
    match = make_match(5)
    actor = actor_for_user(director)
    for winner, extra in ((alice, {"cube": 2}), (bob, {"level": "gammon"}), (alice, {})):
        score_entry.record_game(
            actor=actor,
            match_id=match.pk,
            game=match_records.GameInput(winner_id=winner.pk, **extra),
        )
    final = make_match(3)
    score_entry.record_final_score(actor=actor, match_id=final.pk, score=(1, 3))
    folder = pictures_folder("corrections")
    for width, viewport in (("360", NARROW_PHONE), ("1366", WIDE)):
        page = page_for(viewport, name=f"corrections-{width}")
        login(page, "director")
        page.goto(f"/matches/{match.pk}/")
        page.get_by_text("Correct game 2").click()
        section = page.locator("section.corrections")
        section.scroll_into_view_if_needed()
        section.screenshot(path=str(folder / f"corrections-{width}.png"))
        page.goto(f"/matches/{final.pk}/")
        page.get_by_role("button", name="Swap to 3–1…").click()
        page.get_by_role("heading", name="Swap the final score: Alice 3–1 Bob?").wait_for()
        page.screenshot(path=str(folder / f"corrections-swap-confirm-{width}.png"))
        page.get_by_role("link", name="Cancel").click()

        entry = page_for(viewport, name=f"entry-{width}")
        login(entry, "bob")
        entry.goto(f"/matches/{make_match(5).pk}/enter/")
        entry.get_by_role("group", name="Who won?").get_by_role(
            "radio", name="You (Bob)", exact=True
        ).check()
        entry.get_by_role("group", name="Cube", exact=True).get_by_role(
            "radio", name="2", exact=True
        ).check()
        assert entry.locator("#points-hint").inner_text() == "Bob wins 2 points (cube 2 × single)."
        entry.screenshot(path=str(folder / f"score-entry-{width}.png"), full_page=width == "360")
    assert Match.objects.get(pk=final.pk).score1 == 1  # cancelled: nothing changed
