"""The club's room: its events draw their tables from one room (issue #27 item 2:
two events both numbered a match "Table 2"), reservations, a full room, and the race of
two events creating matches at once on PostgreSQL."""

from __future__ import annotations

import functools
from collections import Counter

import pytest

from games.models import Match, MatchStatus
from games.rules.tables import draw_tables
from tests.races import race
from tests.tournaments.conftest import pairing
from tournaments.models import Room
from tournaments.services import entries as entry_services
from tournaments.services import tables as table_services

LIVE = (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)


def live_tables(club) -> list[int | None]:
    return list(
        Match.objects.filter(club=club, status__in=LIVE)
        .order_by("pk")
        .values_list("table", flat=True)
    )


def event_tables(event) -> list[int | None]:
    return [
        p.match.table
        for p in event.pairings.filter(match__status__in=LIVE)
        .select_related("match")
        .order_by("slot")
    ]


def test_the_rule_takes_the_own_range_then_shared_tables_never_another_range():
    assert draw_tables(needed=3, held={1}, room_tables=None) == [2, 3, 4]
    assert draw_tables(needed=3, held={10}, room_tables=12, own=(9, 10), others=[(1, 4)]) == [
        9,
        5,
        6,
    ]
    assert draw_tables(needed=3, held={5}, room_tables=6, others=[(1, 4)]) == [6, None, None]


@pytest.mark.django_db
def test_two_events_of_a_club_never_share_a_table(make_event, club):
    night = make_event(4, name="Club night")
    swiss = make_event(6, name="Swiss", format="swiss", swiss_rounds=3)
    assert sorted(event_tables(night)) == [1, 2]
    assert sorted(event_tables(swiss)) == [3, 4, 5]
    assert sorted(live_tables(club)) == [1, 2, 3, 4, 5]


@pytest.mark.django_db
def test_a_reserved_range_is_taken_first_and_left_to_its_event(make_event, actor, club):
    main = make_event(8, name="Main", start=False)
    table_services.reserve_tables(actor=actor, tournament_id=main.pk, first=10, last=12)
    entry_services.start_tournament(actor=actor, tournament_id=main.pk)
    # three reserved tables, then the lowest shared one for its fourth match
    assert sorted(event_tables(main)) == [1, 10, 11, 12]
    side = make_event(4, name="Side")
    assert sorted(event_tables(side)) == [2, 3]


@pytest.mark.django_db
def test_a_full_room_seats_a_match_when_a_table_is_freed(make_event, actor, club, win):
    Room.objects.create(club=club, name="Back room", tables=3)
    night = make_event(4, name="Club night")
    side = make_event(4, name="Side")
    assert sorted(event_tables(night)) == [1, 2]
    assert sorted(event_tables(side), key=str) == [3, None]  # the room is full: it waits
    first = pairing(side, "main-r1-m1") if pairing(side, "main-r1-m1").match.table else None
    played = first or pairing(side, "main-r1-m2")
    win(side, played.key, min(played.entry1.seed, played.entry2.seed))
    assert sorted(event_tables(side)) == [3]  # the waiting match took the freed table 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_events_creating_matches_at_once_never_share_a_table(make_event, actor, club, win):
    events = [make_event(8, name=f"Event {n}", start=False) for n in (1, 2, 3)]

    def start(event):
        return entry_services.start_tournament(actor=actor, tournament_id=event.pk)

    def play(p):
        return win(p.tournament, p.key, min(p.entry1.seed, p.entry2.seed))

    results = race([functools.partial(start, e) for e in events], capture_errors=True)
    assert not [r for r in results if isinstance(r, Exception)], results
    tables = live_tables(club)
    assert len(tables) == 12 and None not in tables
    assert sorted(tables) == list(range(1, 13)), Counter(tables)
    # every first-round match of the three events won at once: each result's follow-up
    # numbers the next matches it opened, the three events' draws at the same instant
    ready = [p for e in events for p in e.pairings.filter(status="ready").exclude(match=None)]
    results = race([functools.partial(play, p) for p in ready], capture_errors=True)
    assert not [r for r in results if isinstance(r, Exception)], results
    tables = live_tables(club)
    assert len(tables) == 6 and None not in tables
    assert len(set(tables)) == 6, Counter(tables)
