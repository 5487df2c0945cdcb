"""A drawn bracket keeps the last-chance wiring it was drawn with.

Brackets drawn before the rule "the last chance takes the losers of the first
consolation rounds that hold matches" were wired literally (``last_chance_from`` as
consolation round numbers). Re-deriving such a bracket under the new rule gave a graph
with slots the database does not have (a ``KeyError`` on the next result) or refused
the last chance outright, on every score entry of the event. A late entry that fills a
bye could do the same to a bracket drawn under the new rule, by turning a round of
walkovers into a round with a match. The migration reads each drawn bracket's feeding
rounds back from its stored slots; the draw stores them for new brackets.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from hypothesis import given, settings
from hypothesis import strategies as st

from games.services import clubs as club_services
from tests.tournaments.conftest import play_out
from tournaments import selectors_graph
from tournaments.formats import elimination
from tournaments.formats.bracket_graph import Stage
from tournaments.formats.elimination import build_single_elimination
from tournaments.formats.errors import FormatError
from tournaments.formats.seeding import bracket_size
from tournaments.models import PairingStatus, StageKind, Tournament, TournamentStatus
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

migration = importlib.import_module("tournaments.migrations.0003_tournament_drawn_last_chance_from")


def literal_rounds(asked, consolation_rounds, playable):
    """The wiring before the rule: the asked consolation rounds, as numbered."""
    return sorted(set(asked))


def last_chance_feed(graph) -> tuple[int, ...]:
    return next(f.rounds for f in graph.feeds if f.stage == Stage.LAST_CHANCE)


def shape(graph) -> list[tuple]:
    """Every slot and where its sides come from; the main draw's first round, where the
    late entry takes a bye's place, by key only."""
    return [
        (m.key,) if m.stage == Stage.MAIN and m.round == 1 else (m.key, m.side_a, m.side_b)
        for m in graph.matches
    ]


@settings(max_examples=150, deadline=None)
@given(
    entries=st.integers(min_value=3, max_value=70),
    consolation=st.sampled_from([(1,), (1, 2), (1, 2, 3)]),
    last_chance=st.sampled_from([(1,), (2,), (1, 2)]),
)
def test_a_late_entry_keeps_the_drawn_wiring(entries, consolation, last_chance):
    """With the drawn feeding rounds, one more entry (filling a bye) changes no slot."""
    if bracket_size(entries) != bracket_size(entries + 1):
        return
    try:
        drawn = build_single_elimination(
            entries, consolation_from=consolation, last_chance_from=last_chance
        )
    except FormatError:
        return
    later = build_single_elimination(
        entries + 1,
        consolation_from=consolation,
        last_chance_from=last_chance,
        last_chance_drawn=last_chance_feed(drawn),
    )
    assert shape(later) == shape(drawn)


def test_the_drawn_rounds_are_taken_as_they_are():
    """Five players, progressive consolation: the old wiring fed the last chance from
    consolation round 1 (walkovers only); the rule takes later rounds. Drawn as round 1,
    the graph is the old one, whatever the rule says today."""
    ruled = build_single_elimination(5, consolation_from=(1, 2), last_chance_from=(1,))
    kept = build_single_elimination(
        5, consolation_from=(1, 2), last_chance_from=(1,), last_chance_drawn=(1,)
    )
    assert last_chance_feed(ruled) != (1,)
    assert last_chance_feed(kept) == (1,)
    assert {m.key for m in kept.matches} != {m.key for m in ruled.matches}


@pytest.fixture
def old_wiring(monkeypatch):
    """Draw as the code did before the rule (and forget graphs cached either way)."""
    selectors_graph._cached_graph.cache_clear()
    monkeypatch.setattr(elimination, "last_chance_rounds", literal_rounds)

    def today() -> None:
        monkeypatch.undo()
        selectors_graph._cached_graph.cache_clear()

    yield today
    selectors_graph._cached_graph.cache_clear()


def test_an_event_drawn_with_the_old_wiring_plays_to_the_end(make_event, win, actor, old_wiring):
    event = make_event(5, consolation_from=[1, 2], last_chance_from=[1])
    keys_drawn = set(event.pairings.values_list("key", flat=True))
    # As stored before the field existed: then the migration reads the wiring back.
    Tournament.objects.filter(pk=event.pk).update(drawn_last_chance_from=[])
    migration.record_drawn_feeding(django_apps, None)
    event.refresh_from_db()
    assert event.drawn_last_chance_from == [1]
    old_wiring()  # today's rule from here on

    play_out(event, win)  # every result re-derives the bracket: no slot is missing
    assert set(event.pairings.values_list("key", flat=True)) == keys_drawn
    assert not event.pairings.filter(stale=True).exists()
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED


def test_a_new_draw_stores_its_wiring_and_a_late_entry_keeps_it(make_event, win, actor, club):
    """24 players: consolation round 1 is all walkovers, so the last chance is fed by
    round 2; a 25th player fills a bye and makes round 1 hold a match, but the drawn
    bracket keeps round 2 and its last chance."""
    event = make_event(24, consolation_from=[1, 2], last_chance_from=[1])
    assert event.drawn_last_chance_from == [2]
    late = club_services.create_player(display_name="Late", clubs=[club])
    entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=late.pk)
    event.refresh_from_db()
    assert len(event.bracket_order) == 25
    play_out(event, win)
    last_chance = event.pairings.filter(round__stage__kind=StageKind.LAST_CHANCE)
    assert last_chance.filter(status=PairingStatus.PLAYED).count() == 7
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)


def test_the_migration_leaves_events_without_a_last_chance_alone(make_event):
    event = make_event(8, consolation_from=[1])
    migration.record_drawn_feeding(django_apps, None)
    event.refresh_from_db()
    assert event.drawn_last_chance_from == []
