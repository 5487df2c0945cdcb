"""A chouette table on a phone: opens a session from opening rolls (a tie re-rolled),
records three games on the live sheet (a drop, a gammon, a refused record put right)
and reads the ledger and a settlement that squares everyone."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from chouette.models import Session
from games.services import clubs as club_services

from .conftest import ARTIFACTS, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _snap(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_a_table_opens_a_chouette_records_three_games_and_settles(page_for, login, club):
    for name in ("Ann", "Ben", "Cat", "Dan"):
        club_services.create_player(display_name=name, clubs=[club])
    phone = page_for(PHONE, name="chouette-settlement")
    login(phone, "director")

    # Open from the club page: Cat and Dan tie on 3 and must roll again.
    phone.goto(f"/clubs/{club.slug}/")
    phone.get_by_role("link", name="Open a chouette").click()
    for name, roll in (("Ann", "5"), ("Ben", "6"), ("Cat", "3"), ("Dan", "3")):
        phone.get_by_label(f"{name}'s rolls").fill(roll)
    phone.get_by_label("Stake per point").fill("0.50")
    phone.get_by_label("Currency").fill("USD")
    phone.get_by_role("button", name="Open the chouette").click()
    phone.get_by_text("Not opened.").wait_for()
    assert "Players Cat, Dan are tied after 1 roll(s)" in phone.locator(".error-box").inner_text()
    _snap(phone, "chouette-open-tie")
    phone.get_by_label("Cat's rolls").fill("3 4")
    phone.get_by_label("Dan's rolls").fill("3 2")
    phone.get_by_role("button", name="Open the chouette").click()
    phone.get_by_text("Chouette opened: Ben is box, Ann captain.").wait_for()
    assert Session.objects.get().currency == "USD"

    board = phone.get_by_role("region", name="The board")

    def choose(where, question: str, answer: str) -> None:
        where.get_by_role("group", name=question).get_by_role(
            "radio", name=answer, exact=True
        ).check()

    def member(name: str):
        return phone.get_by_role("region", name=name, exact=True)

    def record(number: int) -> None:
        phone.get_by_role("button", name=f"Record game {number}").click()

    # Game 1: the box (Ben) beats everyone on centred cubes: he stays, Ann goes down.
    record(1)
    phone.get_by_text("Game 1 recorded.").wait_for()
    assert phone.locator(".lineup .box").inner_text().endswith("Ben")

    # Game 2: Cat (captain) doubled, Ben took; Dan refused the box's double (a drop);
    # the team wins a gammon: Cat +4 on her turned cube, Ann +1 (Jacoby), Dan -1.
    choose(board, "Who won on the board?", "Team")
    choose(board, "Won by", "Gammon")
    choose(member("Cat"), "Cube", "2")
    choose(member("Cat"), "Owner", "Box")
    choose(member("Dan"), "Cube action", "Dropped")
    # A drop is entered as the cube offered (2), as on the match score sheet, and the
    # card says so next to the field: Dan pays 1, the value before the double.
    assert "For a drop: the cube offered" in member("Dan").inner_text()
    choose(member("Dan"), "Cube", "2")
    record(2)
    phone.get_by_text("Game 2 recorded.").wait_for()
    assert phone.locator(".lineup .box").inner_text().endswith("Cat")  # the captain won
    _snap(phone, "chouette-sheet-after-game-2")

    # Game 3, first try: a centred cube cannot have an owner; the rule says so.
    choose(board, "Who won on the board?", "Team")
    choose(board, "Won by", "Gammon")
    choose(member("Dan"), "Cube", "2")
    choose(member("Ann"), "Cube action", "Box dropped")
    choose(member("Ann"), "Cube", "2")  # Ann's double to 2, refused by the box
    choose(member("Ben"), "Owner", "Box")
    record(3)
    phone.get_by_text("Not recorded.").wait_for()
    assert "owner_of_centred_cube" in phone.locator(".error-box").inner_text()
    _snap(phone, "chouette-refused-game")
    # ... as it really went: the choices made are still there; fix Ben's owner.
    choose(member("Ben"), "Owner", "Centre")
    record(3)
    phone.get_by_text("Game 3 recorded.").wait_for()

    # The ledger: points per game and totals, summing to zero.
    totals = phone.locator("table.ledger tfoot td strong").all_inner_texts()
    assert [int(t) for t in totals] == [0, 1, -3, 2]  # Ben, Ann, Cat, Dan (opening order)
    assert phone.get_by_role("region", name="Audit trail").is_visible()
    _snap(phone, "chouette-sheet-after-game-3")

    phone.get_by_role("link", name="Settlement").click()
    phone.get_by_role("heading", name="Who pays whom").wait_for()
    money = {}
    for row in phone.locator("table.ledger tbody tr").all():
        name = row.locator("th").inner_text()
        money[name] = Decimal(row.locator("td").nth(1).inner_text())
    assert money == {
        "Ben": Decimal("0.00"),
        "Ann": Decimal("0.50"),
        "Cat": Decimal("-1.50"),
        "Dan": Decimal("1.00"),
    }
    transfers = phone.locator("ol.transfers li").all_inner_texts()
    balance = dict(money)
    for line in transfers:
        payer, payee, amount = re.fullmatch(r"(\w+) pays (\w+) ([\d.]+) USD", line).groups()
        balance[payer] += Decimal(amount)
        balance[payee] -= Decimal(amount)
    assert len(transfers) == 2
    assert all(value == 0 for value in balance.values()), balance
