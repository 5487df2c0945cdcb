"""A signed-in player's home: their match (live first, else the next), a big "Enter the
score" button, their events and their ratings; a visitor's home is the clubs list as
before; the page costs the same whatever the player's history."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.services import clubs as club_services
from games.services import match_create, match_records, score_entry, tenancy
from games.services import ratings as rating_services
from games.services.actors import actor_for_user
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def _home(user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


def _start_a_game(match, alice):
    return score_entry.record_game(
        actor=actor_for_user(alice.user),
        match_id=match.pk,
        number=1,
        game=match_records.GameInput(winner_id=alice.pk, level="gammon"),
    )


def test_home_shows_the_live_match_with_opponent_and_the_enter_link(make_match, alice, bob, club):
    carol = club_services.create_player(display_name="Carol", clubs=[club])
    older = make_match(7)  # scheduled first, not yet started
    live = make_match(5)
    _start_a_game(live, alice)
    html = _home(alice.user)
    card = html.split('class="card your-match')[1].split("</section>")[0]
    assert "playing now" in card and "<strong>Bob</strong>" in card
    assert "5-point match" in card and "score 2–0" in card
    assert f'href="/matches/{live.pk}/enter/"' in card and "Enter the score" in card
    assert f"/matches/{older.pk}/" not in card
    # Bob sees it from his side
    assert "score 0–2" in _home(bob.user) and "<strong>Alice</strong>" in _home(bob.user)
    assert carol.display_name not in card


def test_next_scheduled_match_when_nothing_is_live(make_match, alice):
    first, _second = make_match(7), make_match(3)
    card = _home(alice.user).split('class="card your-match')[1].split("</section>")[0]
    assert "Your next match" in card and "7-point match" in card
    assert f'href="/matches/{first.pk}/enter/"' in card


def test_a_match_awaiting_my_confirmation_comes_first(make_match, alice, bob):
    make_match(7)
    done = make_match(1)
    score_entry.record_final_score(actor=actor_for_user(alice.user), match_id=done.pk, score=(1, 0))
    done.refresh_from_db()
    assert done.awaiting_id == bob.pk
    card = _home(bob.user).split('class="card your-match')[1].split("</section>")[0]
    assert "Confirm the score" in card and f'href="/matches/{done.pk}/enter/"' in card
    alice_card = _home(alice.user).split('class="card your-match')[1].split("</section>")[0]
    assert f"/matches/{done.pk}/" not in alice_card  # she waits; her next match shows


def test_home_lists_my_events_and_ratings(club, director, alice, bob, make_match):
    actor = actor_for_user(director)
    running = event_services.create_tournament(
        actor=actor, club=club, name="Spring Open", format="single_elimination"
    )
    for player in (alice, bob):
        entry_services.register_entry(actor=actor, tournament_id=running.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=running.pk)
    event_services.create_tournament(
        actor=actor, club=club, name="Not Mine", format="swiss", swiss_rounds=3
    )
    finished = make_match(3)
    score_entry.record_final_score(actor=actor, match_id=finished.pk, score=(3, 0))
    rating_services.apply_match(match_id=finished.pk)
    html = _home(alice.user)
    events = html.split('class="card your-events"')[1].split("</section>")[0]
    assert "Spring Open" in events and "Not Mine" not in events
    assert f'href="/tournaments/{running.slug}/bracket/"' in events
    ratings = html.split('class="card your-ratings"')[1].split("</section>")[0]
    assert "Test Club" in ratings and f'href="/players/{alice.slug}/ratings/"' in ratings
    # the event's match is her match; the card names the event and the round
    card = html.split('class="card your-match')[1].split("</section>")[0]
    assert "Spring Open</a>, <a" in card and "Main round 1" in card


def test_a_visitors_home_is_the_clubs_list_as_before(club, make_match, alice):
    make_match(5)
    html = _home()
    assert "player-home" not in html and "Your match" not in html
    assert "<h1>Clubs</h1>" in html and "Test Club" in html
    # an account that plays as nobody (a director) sees the same list
    assert "player-home" not in _home(club.directors.first())


def test_player_home_costs_the_same_whatever_the_history(
    club, director, alice, bob, make_match, django_assert_max_num_queries
):
    make_match(5)
    client = Client()
    client.force_login(alice.user)
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/").status_code == 200
    actor = actor_for_user(director)
    for i in range(4):
        other = club_services.create_club(created_by=director, name=f"Club {i}", slug=f"c{i}")
        rival = club_services.create_player(display_name=f"R{i}", clubs=[other, club])
        tenancy.join_club(actor=actor_for_user(alice.user), club=other)  # Alice's consent
        done = match_create.create_match(
            actor=actor, club=club, player1=alice, player2=rival, length=3
        )
        score_entry.record_final_score(actor=actor, match_id=done.pk, score=(3, 1))
        rating_services.apply_match(match_id=done.pk)
        event = event_services.create_tournament(
            actor=actor, club=club, name=f"Event {i}", format="swiss", swiss_rounds=2
        )
        event_services.open_registration(actor=actor, tournament_id=event.pk)
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=alice.pk)
        # and a match to play in an event of each club, and one outside events
        _event_with_match(actor, other, f"Night {i}", "single_elimination", alice, rival)
        match_create.create_match(actor=actor, club=club, player1=alice, player2=rival, length=5)
    with django_assert_max_num_queries(len(captured)):
        html = client.get("/").content.decode()
    assert html.count("Event ") >= 4
    cards = _cards(html)
    assert len(cards) == 9 and sum(">Night " in card for card in cards) == 4


def _event_with_match(actor, club, name, format, player, opponent, **options):
    event = event_services.create_tournament(
        actor=actor, club=club, name=name, format=format, **options
    )
    for entrant in (player, opponent):
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=entrant.pk)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    return event


def _cards(html: str) -> list[str]:
    return [part.split("</section>")[0] for part in html.split('class="card your-match')[1:]]


def test_every_open_match_in_every_event_and_outside_shows_with_its_entry_link(
    club, director, alice, bob, make_match
):
    # a Swiss and a club night at once, and a casual match: three things to play now
    actor = actor_for_user(director)
    carol = club_services.create_player(display_name="Carol", clubs=[club])
    dave = club_services.create_player(display_name="Dave", clubs=[club])
    swiss = _event_with_match(actor, club, "Autumn Swiss", "swiss", alice, carol, swiss_rounds=3)
    night = _event_with_match(actor, club, "Club Night", "single_elimination", alice, dave)
    casual = make_match(5)
    _start_a_game(casual, alice)
    checks_in = event_services.create_tournament(
        actor=actor, club=club, name="Winter Cup", format="swiss", swiss_rounds=2
    )
    event_services.configure_tournament(
        actor=actor, tournament_id=checks_in.pk, check_in_required=True
    )
    event_services.open_registration(actor=actor, tournament_id=checks_in.pk)
    entry_services.register_entry(actor=actor, tournament_id=checks_in.pk, player_id=alice.pk)

    html = _home(alice.user)
    cards = _cards(html)
    assert len(cards) == 3
    # the live casual match first, with its score so far
    assert "playing now" in cards[0] and "<strong>Bob</strong>" in cards[0]
    assert "5-point match" in cards[0] and "score 2–0" in cards[0]
    assert f'href="/matches/{casual.pk}/enter/"' in cards[0]
    by_opponent = {name: card for card in cards[1:] for name in ("Carol", "Dave") if name in card}
    for name, event in (("Carol", swiss), ("Dave", night)):
        card = by_opponent[name]
        match = event.pairings.get(match__isnull=False).match
        assert "Your next match" in card and f"<strong>{name}</strong>" in card
        assert f'href="/matches/{match.pk}/enter/"' in card and "Enter the score" in card
        assert f">{event.name}</a>" in card  # the event names the match's table
    # the check-in due, beside the matches
    calls = html.split('class="card your-calls"')[1].split("</section>")[0]
    assert "Check in for Winter Cup" in calls


def test_a_player_with_no_open_match_sees_the_empty_state(club, director, alice, make_match):
    finished = make_match(1)  # played and entered by the director: nothing left to do
    score_entry.record_final_score(
        actor=actor_for_user(director), match_id=finished.pk, score=(1, 0)
    )
    html = _home(alice.user)
    cards = _cards(html)
    assert len(cards) == 1 and "No match to play right now." in cards[0]
    assert "Enter the score" not in html and "/enter/" not in html


def test_my_chouette_seat_shows_until_i_leave(club, director, alice, bob):
    from chouette.services import seats as seat_services
    from chouette.services import sessions as session_services

    carol = club_services.create_player(display_name="Carol", clubs=[club])
    dave = club_services.create_player(display_name="Dave", clubs=[club])
    assert "Your chouette" not in _home(alice.user)
    session = session_services.open_session(
        actor=actor_for_user(director),
        club=club,
        stake="1",
        label="Back room",
        rolls={alice.pk: 6, bob.pk: 4, carol.pk: 2, dave.pk: 1},
    )
    seat = _home(alice.user).split('class="card your-chouette"')[1].split("</section>")[0]
    assert f'href="{session.get_absolute_url()}"' in seat and "Back room" in seat
    seat_services.leave_session(actor=actor_for_user(director), session_id=session.pk, player=alice)
    assert "Your chouette" not in _home(alice.user)
