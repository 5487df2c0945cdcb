"""Issue 15's journey: a director runs an event's money from the pages.

A 16-player event with a consolation fed by round 1. On the money page the director
sets a main pool (20.00, 10 % rake, 50/25/12.5/12.5), a side pool (5.00, four
entrants), and a consolation pool taking buy-backs (10.00, up to round 1); after round
1 two knocked-out players buy back; on the auction page the Calcutta sells 16 lots (one
to a syndicate 60/40, one player buying back 25 % of himself); payments are marked from
the entries list. The matches are played through the match services (the score-entry
pages have their own journeys); the director finishes the event on the dashboard; the
payout sheet then shows every payout, the rounding and a settlement that squares
everyone.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from tests.factories import member
from tests.tournaments.conftest import actor, make_event, play_out, win  # noqa: F401  (fixtures)
from tournaments.models import Entry

from .conftest import LAPTOP, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _submit(page, section: str, button: str) -> None:
    page.locator(section).get_by_role("button", name=button).click()
    page.get_by_text("Saved.").first.wait_for()


def test_an_event_with_side_pool_buy_backs_and_a_calcutta_settles_from_the_pages(
    page_for,
    login,
    club,
    make_event,  # noqa: F811
    win,  # noqa: F811
):
    event = make_event(16, consolation_from=[1])
    seeds = {e.seed: e for e in Entry.objects.filter(tournament=event).select_related("player")}
    backers = [member(club, display_name=f"Backer {i}") for i in range(1, 5)]
    money = f"/tournaments/{event.slug}/director/money/"
    page = page_for(LAPTOP, name="money-journey")
    login(page, "director")

    # Pools from the money page.
    page.goto(f"/tournaments/{event.slug}/director/")
    page.get_by_role("link", name="Fees and payments").click()
    page.get_by_role("heading", name="Add or change a pool").wait_for()
    form = page.locator("#pool")
    form.get_by_label("Entry fee").fill("20")
    form.get_by_label("Rake %").fill("10")
    form.get_by_label("Payout table").select_option("50_25_12.5_12.5")
    _submit(page, "#pool", "Save the pool")
    form.get_by_label("Short name (key)").fill("side")
    form.get_by_label("Name", exact=True).fill("Side pool")
    form.get_by_label("Entry fee").fill("5")
    form.get_by_label("Rake %").fill("0")
    form.get_by_label("Payout table").select_option("winner_takes_all")
    form.get_by_label("Side pool").check()
    _submit(page, "#pool", "Save the pool")
    form.get_by_label("Short name (key)").fill("consolation")
    form.get_by_label("Name", exact=True).fill("Consolation")
    form.get_by_label("Entry fee").fill("0")
    form.get_by_label("Payout table").select_option("winner_takes_all")
    form.get_by_label("Paid by").select_option("consolation")
    form.get_by_label("Buy-back fee").fill("10")
    form.get_by_label("Buy-backs open for players out by round").fill("1")
    _submit(page, "#pool", "Save the pool")
    entrants = page.locator("#entrants-side")
    for seed in (3, 5, 7, 12):
        entrants.get_by_label(seeds[seed].player.display_name, exact=True).check()
    _submit(page, "#entrants-side", "Save the entrants of Side pool")

    # A bad custom table is refused next to the form, nothing saved.
    form.get_by_label("Short name (key)").fill("broken")
    form.get_by_label("Payout table").select_option("custom")
    form.get_by_label("Custom table").fill("60 / 30")
    form.get_by_role("button", name="Save the pool").click()
    page.get_by_text("Payout table: The percentages sum to 90, not 100.").wait_for()
    page.goto(money)

    # Round 1 is played; two of its losers buy back into the consolation.
    for p in event.pairings.filter(key__startswith="main-r1"):
        win(event, p.key, min(p.entry1.seed, p.entry2.seed))
    page.goto(money)
    buy_back = page.locator("#buy-back-consolation")
    for seed in (9, 16):
        buy_back.get_by_label("Player").select_option(label=seeds[seed].player.display_name)
        _submit(page, "#buy-back-consolation", "Record the buy-back")
    assert buy_back.get_by_text("paid 10.00").count() == 2
    buy_back.get_by_label("Player").select_option(label=seeds[1].player.display_name)
    buy_back.get_by_role("button", name="Record the buy-back").click()
    page.get_by_text("Only a player knocked out of the main bracket buys back.").wait_for()

    # The Calcutta: 70/30, 5 % rake, 16 lots sold, one to a syndicate, one bought back.
    page.goto(f"{money}auction/")
    setup = page.locator("#calcutta")
    setup.get_by_label("Payout table").select_option("custom")
    setup.get_by_label("Custom table").fill("70 / 30")
    setup.get_by_label("Rake %").fill("5")
    setup.get_by_label("Players may buy back up to").fill("50")
    _submit(page, "#calcutta", "Save the Calcutta")
    for seed in range(1, 17):
        page.locator("#lot").get_by_label(seeds[seed].player.display_name, exact=True).check()
        _submit(page, "#lot", "Add the lot")
    for seed in range(1, 17):
        name = seeds[seed].player.display_name
        lot = page.locator(f'article[data-lot="{name}"]')
        lot.get_by_label("Price").fill(str(10 + seed))
        if seed == 1:
            lot.get_by_label(f"Buyer 1 of {name}").select_option(label="Backer 1")
            lot.get_by_label(f"Share 1 of {name} (%)").fill("60")
            lot.get_by_label(f"Buyer 2 of {name}").select_option(label="Backer 2")
            lot.get_by_label(f"Share 2 of {name} (%)").fill("40")
        else:
            lot.get_by_label(f"Buyer 1 of {name}").select_option(
                label=backers[seed % 4].display_name
            )
        lot.get_by_role("button", name="Sold").click()
        page.get_by_text("Saved.").first.wait_for()
    first_lot = page.locator(f'article[data-lot="{seeds[1].player.display_name}"]')
    first_lot.get_by_label("Buy-back %").fill("25")
    first_lot.get_by_role("button", name="Buy back").click()
    page.get_by_text("Saved.").first.wait_for()
    first_lot = page.locator(f'article[data-lot="{seeds[1].player.display_name}"]')
    assert first_lot.get_by_text("Backer 1: 45.00 %").is_visible()
    assert first_lot.get_by_text(f"{seeds[1].player.display_name}: 25.00 %").is_visible()
    assert page.get_by_role("heading", name="Lots (16): pool 296.00 EUR").is_visible()

    # Payments marked from the entries list: two paid cash, one by transfer.
    page.goto(money)
    for name, how in (
        (seeds[1].player.display_name, "cash"),
        (seeds[2].player.display_name, "cash"),
    ):
        page.get_by_role("button", name=re.compile(f"^{name} paid .* {how}$")).click()
        page.get_by_text("Saved.").first.wait_for()
    page.get_by_role(
        "button", name=re.compile(f"^{seeds[3].player.display_name} paid .* by transfer$")
    ).click()
    page.get_by_text("Saved.").first.wait_for()
    row = page.locator(f'tr[data-player="{seeds[1].player.display_name}"]')
    assert row.locator("td").nth(2).inner_text() == "0.00"  # paid fee and Calcutta buy-back

    # Play on; the director finishes the event on the dashboard.
    play_out(event, win)
    page.goto(f"/tournaments/{event.slug}/director/")
    page.get_by_role("button", name="Finish the event").click()
    page.get_by_role("button", name="Yes, finish the event").click()
    page.get_by_text(re.compile(r" is finished: .+ wins\.$")).wait_for()

    # The payout sheet.
    page.goto(f"{money}payout-sheet/")
    sheet = page.locator("#sheet-payouts")

    def payouts(pool: str) -> list[tuple[str, str]]:
        items = sheet.locator(f'h3[id="payouts-{pool}"] + ol li')
        return [
            (li.locator(".who").inner_text(), li.locator(".num").inner_text()) for li in items.all()
        ]

    seed_name = {seed: seeds[seed].player.display_name for seed in seeds}
    # main: 16 x 20.00 = 320.00, rake 32.00, net 288.00: 144 / 72 / 36 + 36 (3-4 shared)
    assert payouts("main") == [
        (seed_name[1], "144.00 EUR"),
        (seed_name[2], "72.00 EUR"),
        (seed_name[3], "36.00 EUR"),
        (seed_name[4], "36.00 EUR"),
    ]
    # the side pool's entrant who went furthest (a semi-finalist) takes its 20.00
    assert payouts("side") == [(seed_name[3], "20.00 EUR")]
    # the consolation pool: the two buy-backs (20.00), paid among those who bought in
    assert payouts("consolation") == [(seed_name[9], "20.00 EUR")]
    # the Calcutta: 296.00 less 14.80 rake = 281.20; 70 % = 196.84 -> 196 and 30 % = 84.36
    # -> 84 (rounded to whole units), the 1.20 remainder to the first
    assert payouts("calcutta") == [(seed_name[1], "197.20 EUR"), (seed_name[2], "84.00 EUR")]
    people = page.locator("#sheet-people tbody tr")
    balances: dict[str, Decimal] = {}
    for row in people.all():
        cells = row.locator("td").all_inner_texts()
        balances[row.locator("th").inner_text()] = Decimal(cells[-1])
    assert sum(balances.values()) == 0
    # Backer 1 holds 45 % of the first lot: 88.74 of its 197.20, less 60 % of its 11.00 x 75 %
    assert balances["Backer 1"] == Decimal("88.74") - Decimal("4.95") - sum(
        Decimal(10 + s)
        for s in range(2, 17)
        if s % 4 == 0  # lots sold to backers[0]
    )
    after = dict(balances)
    transfers = page.locator("#sheet-settlement ol li").all_inner_texts()
    for text in transfers:
        match = re.fullmatch(r"(.+) pays (.+) (\d+\.\d\d)", text.strip())
        assert match, text
        payer, payee, amount = match.group(1), match.group(2), Decimal(match.group(3))
        after[payer] += amount
        after[payee] -= amount
    assert set(after.values()) == {Decimal(0)}
    assert len(transfers) < len([b for b in balances.values() if b])

    # The public page shows payouts and the Calcutta; a phone can read it.
    phone = page_for(PHONE, name="money-public-phone")
    phone.goto(f"/tournaments/{event.slug}/money/")
    phone.get_by_role("heading", name="Calcutta", exact=True).wait_for()
    assert phone.get_by_text("197.20 EUR").first.is_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1

    # The director's money page and the auction page fit a phone.
    for path, shot in (
        (money, "money-director-phone"),
        (f"{money}auction/", "money-auction-phone"),
    ):
        small = page_for(PHONE, name=shot)
        login(small, "director")
        small.goto(path)
        small.get_by_role("heading", level=1).wait_for()
        assert small.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1, path
