"""A club night on a 360 px phone: nothing clipped, nothing off the side of the page.

The pages a director and the players read at the table, with realistic data: a
sixteen-player bracket with long names ("Bruno Bianchi-Rossetti"), the director's
dashboard listing its ready matches, a six-member chouette ledger and a nine-game
match. At 360×740 each page must fit the screen (``scrollWidth <= 360``; a wide table
may scroll only inside its own box), every Points cell of the games table must be on
screen, every bracket name must fit its box (the SVG text's computed length against
the box), and the dashboard's forfeit button must stand on its own line, apart from
the match link. Screenshots at 360 and 1366 px go to ``artifacts/e2e/phones/`` (with
``BOXCARS_UPDATE_SCREENSHOTS=1``, to ``docs/screenshots/`` for the manual).
"""

from __future__ import annotations

import pytest

from games.services import clubs as club_services
from games.services import match_create, match_records, score_entry
from games.services.actors import actor_for_user
from tests.chouette.helpers import client as api_client
from tests.chouette.helpers import member as chouette_member
from tests.chouette.helpers import sessions_url
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

from .conftest import LAPTOP_1366, PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


LONG_NAMES = [
    "Bruno Bianchi-Rossetti",
    "Annemarie Vandenberghe",
    "Giovanni Castellano",
    "Maximilian Oberhauser",
    "Françoise Delacroix",
    "Siobhán Ní Bhriain",
    "Konstantin Wolkowski",
    "Henrietta Blackwood",
    "Aleksandra Nowakowska",
    "Bartholomew Finch",
    "Guadalupe Hernández",
    "Wilhelmina Stroud",
    "Oluwaseun Adeyemi",
    "Christophe Lemaire",
    "Margarethe Lindqvist",
    "Jean-Baptiste Morel",
]
SIX = ["Alexandra", "Benedikt", "Cordelia", "Dominik", "Evangeline", "Florian"]


@pytest.fixture
def night(club, director):
    """A running sixteen-player knockout with long names, a chouette of six with a few
    games, and a nine-game match."""
    actor = actor_for_user(director)
    players = [club_services.create_player(display_name=n, clubs=[club]) for n in LONG_NAMES]
    cup = event_services.create_tournament(
        actor=actor, club=club, name="Club Cup", format="single_elimination", slug="club-cup"
    )
    for p in players:
        entry_services.register_entry(actor=actor, tournament_id=cup.pk, player_id=p.pk)
    entry_services.start_tournament(actor=actor, tournament_id=cup.pk)

    six = [club_services.create_player(display_name=n, clubs=[club]) for n in SIX]
    api = api_client(director)
    opened = api.post(
        sessions_url(),
        {"club": club.slug, "stake": "1.00", "players": [p.pk for p in six]},
        format="json",
    )
    assert opened.status_code == 201, opened.json()
    sid = opened.json()["id"]
    for _ in range(4):
        box = api.get(sessions_url(sid)).json()["box"]["id"]
        members = [chouette_member(p) for p in six if p.pk != box]
        recorded = api.post(
            sessions_url(sid, "games/"), {"winner": "box", "members": members}, format="json"
        )
        assert recorded.status_code == 201, recorded.json()

    match = match_create.create_match(
        actor=actor, club=club, player1=players[0], player2=players[1], length=11
    )
    for number in range(9):
        winner = players[number % 2]
        score_entry.record_game(
            actor=actor,
            match_id=match.pk,
            game=match_records.GameInput(
                winner_id=winner.pk, level="gammon" if number == 4 else "single"
            ),
        )
    return {"cup": cup, "session": sid, "match": match}


OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const scrollers = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (["auto", "scroll"].includes(style.overflowX) && p !== document.documentElement
          && p !== document.body) return p;
    }
    return null;
  };
  const out = [];
  for (const el of document.querySelectorAll("main *")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5) continue;
    if (scrollers(el)) continue;
    out.push(el.tagName + "." + el.className + ": " + (el.textContent || "").slice(0, 40));
  }
  return {scrollWidth: document.documentElement.scrollWidth, outside: out.slice(0, 5)};
}"""


def _fits(page) -> None:
    found = page.evaluate(OVERFLOW)
    assert found["scrollWidth"] <= PHONE_360["width"], found
    assert not found["outside"], found


def _open(browser, live_server, login, viewport, url, expect):
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    login(page, "director")
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    page.get_by_text(expect).first.wait_for()
    return context, page


PAGES = [
    ("phone-games-table", lambda n: f"/matches/{n['match'].pk}/", "Score sheet"),
    ("phone-chouette-ledger", lambda n: f"/chouette/sessions/{n['session']}/", "Ledger"),
    ("phone-bracket", lambda n: "/tournaments/club-cup/bracket/", "Follow a player"),
    ("phone-director-dashboard", lambda n: "/tournaments/club-cup/director/", "Ready to play"),
]
#: What each screenshot shows: the page scrolled to this heading.
SHOWN = {
    "phone-games-table": "Score sheet",
    "phone-chouette-ledger": "Ledger",
    "phone-bracket": "Main",
    "phone-director-dashboard": "Ready to play",
}


@pytest.mark.parametrize(("name", "url", "expect"), PAGES, ids=[p[0] for p in PAGES])
def test_nothing_is_clipped_at_360_px(browser, live_server, login, night, name, url, expect):
    folder = pictures_folder("phones")
    for viewport in (LAPTOP_1366, PHONE_360):
        context, page = _open(browser, live_server, login, viewport, url(night), expect)
        try:
            if viewport is PHONE_360:
                _fits(page)
                CHECKS[name](page)
            heading = page.get_by_role("heading", name=SHOWN[name], exact=True).first
            heading.evaluate("(h) => h.scrollIntoView({block: 'start'})")
            page.screenshot(path=str(folder / f"{name}-{viewport['width']}.png"))
        finally:
            context.close()


COLUMNS_ON_SCREEN = """(selector) => {
  const table = document.querySelector(selector);
  return [...table.querySelectorAll("thead th")]
    .filter((th) => th.getBoundingClientRect().width > 0)
    .map((th) => { const b = th.getBoundingClientRect();
                   return {text: th.textContent.trim(), left: b.left, right: b.right}; });
}"""


def _every_shown_column_on_screen(page, selector: str, wanted: list[str]) -> None:
    """Every column the table shows at 360 px is whole on the screen (none cut off at
    the right edge, none scrolled out of its box), and ``wanted`` are among them."""
    heads = page.evaluate(COLUMNS_ON_SCREEN, selector)
    for name in wanted:
        assert name in [h["text"] for h in heads], heads
    for head in heads:
        assert head["left"] >= 0 and head["right"] <= PHONE_360["width"], head


def _points_column_on_screen(page) -> None:
    _every_shown_column_on_screen(page, "table.sheet", ["#", "Winner", "Level", "Points"])
    cells = page.evaluate("""() => {
      const table = document.querySelector("table.sheet");
      const heads = [...table.querySelectorAll("thead th")];
      const column = heads.findIndex((th) => th.textContent.trim() === "Points");
      const rows = [...table.querySelectorAll("tbody tr")];
      const shown = table.closest(".table-wrap").getBoundingClientRect();  // its scroll box
      return rows.map((tr) => {
        const box = tr.children[column].getBoundingClientRect();
        return {left: box.left, right: box.right, width: box.width, boxRight: shown.right,
                boxLeft: shown.left, text: tr.children[column].textContent.trim()};
      });
    }""")
    assert len(cells) == 9
    for cell in cells:
        assert cell["width"] > 0 and cell["text"], cells
        assert cell["boxLeft"] <= cell["left"] and cell["right"] <= min(cell["boxRight"], 360), cell


LEDGER_SHOWN = """() => {
  const shown = (el) => el.getBoundingClientRect().width > 0;
  const table = document.querySelector("table.ledger");
  return {
    heads: [...table.querySelectorAll("thead th")].filter(shown).map((th) => th.textContent.trim()),
    totals: [...document.querySelectorAll(".ledger-totals li")].filter(shown).map((li) => {
      const b = li.getBoundingClientRect();
      return {text: li.textContent.trim().replace(/\\s+/g, " "), left: b.left, right: b.right};
    }),
  };
}"""


def _ledger_folds_to_totals(page) -> None:
    """On a phone the ledger shows the viewer's column (the director plays in none)
    and everyone's totals, each whole on screen; one tap shows every column, which
    then scrolls inside its box with the game number held at the left."""
    folded = page.evaluate(LEDGER_SHOWN)
    assert not set(SIX) & set(folded["heads"]), folded  # no player's column: not a player
    assert [t["text"].split(" ")[0] for t in folded["totals"]] == SIX, folded
    for total in folded["totals"]:
        assert total["left"] >= 0 and total["right"] <= PHONE_360["width"], total
    page.get_by_text("Every game, every player").click()
    _fits(page)
    assert set(SIX) <= set(page.evaluate(LEDGER_SHOWN)["heads"])
    _ledger_columns_reachable(page)
    page.get_by_text("Every game, every player").click()  # folded again for the picture
    assert not set(SIX) & set(page.evaluate(LEDGER_SHOWN)["heads"])


def _ledger_columns_reachable(page) -> None:
    ledger = page.evaluate("""() => {
      const table = document.querySelector("table.ledger");
      const wrap = table.parentElement;
      const style = getComputedStyle(wrap);
      const first = table.querySelector("tbody th").getBoundingClientRect();
      return {scrolls: ["auto", "scroll"].includes(style.overflowX),
              wrapRight: wrap.getBoundingClientRect().right,
              firstSticky: getComputedStyle(table.querySelector("tbody th")).position,
              firstLeft: first.left,
              heads: [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim())};
    }""")
    assert ledger["scrolls"] and ledger["wrapRight"] <= 360, ledger
    assert ledger["firstSticky"] == "sticky", ledger
    for name in SIX:
        assert name in ledger["heads"], ledger
    # scrolled to the far right, the game number column stays in view
    page.evaluate(
        "() => { const w = document.querySelector('table.ledger').parentElement;"
        " w.scrollLeft = w.scrollWidth; }"
    )
    left = page.evaluate(
        "() => document.querySelector('table.ledger tbody th').getBoundingClientRect().left"
    )
    assert 0 <= left < 40, left


def _bracket_names_fit(page) -> None:
    texts = page.evaluate("""() => [...document.querySelectorAll("svg.bracket g.slot")]
      .flatMap((g) => {
        const rect = g.querySelector("rect");
        const width = rect.width.baseVal.value;
        return [...g.querySelectorAll("text.name")].map((t) => ({
          text: t.textContent, right: t.x.baseVal[0].value + t.getComputedTextLength(),
          room: width - 30}));
      })""")
    assert len(texts) >= 16
    shown = " ".join(t["text"] for t in texts)
    for name in LONG_NAMES:
        assert name in shown, name
    for t in texts:
        assert t["right"] <= t["room"], t
    wrap = page.evaluate("""() => {
      const w = document.querySelector(".bracket-wrap");
      return {overflow: getComputedStyle(w).overflowX, right: w.getBoundingClientRect().right};
    }""")
    assert wrap["overflow"] in ("auto", "scroll") and wrap["right"] <= 360, wrap


def _forfeit_apart_from_link(page) -> None:
    rows = page.evaluate("""() => [...document.querySelectorAll("form[action*='forfeit']")]
      .map((form) => {
        const row = form.closest("tr");
        const link = row.querySelector("a").getBoundingClientRect();
        const button = form.querySelector("button").getBoundingClientRect();
        return {linkBottom: link.bottom, buttonTop: button.top, buttonRight: button.right};
      })""")
    assert len(rows) == 8
    for row in rows:
        assert row["buttonTop"] >= row["linkBottom"] + 12, row  # its own line, spaced
        assert row["buttonRight"] <= 360, row


CHECKS = {
    "phone-games-table": _points_column_on_screen,
    "phone-chouette-ledger": _ledger_folds_to_totals,
    "phone-bracket": _bracket_names_fit,
    "phone-director-dashboard": _forfeit_apart_from_link,
}


def test_the_opponents_confirm_screen_fits_360_px(
    browser, live_server, login, make_match, alice, bob
):
    """The one screen where the opponent decides to agree (issue #27 item 6: Level and
    Points were cut off): Alice entered the match, Bob confirms it on a 360 px phone."""
    match = make_match(5)
    enters = actor_for_user(alice.user)
    for winner, level, cube in ((alice, "single", 1), (bob, "gammon", 1), (alice, "gammon", 2)):
        score_entry.record_game(
            actor=enters,
            match_id=match.pk,
            game=match_records.GameInput(winner_id=winner.pk, level=level, cube=cube),
        )
    folder = pictures_folder("phones")
    for viewport in (LAPTOP_1366, PHONE_360):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            login(page, "bob")
            page.goto(f"/matches/{match.pk}/enter/")
            question = page.get_by_role("heading", name="Your opponent entered this")
            question.wait_for()
            if viewport is PHONE_360:
                _fits(page)
                confirm = page.locator("section.confirm")
                _every_shown_column_on_screen(
                    page, "section.confirm table.sheet", ["#", "Winner", "Level", "Points"]
                )
                points = confirm.locator("table.sheet tbody td.num").all_inner_texts()
                assert points == ["1", "2", "4"], points
                button = confirm.get_by_role("button", name="Yes, confirm").bounding_box()
                assert button is not None and button["x"] + button["width"] <= 360, button
            question.evaluate("(h) => h.scrollIntoView({block: 'start'})")
            page.screenshot(path=str(folder / f"phone-confirm-{viewport['width']}.png"))
        finally:
            context.close()
