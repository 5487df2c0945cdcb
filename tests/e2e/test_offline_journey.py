"""Phones offline at the venue (issue 29): the player's pages open with no network once
visited, entries made offline wait in a queue (IndexedDB) and reach the server once
each, in order, when the network returns; conflicts are said in words.

``context.set_offline(True)`` cuts the page and its service worker off the network, as
a basement does."""

from __future__ import annotations

import time

import pytest

from games import score_links
from games.models import Game, Match
from games.services import score_entry
from games.services.actors import actor_for_user
from games.services.match_records import GameInput

from .conftest import PHONE_360, pictures_folder

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def choose(page, question: str, answer: str) -> None:
    page.get_by_role("group", name=question).get_by_role("radio", name=answer, exact=True).check()


KEPT_FOR_OFFLINE = """async () => {
    const names = await caches.keys();
    for (const name of names.filter((n) => n.startsWith('boxcars-pages-'))) {
        const cache = await caches.open(name);
        if (await cache.match(location.origin + location.pathname)) return true;
    }
    return false;
}"""


def controlled(page) -> None:
    """Wait until the service worker controls the page and has kept it for offline;
    fail, naming the page, if it never does.

    Installing the worker caches the whole shell first; on a loaded machine (CI's three
    browsers on two cores) that took longer than the default 15 s once, so these waits
    get 45 s: they wait for the browser's work, they time nothing. The cache is polled
    with ``evaluate``: ``wait_for_function`` does not await a promise, so an async
    check given to it passed at once, whatever the cache held."""
    page.wait_for_function(
        "navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=45_000
    )
    deadline = time.monotonic() + 45
    while not page.evaluate(KEPT_FOR_OFFLINE):
        if time.monotonic() > deadline:
            raise AssertionError(f"{page.url} was never kept for offline")
        page.wait_for_timeout(100)


def games_of(match: Match) -> list[tuple[int, int, int, bool]]:
    return [
        (g.number, g.winner_id, g.points, g.crawford)
        for g in Game.objects.filter(match=match).order_by("number")
    ]


def test_three_games_made_offline_reach_the_server_once_each_in_order(
    page_for, login, make_match, alice, bob
):
    match = make_match(3)
    phone = page_for(PHONE_360, name="offline-three-games")
    login(phone, "alice")
    phone.goto(f"/matches/{match.pk}/enter/")
    controlled(phone)
    phone.goto("/")  # visited once, the home page opens offline too
    phone.goto(f"/matches/{match.pk}/enter/")

    phone.context.set_offline(True)
    phone.get_by_text("Offline, last updated").wait_for()
    # Game 1: Alice wins a gammon (2-0); game 2 is the Crawford game: Bob wins single;
    # game 3: Alice wins single, 3-1, the match is over.
    choose(phone, "Who won?", "You (Alice)")
    choose(phone, "Won by", "Gammon")
    phone.get_by_role("button", name="Record game 1").click()
    phone.get_by_text("Game 1: Alice wins 2 points (gammon).").wait_for()
    assert phone.get_by_text("Crawford game: no doubling").is_visible()
    choose(phone, "Who won?", "Opponent (Bob)")
    phone.get_by_role("button", name="Record game 2").click()
    phone.get_by_text("Game 2: Bob wins 1 point (single).").wait_for()
    choose(phone, "Who won?", "You (Alice)")
    phone.get_by_role("button", name="Record game 3").click()
    phone.get_by_text("Game 3: Alice wins 1 point (single).").wait_for()
    assert phone.locator("[data-status=waiting]").count() == 3
    if pictures_folder("offline").name == "screenshots":
        phone.screenshot(
            path=str(pictures_folder("offline") / "offline-waiting-360.png"), full_page=True
        )

    # Reloaded with no network: the kept page, the entries still waiting.
    phone.reload()
    phone.get_by_text("Offline, last updated").wait_for()
    phone.get_by_text("Game 3: Alice wins 1 point (single).").wait_for()
    assert phone.locator("[data-status=waiting]").count() == 3
    assert games_of(match) == []
    # The home page, offline: the badge counts what waits.
    phone.goto("/")
    phone.get_by_text("3 waiting to send").wait_for()
    if pictures_folder("offline").name == "screenshots":
        phone.screenshot(path=str(pictures_folder("offline") / "offline-home-badge-360.png"))
    phone.goto(f"/matches/{match.pk}/enter/")
    phone.get_by_text("Game 3: Alice wins 1 point (single).").wait_for()

    phone.context.set_offline(False)
    phone.locator("[data-status=sent]").first.wait_for()
    assert games_of(match) == [
        (1, alice.pk, 2, False),
        (2, bob.pk, 1, True),
        (3, alice.pk, 1, False),
    ]
    assert Match.objects.get(pk=match.pk).status == "finished"


def test_a_game_recorded_meanwhile_by_the_opponent_is_a_conflict_in_words_then_a_dispute(
    page_for, login, make_match, alice, bob, alice_user, bob_user
):
    match = make_match(5)
    score_entry.record_game(
        actor=actor_for_user(alice_user),
        match_id=match.pk,
        number=1,
        game=GameInput(
            winner_id=alice.pk, cube=1, cube_owner="centre", ending="played", level="single"
        ),
    )
    phone = page_for(PHONE_360, name="offline-conflict")
    login(phone, "alice")
    phone.goto(f"/matches/{match.pk}/enter/")
    controlled(phone)

    phone.context.set_offline(True)
    choose(phone, "Who won?", "You (Alice)")
    choose(phone, "Won by", "Gammon")
    phone.get_by_role("button", name="Record game 2").click()
    phone.get_by_text("Game 2: Alice wins 2 points (gammon).").wait_for()
    # Meanwhile Bob, online, records game 2 his way.
    score_entry.record_game(
        actor=actor_for_user(bob_user),
        match_id=match.pk,
        number=2,
        game=GameInput(
            winner_id=bob.pk, cube=1, cube_owner="centre", ending="played", level="single"
        ),
    )

    phone.context.set_offline(False)
    phone.get_by_text("Game 2 was recorded differently while you were offline.").wait_for()
    assert phone.get_by_text(
        "The server has: Bob wins 1 point (single), entered by Bob."
    ).is_visible()
    assert phone.get_by_text("Your phone had: Alice wins 2 points (gammon).").is_visible()
    assert phone.get_by_role("button", name="Keep theirs").is_visible()
    assert phone.get_by_role("button", name="Enter mine as game 3").is_visible()
    if pictures_folder("offline").name == "screenshots":
        phone.locator("#offline-queue").screenshot(
            path=str(pictures_folder("offline") / "offline-conflict-360.png")
        )
    assert games_of(match) == [(1, alice.pk, 1, False), (2, bob.pk, 1, False)]

    queue = phone.locator("#offline-queue")
    queue.get_by_role("button", name="Dispute", exact=True).click()
    reason = queue.get_by_label("What is wrong with the entry?")
    assert reason.input_value() == (
        "Game 2: the server has Bob wins 1 point (single); "
        "my phone had Alice wins 2 points (gammon)."
    )
    queue.get_by_role("button", name="Send dispute").click()
    phone.get_by_text("The club's directors will rule").wait_for()  # the page's dispute block
    disputed = Match.objects.get(pk=match.pk)
    assert disputed.confirmation == "disputed"
    dispute = disputed.disputes.get()
    assert "Bob wins 1 point (single)" in dispute.reason
    assert "Alice wins 2 points (gammon)" in dispute.reason
    assert games_of(match) == [(1, alice.pk, 1, False), (2, bob.pk, 1, False)]


def test_an_entry_whose_answer_was_lost_is_sent_again_and_held_once(
    browser, live_server, make_match, alice
):
    """A flaky network: the server takes game 1 but its answer never reaches the phone;
    the queue sends it again with the same Idempotency-Key and the server replays the
    first answer. Through Alice's score link (no account: the link travels in the
    X-Score-Link header), and with no service worker: the page alone sends its queue."""
    match = make_match(5)
    context = browser.new_context(
        viewport=PHONE_360, base_url=live_server.url, service_workers="block"
    )
    try:
        phone = context.new_page()
        phone.set_default_timeout(15_000)
        phone.goto(f"/score/{score_links.make_token(match, alice)}/")
        sends: list[tuple[str, str | None, int]] = []

        def flaky(route) -> None:
            answer = route.fetch()
            sends.append(
                (
                    route.request.headers.get("idempotency-key", ""),
                    answer.headers.get("idempotent-replayed"),
                    answer.status,
                )
            )
            if len(sends) == 1:
                route.abort("connectionreset")  # taken by the server, the answer lost
            else:
                route.fulfill(response=answer)

        phone.route(f"**/api/v1/matches/{match.pk}/games/", flaky)
        context.set_offline(True)
        choose(phone, "Who won?", "You (Alice)")
        phone.get_by_role("button", name="Record game 1").click()
        phone.get_by_text("Game 1: Alice wins 1 point (single).").wait_for()
        flushes = phone.evaluate("window.__boxcarsFlushes || 0")
        context.set_offline(False)
        phone.wait_for_function(f"(window.__boxcarsFlushes || 0) > {flushes}")
        assert len(sends) == 1 and games_of(match) == [(1, alice.pk, 1, False)]
        assert phone.locator("[data-status=waiting]").count() == 1  # no answer: not sent

        phone.reload()  # the page opens: it sends the queue again
        phone.get_by_text("sent (the server already had it)").wait_for()
        assert len(sends) == 2
        assert sends[0][0] == sends[1][0] and sends[0][0]
        assert sends[1][1] == "true" and sends[1][2] == 201
        assert games_of(match) == [(1, alice.pk, 1, False)]
    finally:
        context.close()


def test_a_new_release_replaces_the_shell_and_reloads_the_page(
    page_for, login, make_match, alice, settings
):
    settings.BOXCARS_RELEASE = "r1"
    match = make_match(5)
    phone = page_for(PHONE_360, name="offline-new-release")
    login(phone, "alice")
    phone.goto(f"/matches/{match.pk}/enter/")
    controlled(phone)
    assert phone.evaluate("document.documentElement.dataset.release") == "r1"
    assert "boxcars-shell-r1" in phone.evaluate("caches.keys()")

    settings.BOXCARS_RELEASE = "r2"  # a deploy
    phone.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    phone.wait_for_function("document.documentElement.dataset.release === 'r2'")
    phone.wait_for_function("caches.keys().then((k) => !k.includes('boxcars-shell-r1'))")
    names = phone.evaluate("caches.keys()")
    assert "boxcars-shell-r2" in names
    assert not [n for n in names if n.endswith("-r1")]


def test_the_app_is_installable(page_for, login, make_match, alice, live_server):
    phone = page_for(PHONE_360, name="offline-installable")
    login(phone, "alice")
    href = phone.get_attribute("link[rel=manifest]", "href")
    manifest = phone.request.get(href).json()
    assert manifest["name"] and manifest["short_name"]
    assert manifest["start_url"].startswith("/") and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= set(sizes)
    for icon in sizes.values():
        answer = phone.request.get(icon["src"])
        assert answer.ok and answer.headers["content-type"] == "image/png"
        assert answer.body()[:8] == b"\x89PNG\r\n\x1a\n"
    scope = phone.evaluate(
        "navigator.serviceWorker.ready.then((r) => r.scope + ' ' + r.active.scriptURL)"
    )
    assert scope == f"{live_server.url}/ {live_server.url}/sw.js"


def test_an_entry_older_than_the_confirmation_is_refused_with_the_reason(
    page_for, login, make_match, alice, bob, alice_user, director
):
    """Nothing stale is trusted: Bob disputes offline, the director confirms the result
    meanwhile; on reconnect the phone reads the match first and shows the dispute as
    refused, saying why, and sends nothing."""
    match = make_match(1)
    score_entry.record_game(
        actor=actor_for_user(alice_user),
        match_id=match.pk,
        number=1,
        game=GameInput(
            winner_id=alice.pk, cube=1, cube_owner="centre", ending="played", level="single"
        ),
    )
    phone = page_for(PHONE_360, name="offline-refused")
    login(phone, "bob")
    phone.goto(f"/matches/{match.pk}/enter/")
    phone.get_by_text("is it right?").wait_for()

    phone.context.set_offline(True)
    phone.get_by_label("What is wrong with the entry?").fill("I won that game.")
    phone.get_by_role("button", name="Dispute", exact=True).click()
    phone.get_by_text("Dispute: I won that game.").wait_for()
    score_entry.confirm_match(actor=actor_for_user(director), match_id=match.pk)

    phone.context.set_offline(False)
    phone.get_by_text(
        "Refused: the result was confirmed before this entry reached the server; "
        "nothing was recorded."
    ).wait_for()
    confirmed = Match.objects.get(pk=match.pk)
    assert confirmed.confirmation == "confirmed" and not confirmed.disputes.exists()


def test_a_conflicting_game_may_be_entered_as_the_next_game(
    browser, live_server, login, make_match, alice, bob, bob_user
):
    """The other choice: "enter mine as game 3" sends Alice's game, with a new key,
    against the version she has just been shown. No worker: the page alone sends."""
    match = make_match(5)
    context = browser.new_context(
        viewport=PHONE_360, base_url=live_server.url, service_workers="block"
    )
    try:
        phone = context.new_page()
        phone.set_default_timeout(15_000)
        login(phone, "alice")
        phone.goto(f"/matches/{match.pk}/enter/")
        context.set_offline(True)
        choose(phone, "Who won?", "You (Alice)")
        phone.get_by_role("button", name="Record game 1").click()
        phone.get_by_text("Game 1: Alice wins 1 point (single).").wait_for()
        score_entry.record_game(
            actor=actor_for_user(bob_user),
            match_id=match.pk,
            number=1,
            game=GameInput(
                winner_id=bob.pk, cube=1, cube_owner="centre", ending="played", level="gammon"
            ),
        )
        context.set_offline(False)
        phone.get_by_role("button", name="Enter mine as game 2").click()
        phone.locator("[data-status=sent]").first.wait_for()
        assert games_of(match) == [(1, bob.pk, 2, False), (2, alice.pk, 1, False)]
    finally:
        context.close()


def test_keep_theirs_keeps_the_games_queued_after_it(
    page_for, login, make_match, alice, bob, bob_user
):
    """Issue 41: "keep theirs" on game 1 once refused the games queued after it ("it
    came after an entry that was not recorded"), losing what the player entered. Now
    they are re-based on the server's record (game 2 from Bob's 0-1, not from Alice's
    1-0), said in words, and sent; the safe choice is the main button."""
    match = make_match(5)
    phone = page_for(PHONE_360, name="offline-keep-theirs")
    login(phone, "alice")
    phone.goto(f"/matches/{match.pk}/enter/")
    controlled(phone)

    phone.context.set_offline(True)
    choose(phone, "Who won?", "You (Alice)")
    phone.get_by_role("button", name="Record game 1").click()
    phone.get_by_text("Game 1: Alice wins 1 point (single).").wait_for()
    choose(phone, "Who won?", "You (Alice)")
    choose(phone, "Won by", "Gammon")
    phone.get_by_role("button", name="Record game 2").click()
    phone.get_by_text("Game 2: Alice wins 2 points (gammon).").wait_for()
    choose(phone, "Who won?", "Opponent (Bob)")
    phone.get_by_role("button", name="Record game 3").click()
    phone.get_by_text("Game 3: Bob wins 1 point (single).").wait_for()
    # Meanwhile Bob, online, records game 1 his way.
    score_entry.record_game(
        actor=actor_for_user(bob_user),
        match_id=match.pk,
        number=1,
        game=GameInput(
            winner_id=bob.pk, cube=1, cube_owner="centre", ending="played", level="single"
        ),
    )

    phone.context.set_offline(False)
    phone.get_by_text("Game 1 was recorded differently while you were offline.").wait_for()
    queue = phone.locator("#offline-queue")
    keep = queue.get_by_role("button", name="Keep theirs")
    mine = queue.get_by_role("button", name="Enter mine as game 2")
    assert "primary" in (keep.get_attribute("class") or "").split()
    assert "primary" not in (mine.get_attribute("class") or "").split()
    assert games_of(match) == [(1, bob.pk, 1, False)]

    # The network drops again as she chooses: the later games are re-based on the
    # server's record the phone was shown, and wait, in words.
    phone.context.set_offline(True)
    keep.click()
    phone.get_by_text("re-based on the server's games: game 2 from 0–1").wait_for()
    assert phone.get_by_text("re-based on the server's games: game 3 from 2–1").is_visible()
    assert phone.locator("[data-status=refused]").count() == 0
    assert phone.locator("[data-status=waiting]").count() == 2
    if pictures_folder("offline").name == "screenshots":
        phone.locator("#offline-queue").screenshot(
            path=str(pictures_folder("offline") / "offline-rebased-360.png")
        )

    phone.context.set_offline(False)
    phone.locator("[data-status=sent]").nth(1).wait_for()
    assert games_of(match) == [
        (1, bob.pk, 1, False),
        (2, alice.pk, 2, False),
        (3, bob.pk, 1, False),
    ]


def test_the_games_after_one_entered_as_the_next_game_follow_it(
    browser, live_server, login, make_match, alice, bob, bob_user
):
    """ "Enter mine as game 2": Alice's game 2 queued behind it becomes game 3 (it was
    refused before), sent after her game 1, now game 2."""
    match = make_match(5)
    context = browser.new_context(
        viewport=PHONE_360, base_url=live_server.url, service_workers="block"
    )
    try:
        phone = context.new_page()
        phone.set_default_timeout(15_000)
        login(phone, "alice")
        phone.goto(f"/matches/{match.pk}/enter/")
        context.set_offline(True)
        choose(phone, "Who won?", "You (Alice)")
        phone.get_by_role("button", name="Record game 1").click()
        phone.get_by_text("Game 1: Alice wins 1 point (single).").wait_for()
        choose(phone, "Who won?", "Opponent (Bob)")
        phone.get_by_role("button", name="Record game 2").click()
        phone.get_by_text("Game 2: Bob wins 1 point (single).").wait_for()
        score_entry.record_game(
            actor=actor_for_user(bob_user),
            match_id=match.pk,
            number=1,
            game=GameInput(
                winner_id=bob.pk, cube=1, cube_owner="centre", ending="played", level="gammon"
            ),
        )
        context.set_offline(False)
        phone.get_by_role("button", name="Enter mine as game 2").click()
        phone.locator("[data-status=sent]").nth(1).wait_for()
        assert games_of(match) == [
            (1, bob.pk, 2, False),
            (2, alice.pk, 1, False),
            (3, bob.pk, 1, False),
        ]
    finally:
        context.close()


def test_the_home_page_visited_before_a_new_release_still_opens_offline(
    page_for, login, make_match, alice, settings
):
    """Issue 41: the home page a phone visited did not open offline. A deploy (a new
    release) deleted the pages kept under the old one, and the new worker kept only the
    page open as it took over (here the match's entry page). Now it keeps every page the
    phone had kept, fetched again under the new release."""
    settings.BOXCARS_RELEASE = "r1"
    match = make_match(5)
    phone = page_for(PHONE_360, name="offline-home-after-release")
    login(phone, "alice")
    phone.goto(f"/matches/{match.pk}/enter/")
    controlled(phone)
    phone.goto("/")  # visited, kept under r1
    controlled(phone)

    settings.BOXCARS_RELEASE = "r2"  # a deploy; the phone next opens its match page
    phone.goto(f"/matches/{match.pk}/enter/")
    phone.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    # the new worker has taken over: its caches hold what the phone keeps, r1's are gone
    # (polled here: wait_for_function takes a promise for a truthy answer)
    for _ in range(180):
        names = phone.evaluate("caches.keys()")
        if "boxcars-pages-r2" in names and "boxcars-pages-r1" not in names:
            break
        phone.wait_for_timeout(250)
    else:
        raise AssertionError(f"the new release never took over: {names}")

    phone.context.set_offline(True)
    phone.goto("/")
    phone.get_by_text("Offline, last updated").wait_for()
    assert phone.get_by_role("heading", name="Clubs").is_visible()
    assert phone.evaluate("document.documentElement.dataset.release") == "r2"


def test_the_offline_queue_speaks_german_on_a_german_phone(
    page_for, login, make_match, alice, live_server
):
    """offline.js wrote say("..."), which makemessages never extracted: its messages
    were English on a German page (issue #41). Offline, the badge, the button and the
    entry waiting to send are German."""
    match = make_match(3)
    phone = page_for(PHONE_360, name="offline-german")
    login(phone, "alice")
    phone.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    phone.goto(f"/matches/{match.pk}/enter/")
    phone.wait_for_selector("html[lang=de]")
    controlled(phone)

    phone.context.set_offline(True)
    phone.get_by_text("Offline, zuletzt aktualisiert").wait_for()
    phone.locator("fieldset[data-field=winner] label.chip").first.click()
    phone.get_by_role("button", name="Spiel 1 eintragen").click()
    phone.get_by_text("Spiel 1: Alice gewinnt 1 Punkt (einfach).").wait_for()
    phone.get_by_role("button", name="Spiel 2 eintragen").wait_for()
    text = phone.locator("main").inner_text()
    assert "wartet auf Versand" in text
    assert "Record game" not in text and "Offline, last updated" not in text
