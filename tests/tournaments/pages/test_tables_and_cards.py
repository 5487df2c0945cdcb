"""Tables, score cards and labels: what the room sees of an evening (issue 13, item 8),
and the big screen's in-place refresh (item 9)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Match, MatchStatus
from games.services import match_create, score_entry
from games.services.match_records import GameInput
from tests.tournaments.conftest import pairing
from tournaments.models import Pairing, PairingStatus
from tournaments.services import rounds as round_services

pytestmark = pytest.mark.django_db


def tables(event, prefix: str) -> dict[str, int | None]:
    return {
        p.key: p.match.table
        for p in Pairing.objects.filter(tournament=event, key__startswith=prefix)
        .exclude(match=None)
        .select_related("match")
        .order_by("slot")
    }


@pytest.fixture
def browser(director):
    client = Client()
    client.force_login(director)
    return client


def test_a_bracket_numbers_its_tables_in_board_order_and_reuses_freed_ones(make_event, win):
    event = make_event(16, consolation_from=[1])
    assert tables(event, "main-r1-") == {f"main-r1-m{i}": i for i in range(1, 9)}
    win(event, "main-r1-m1", 1)
    win(event, "main-r1-m2", 8)
    # main r2 m1 and consolation r1 m1 became ready; tables 1 and 2 are free again,
    # 3 to 8 still held: the main draw comes first
    assert pairing(event, "main-r2-m1").match.table == 1
    assert pairing(event, "consolation-r1-m1").match.table == 2
    assert tables(event, "main-r1-")["main-r1-m3"] == 3  # untouched


def test_a_new_match_skips_the_tables_still_in_play(make_event, win, actor):
    event = make_event(8)
    m4 = pairing(event, "main-r1-m4").match
    from games.services.tables import set_table

    set_table(actor=actor, match_id=m4.pk, table=1)  # the director moved m4 to table 1
    win(event, "main-r1-m1", 1)
    win(event, "main-r1-m2", 4)
    # tables 1 (m4, still playing) and 3 (m3) are held; 2 is free
    assert pairing(event, "main-r2-m1").match.table == 2


def test_each_swiss_round_starts_again_at_table_one(make_event, win, actor):
    event = make_event(10, format="swiss", swiss_rounds=3)
    assert list(tables(event, "swiss-r1-").values()) == [1, 2, 3, 4, 5]
    for p in Pairing.objects.filter(tournament=event, status=PairingStatus.READY):
        win(event, p.key, p.entry1.seed)
    round_services.pair_next_round(actor=actor, tournament_id=event.pk)
    assert list(tables(event, "swiss-r2-").values()) == [1, 2, 3, 4, 5]


def test_dashboard_shows_tables_and_human_labels(browser, make_event, win):
    event = make_event(16, consolation_from=[1])
    win(event, "main-r1-m1", 1)
    win(event, "main-r1-m2", 8)
    html = browser.get(f"/tournaments/{event.slug}/director/").content.decode()
    start = html.index("Ready to play")
    ready = html[start : html.index("</table>", start)]  # the ready list alone
    assert "Consolation, round 1, match 1" in ready and "Main, round 1, match 3" in ready
    shown = re.sub(r"<[^>]+>", " ", html)  # the text people read, not form values
    assert "Drop map" in shown  # the drop map names its slots too
    assert not re.search(r"\b(main|consolation)-r\d+-m\d+\b", shown)
    consolation = pairing(event, "consolation-r1-m1").match
    assert f'name="match" value="{consolation.pk}"' in ready
    assert 'name="table" min="1" max="999" value="2"' in ready
    r1 = pairing(event, "main-r1-m3").round_id
    assert f"/tournaments/{event.slug}/rounds/{r1}/cards/" in ready
    assert "Print every score card of Main, round 1" in ready


def test_director_moves_a_match_from_the_dashboard(browser, make_event, club):
    event = make_event(4)
    match = pairing(event, "main-r1-m2").match
    base = f"/tournaments/{event.slug}/director/table/"
    response = browser.post(base, {"match": match.pk, "table": "12"}, follow=True)
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.table == 12 and match.version == 2
    assert match.history.first().history_user.username == "director"
    response = browser.post(base, {"match": match.pk, "table": "1000"}, follow=True)
    assert "Tables are numbered 1 to 999" in response.content.decode()
    match.refresh_from_db()
    assert match.table == 12
    browser.post(base, {"match": match.pk, "table": ""})
    match.refresh_from_db()
    assert match.table is None
    # a match that is not one of the event's is not moved from its dashboard
    other = match_create.create_match(
        actor=match_services_actor(event), club=club, player1=match.player1,
        player2=match.player2, length=3,
    )  # fmt: skip
    assert browser.post(base, {"match": other.pk, "table": "3"}).status_code == 404


def match_services_actor(event):
    from tournaments.services.common import system_actor

    return system_actor(event)


def test_a_player_may_not_move_a_match_from_the_dashboard(make_event, alice_user):
    event = make_event(4)
    match = pairing(event, "main-r1-m1").match
    client = Client()
    client.force_login(alice_user)
    response = client.post(
        f"/tournaments/{event.slug}/director/table/", {"match": match.pk, "table": "9"}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.table == 1


def test_round_cards_list_every_match_of_the_round_with_its_table(make_event, actor):
    event = make_event(10, format="swiss", swiss_rounds=3)
    p = pairing(event, "swiss-r1-b2")
    match = p.match
    # play board 2 to the end game by game: player 2 wins game 1, player 1 the rest
    winner = match.player2_id
    while Match.objects.get(pk=match.pk).status != MatchStatus.FINISHED:
        score_entry.record_game(actor=actor, match_id=match.pk, game=GameInput(winner_id=winner))
        winner = match.player1_id
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    html = Client().get(f"/tournaments/{event.slug}/rounds/{p.round_id}/cards/").content.decode()
    cards = html.split('<article class="card-print score-card">')[1:]
    ready = Pairing.objects.filter(round_id=p.round_id).exclude(match=None).select_related("match")
    assert len(cards) == ready.count() == 5
    for q, card in zip(sorted(ready, key=lambda q: q.match.table), cards, strict=True):
        assert f"Table <strong>{q.match.table}</strong>" in card
        assert q.match.player1.display_name in card and q.match.player2.display_name in card
        assert f"Round 1, board {q.slot + 1}" in card
    card = cards[1]  # board 2 sits at table 2
    winners = re.findall(r'<td class="winner">([^<]+)</td>', card)
    games = list(match.games.order_by("number").select_related("winner"))
    assert winners == [g.winner.display_name for g in games]
    high, low = max(match.score1, match.score2), min(match.score1, match.score2)
    assert f"<strong>{match.winner.display_name}</strong> won {high}–{low}" in card
    assert "Final score: ______" not in card
    assert "Final score: ______" in cards[0]  # an unplayed match leaves it to fill in
    assert 'class="sign"' in cards[0]


def test_round_cards_of_another_event_are_404(make_event):
    one, two = make_event(4, name="One"), make_event(4, name="Two")
    round_id = pairing(one, "main-r1-m1").round_id
    assert Client().get(f"/tournaments/{two.slug}/rounds/{round_id}/cards/").status_code == 404


def test_the_single_card_shows_game_winners_and_the_result(make_event, actor):
    event = make_event(4)
    match = pairing(event, "main-r1-m1").match
    for _ in range(match.length):
        score_entry.record_game(
            actor=actor, match_id=match.pk, game=GameInput(winner_id=match.player2_id)
        )
    html = Client().get(f"/matches/{match.pk}/card/").content.decode()
    assert html.count(f'<td class="winner">{match.player2.display_name}</td>') == match.length
    assert f"<strong>{match.player2.display_name}</strong> won {match.length}–0" in html
    assert "Table <strong>1</strong>" in html


def test_next_match_and_player_page_show_the_table(make_event, alice, club):
    from tournaments.services import entries as entry_services

    event = make_event(3, start=False)
    entry_services.register_entry(
        actor=match_services_actor(event), tournament_id=event.pk, player_id=alice.pk
    )
    entry_services.start_tournament(actor=match_services_actor(event), tournament_id=event.pk)
    mine = Pairing.objects.get(tournament=event, status=PairingStatus.READY, entry2__player=alice)
    client = Client()
    client.force_login(alice.user)
    html = client.get(f"/tournaments/{event.slug}/").content.decode()
    assert f"Table {mine.match.table}</strong>" in html
    # "Enter the score" goes straight to the entry form, not to the score sheet
    assert f'<a href="/matches/{mine.match_id}/enter/">Enter the score</a>' in html
    assert f'<a href="/matches/{mine.match_id}/">Enter the score</a>' not in html
    assert (
        f"<strong>Table {mine.match.table}</strong>"
        in Client().get(f"/players/{alice.slug}/").content.decode()
    )
    assert (
        f"Table {mine.match.table}" in Client().get(f"/matches/{mine.match_id}/").content.decode()
    )


def test_the_big_screen_answers_204_until_something_changes(make_event, actor):
    event = make_event(16, consolation_from=[1])
    client = Client()
    page = client.get(f"/tournaments/{event.slug}/screen/").content.decode()
    marker = re.search(r'data-marker="([^"]+)"', page).group(1)
    assert 'hx-trigger="sse:changed, live:poll"' in page  # a notice, or a poll when offline
    live = f"/tournaments/{event.slug}/screen/live/"
    assert client.get(live, {"v": marker}).status_code == 204
    match = pairing(event, "main-r1-m5").match
    score_entry.record_game(
        actor=actor, match_id=match.pk, game=GameInput(winner_id=match.player1_id)
    )
    fresh = client.get(live, {"v": marker})
    assert fresh.status_code == 200
    html = fresh.content.decode()
    assert re.search(r'data-marker="([^"]+)"', html).group(1) != marker
    assert html.count("<tr>") >= 8 + 16  # every match in play and every entry: the screen pages
    for name in Pairing.objects.filter(tournament=event).values_list(
        "entry1__player__display_name", flat=True
    ):
        if name:
            assert name in html
