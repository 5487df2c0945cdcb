"""Races on PostgreSQL: rating jobs racing corrections end as a serial order would."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.models import Rating
from games.services import clubs as club_services
from games.services import match_corrections, match_create, score_entry
from games.services import ratings as rating_services
from games.services.actors import actor_for_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _in_thread(fn, errors):
    def run():
        try:
            fn()
        except Exception as exc:  # pragma: no cover - reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    return threading.Thread(target=run)


def _ratings(rating_list):
    return {
        r.player_id: (round(r.rating, 9), r.experience, r.matches_played)
        for r in Rating.objects.filter(rating_list=rating_list)
    }


def test_recompute_racing_a_correction_ends_equal_to_a_serial_order(make_user):
    director = make_user("race-director")
    club = club_services.create_club(created_by=director, name="Race Club")
    players = [club_services.create_player(display_name=f"P{i}", clubs=[club]) for i in range(6)]
    actor = actor_for_user(director)
    matches = []
    for i in range(12):  # each commit runs its rating update eagerly, after commit
        winner, loser = players[i % 6], players[(i + 1) % 6]
        match = match_create.create_match(
            actor=actor, club=club, player1=winner, player2=loser, length=3
        )
        score_entry.record_final_score(actor=actor, match_id=match.pk, score=(3, 1))
        matches.append(match)
    club_list = rating_services.club_list(club)
    barrier = threading.Barrier(3)
    errors: list[Exception] = []

    def recompute():
        barrier.wait()
        rating_services.recompute_list(rating_list_id=club_list.pk)

    def correct():
        barrier.wait()
        match_corrections.correct_final_score(actor=actor, match_id=matches[2].pk, score=(0, 3))

    def finish_another():
        barrier.wait()
        extra = match_create.create_match(
            actor=actor, club=club, player1=players[0], player2=players[3], length=5
        )
        score_entry.record_final_score(actor=actor, match_id=extra.pk, score=(5, 4))

    threads = [_in_thread(f, errors) for f in (recompute, correct, finish_another)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    raced = _ratings(club_list)
    rating_services.recompute_list(rating_list_id=club_list.pk)
    assert _ratings(club_list) == raced
    site = rating_services.site_list()
    raced_site = _ratings(site)
    report = rating_services.recompute_list(rating_list_id=site.pk)
    assert _ratings(site) == raced_site and report.drifted_players == 0
    assert sum(m for _, _, m in raced.values()) == 2 * 13


def test_the_same_match_applied_concurrently_is_applied_once(make_user):
    director = make_user("twin-director")
    club = club_services.create_club(created_by=director, name="Twin Club")
    a = club_services.create_player(display_name="A", clubs=[club])
    b = club_services.create_player(display_name="B", clubs=[club])
    actor = actor_for_user(director)
    match = match_create.create_match(actor=actor, club=club, player1=a, player2=b, length=7)
    score_entry.record_final_score(actor=actor, match_id=match.pk, score=(7, 2))
    barrier = threading.Barrier(2)
    errors: list[Exception] = []

    def apply():
        barrier.wait()
        rating_services.apply_match(match_id=match.pk)

    threads = [_in_thread(apply, errors) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert match.rating_changes.count() == 4
    assert Rating.objects.get(rating_list__club=club, player=a).matches_played == 1
