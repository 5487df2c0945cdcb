"""The home, club and player pages cost as many queries for a big club as for a small
one: each page is measured small, the data grows tenfold, and the bigger page may not
cost a single query more. (Tournament, match, rating and chouette pages have the same
tests next to their own.)"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from chouette.services import sessions as session_services
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services.actors import actor_for_user
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def _queries(url: str, client: Client | None = None) -> tuple[int, str]:
    client = client or Client()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured.captured_queries), response.content.decode()


def _grow_club(club, director, *, players: int, events: int, sessions: int) -> None:
    actor = actor_for_user(director)
    made = [
        club_services.create_player(display_name=f"{club.slug} P{i:03}", clubs=[club])
        for i in range(players)
    ]
    first = club.tournaments.count()
    for i in range(first, first + events):
        event_services.create_tournament(
            actor=actor, club=club, name=f"{club.name} Event {i}", format="single_elimination"
        )
    for i in range(sessions):
        trio = made[3 * i : 3 * i + 3]
        session_services.open_session(
            actor=actor,
            club=club,
            stake="1",
            label=f"Table {i}",
            rolls={p.pk: roll for p, roll in zip(trio, (6, 4, 2), strict=True)},
        )


def test_home_page_costs_the_same_for_twenty_clubs_as_for_one(
    club, director, django_assert_max_num_queries
):
    _grow_club(club, director, players=3, events=1, sessions=0)
    small, html = _queries("/")
    assert "Test Club" in html and "3 players" in html
    for i in range(20):
        other = club_services.create_club(created_by=director, name=f"Club {i:02}", slug=f"c{i}")
        _grow_club(other, director, players=4, events=1, sessions=0)
    with django_assert_max_num_queries(small):
        response = Client().get("/")
    assert response.content.decode().count('class="card"') == 21


def test_club_page_costs_the_same_whatever_its_size(club, director, django_assert_max_num_queries):
    # the events are drafts, which only the club's directors see on its page
    own = Client()
    own.force_login(director)
    _grow_club(club, director, players=3, events=1, sessions=1)
    small, html = _queries(f"/clubs/{club.slug}/", own)
    assert "Test Club Event 0" in html and "Table 0" in html
    _grow_club(club, director, players=45, events=9, sessions=15)
    with django_assert_max_num_queries(small):
        response = own.get(f"/clubs/{club.slug}/")
    html = response.content.decode()
    assert "Test Club Event 9" in html and "Table 14" in html
    assert html.count(">test-club P") == 48  # every player listed (once; and an edit link)


def test_club_page_shows_new_tournament_to_its_directors_only(club, director, make_user):
    assert "New tournament" not in _queries(f"/clubs/{club.slug}/")[1]
    outsider = Client()
    outsider.force_login(make_user())
    assert "New tournament" not in _queries(f"/clubs/{club.slug}/", outsider)[1]
    own = Client()
    own.force_login(director)
    html = _queries(f"/clubs/{club.slug}/", own)[1]
    assert f'href="/tournaments/new/{club.slug}/"' in html


def test_player_page_costs_the_same_for_thirty_matches_as_for_two(
    club, director, django_assert_max_num_queries
):
    actor = actor_for_user(director)
    hero = club_services.create_player(display_name="Hero", clubs=[club])

    def play(count: int, start: int) -> None:
        for i in range(start, start + count):
            opponent = club_services.create_player(display_name=f"Opp {i:02}", clubs=[club])
            match = match_create.create_match(
                actor=actor, club=club, player1=hero, player2=opponent, length=3
            )
            score = (3, 1) if i % 3 else (1, 3)
            score_entry.record_final_score(actor=actor, match_id=match.pk, score=score)

    play(2, 0)
    small, html = _queries(f"/players/{hero.slug}/")
    assert html.count("Hero v Opp") == 2
    play(28, 2)
    with django_assert_max_num_queries(small):
        response = Client().get(f"/players/{hero.slug}/")
    html = response.content.decode()
    assert html.count("Hero v Opp") == 30
    assert html.count("<strong>won</strong>") == 20  # i % 3 != 0 for 20 of 0..29
