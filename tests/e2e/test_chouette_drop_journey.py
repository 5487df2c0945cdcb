"""A dropped double at cube 2, on a player's 360 px phone (issue #27 item 3: the card
once took the cube *before* the double, and a dropped 2 cost its dropper 2 points).

Ann, a member of the club with an account, opens a chouette of three from the club
page; Ben is the box, Cat the captain, Ann the other member. The box doubles Ann to 2
and she drops; Cat wins the board. The card asks for the cube offered and says so next
to the field; a drop left at 1 is refused there, in words. Recorded as 2, the ledger
charges Ann 1 point, the value before the double, as the card says; her column and
everyone's totals are what her phone shows, and the settlement has her pay Cat 1.00.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.services import clubs as club_services

from .conftest import PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_dropped_double_at_2_costs_the_dropper_1_point(page_for, login, club, make_user):
    club_services.create_player(display_name="Ann", clubs=[club], user=make_user("ann"))
    for name in ("Ben", "Cat"):
        club_services.create_player(display_name=name, clubs=[club])
    phone = page_for(PHONE_360, name="chouette-drop-at-2")
    login(phone, "ann")

    phone.goto(f"/clubs/{club.slug}/")
    phone.get_by_role("link", name="Open a chouette").click()
    for name, roll in (("Ann", "3"), ("Ben", "6"), ("Cat", "5")):
        phone.get_by_label(f"{name}'s rolls").fill(roll)
    phone.get_by_label("Stake per point").fill("1.00")
    phone.get_by_label("Currency").fill("EUR")
    phone.get_by_role("button", name="Open the chouette").click()
    phone.get_by_text("Chouette opened: Ben is box, Cat captain.").wait_for()

    board = phone.get_by_role("region", name="The board")
    ann = phone.get_by_role("region", name="Ann", exact=True)

    def choose(where, question: str, answer: str) -> None:
        where.get_by_role("group", name=question, exact=True).get_by_role(
            "radio", name=answer, exact=True
        ).check()

    # The box doubled Ann to 2; she dropped. Cat (captain) won the board: a single.
    choose(board, "Who won on the board?", "Team")
    choose(board, "Won by", "Single")
    cube = ann.get_by_role("group", name="Cube", exact=True)
    assert "For a drop: the cube offered (2 for a first double)" in cube.inner_text()
    assert "A dropped 2 costs 1 point." in cube.inner_text()
    choose(ann, "Cube action", "Dropped")
    # First try: the cube left at 1, as if nobody had said which double was refused.
    phone.get_by_role("button", name="Record game 1").click()
    phone.get_by_text("Not recorded.").wait_for()
    said = ann.get_by_role("group", name="Cube", exact=True).locator(".error").inner_text()
    assert "For a drop, choose the cube that was offered (2 for a first double)" in said
    assert "1 was chosen" in said
    # As it went: the cube offered was 2.
    choose(ann, "Cube", "2")
    phone.get_by_role("button", name="Record game 1").click()
    phone.get_by_text("Game 1 recorded.").wait_for()

    # The ledger on Ann's phone: her own column, and everyone's totals.
    ledger = phone.evaluate("""() => {
      const shown = (el) => el.getBoundingClientRect().width > 0;
      const table = document.querySelector("table.ledger");
      const heads = [...table.querySelectorAll("thead th")];
      const column = heads.findIndex((th) => th.classList.contains("mine"));
      const row = table.querySelector("tbody tr");
      return {
        shownHeads: heads.filter(shown).map((th) => th.textContent.trim()),
        mine: heads[column].textContent.trim(),
        game1: row.children[column].querySelector("span").textContent.trim(),
        totals: [...document.querySelectorAll(".ledger-totals li")].map(
          (li) => [li.querySelector(".who").textContent, li.querySelector("strong").textContent]),
      };
    }""")
    assert ledger["mine"] == "Ann" and ledger["game1"] == "-1", ledger
    assert "Ann" in ledger["shownHeads"], ledger
    assert not {"Ben", "Cat"} & set(ledger["shownHeads"]), ledger  # folded on a phone
    assert dict(ledger["totals"]) == {"Ben": "0", "Cat": "1", "Ann": "-1"}, ledger
    # the sheet shows the drop as it was entered: the cube offered, 2, refused
    last = phone.locator("p.muted", has_text="Last game").inner_text()
    assert "Ann 2 (refused the box's double)" in last, last
    phone.get_by_role("heading", name="Ledger").evaluate(
        "(h) => h.scrollIntoView({block: 'start'})"
    )
    phone.screenshot(path=str(pictures_folder("chouette") / "chouette-drop-at-2-360.png"))

    phone.get_by_role("link", name="Settlement").click()
    phone.get_by_role("heading", name="Who pays whom").wait_for()
    money = {
        row.locator("th").inner_text(): Decimal(row.locator("td").nth(1).inner_text())
        for row in phone.locator("table.ledger tbody tr").all()
    }
    assert money == {"Ben": Decimal("0.00"), "Cat": Decimal("1.00"), "Ann": Decimal("-1.00")}
    assert phone.locator("ol.transfers li").all_inner_texts() == ["Ann pays Cat 1.00 EUR"]
