"""Rating lists (docs/rules.md, "Ratings: the FIBS formula"): what is rated, applied once
per list, corrections replayed in order, policies per club, history import equal to entry
one by one."""

from __future__ import annotations

import pytest

from core.models import Job
from games import job_kinds, rating_jobs
from games.models import Match, Rating, RatingChange, RatingList
from games.rules import fibs
from games.services import clubs as club_services
from games.services import (
    match_corrections,
    match_create,
    match_records,
    match_results,
    score_entry,
)
from games.services import ratings as rating_services
from games.services.actors import actor_for_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(club):
    return [club_services.create_player(display_name=n, clubs=[club]) for n in "ABCD"]


@pytest.fixture
def play(club, director, django_capture_on_commit_callbacks):
    """Finish a match through the services, running its after-commit follow-ups."""

    def play_one(winner, loser, length=5, *, target=None, **options):
        actor = actor_for_user(director)
        with django_capture_on_commit_callbacks(execute=True):
            match = match_create.create_match(
                actor=actor,
                club=target or club,
                player1=winner,
                player2=loser,
                length=length,
                **options,
            )
            if length:
                score_entry.record_final_score(actor=actor, match_id=match.pk, score=(length, 0))
            else:
                score_entry.record_game(
                    actor=actor,
                    match_id=match.pk,
                    game=match_records.GameInput(winner_id=winner.pk),
                )
        match.refresh_from_db()
        return match

    return play_one


def ratings_of(rating_list: RatingList) -> dict[str, tuple[float, int, int]]:
    return {
        r.player.display_name: (round(r.rating, 9), r.experience, r.matches_played)
        for r in Rating.objects.filter(rating_list=rating_list).select_related("player")
    }


def test_finished_match_updates_club_and_site_lists_once(club, players, play):
    a, b = players[:2]
    match = play(a, b, 5)
    club_list, site = rating_services.club_list(club), rating_services.site_list()
    expected = fibs.rating_change(
        winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, length=5
    )
    for rating_list in (club_list, site):
        changes = RatingChange.objects.filter(rating_list=rating_list, match=match)
        assert changes.count() == 2
        rating_a = Rating.objects.get(rating_list=rating_list, player=a)
        rating_b = Rating.objects.get(rating_list=rating_list, player=b)
        assert rating_a.rating == pytest.approx(1500 + expected.winner_delta)
        assert rating_b.rating == pytest.approx(1500 + expected.loser_delta)
        assert (rating_a.experience, rating_a.matches_played) == (5, 1)
    change = RatingChange.objects.get(rating_list=club_list, match=match, player=a)
    assert (change.rating_before, change.experience_before, change.experience_after) == (1500, 0, 5)
    assert change.change == pytest.approx(expected.winner_delta) and change.won


def test_a_retried_task_changes_nothing(club, players, play):
    a, b = players[:2]
    match = play(a, b, 3)
    before = ratings_of(rating_services.club_list(club))
    report = rating_services.apply_match(match_id=match.pk)
    rating_jobs.apply_finished_match({"match_id": match.pk, "club_id": club.pk})
    assert report.applied == [] and len(report.already_applied) == 2
    assert ratings_of(rating_services.club_list(club)) == before
    assert RatingChange.objects.filter(match=match).count() == 4


@pytest.mark.parametrize("how", ["forfeit", "void", "unrated", "unlimited"])
def test_matches_that_are_not_rated(
    club, director, players, play, how, django_capture_on_commit_callbacks
):
    a, b = players[:2]
    actor = actor_for_user(director)
    if how == "unrated":
        play(a, b, 5, rated=False)
    elif how == "unlimited":
        play(a, b, 0)
    else:
        with django_capture_on_commit_callbacks(execute=True):
            match = match_create.create_match(
                actor=actor, club=club, player1=a, player2=b, length=5
            )
            if how == "forfeit":
                match_results.forfeit_match(actor=actor, match_id=match.pk, winner_id=a.pk)
            else:
                score_entry.record_final_score(actor=actor, match_id=match.pk, score=(5, 2))
        if how == "void":
            with django_capture_on_commit_callbacks(execute=True):
                match_results.void_match(actor=actor, match_id=match.pk)
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_an_unrated_match_locks_and_makes_no_list(players, play):
    """A friendly event's result is not queued behind the site list's lock (every
    club's rated results take it): the handler looks at ``rated`` first."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    a, b = players[:2]
    match = play(a, b, 5, rated=False)
    RatingList.objects.all().delete()
    with CaptureQueriesContext(connection) as captured:
        report = rating_services.apply_match(match_id=match.pk)
    assert report.rated is False and not report.applied
    assert not any("FOR UPDATE" in q["sql"] for q in captured.captured_queries)
    assert not RatingList.objects.exists()


def test_a_correction_gives_the_same_ratings_as_recomputing_from_scratch(
    club, director, players, play, django_capture_on_commit_callbacks
):
    a, b, c, d = players
    first = play(a, b, 5)
    play(c, a, 3)
    play(b, d, 7)
    play(a, d, 1)
    play(d, c, 5)
    actor = actor_for_user(director)
    with django_capture_on_commit_callbacks(execute=True):
        match_corrections.correct_final_score(actor=actor, match_id=first.pk, score=(2, 5))
    job = Job.objects.get(kind=job_kinds.RECOMPUTE_FROM)
    assert job.status == "succeeded" and job.done == 5 and job.total == 5
    club_list = rating_services.club_list(club)
    corrected = ratings_of(club_list)
    assert corrected["B"][0] > 1500  # B now won the first match
    report = rating_services.recompute_list(rating_list_id=club_list.pk)
    assert ratings_of(club_list) == corrected
    assert report.drifted_players == 0 and report.matches == 5


def test_a_void_replays_the_list_without_the_match(
    club, director, players, play, django_capture_on_commit_callbacks
):
    a, b, c, _ = players
    voided = play(a, b, 5)
    play(b, c, 5)
    with django_capture_on_commit_callbacks(execute=True):
        match_results.void_match(actor=actor_for_user(director), match_id=voided.pk)
    club_list = rating_services.club_list(club)
    assert not RatingChange.objects.filter(match=voided).exists()
    assert "A" not in ratings_of(club_list)
    expected = fibs.rating_change(
        winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, length=5
    )
    assert ratings_of(club_list)["B"][0] == pytest.approx(1500 + expected.winner_delta)


def test_an_out_of_order_update_is_replayed_in_order(club, players, play):
    a, b, c, _ = players
    first = play(a, b, 5)
    second = play(b, c, 3)
    # The second match's task ran first: remove the first match's effect and apply
    # it late, as a delayed task would.
    club_list = rating_services.club_list(club)
    rating_services.recompute_list(rating_list_id=club_list.pk)
    serial = ratings_of(club_list)
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    RatingList.objects.update(applied_at=None, applied_match_id=None)
    rating_services.apply_match(match_id=second.pk)
    report = rating_services.apply_match(match_id=first.pk)
    assert sorted(report.replayed) == sorted([club_list.pk, rating_services.site_list().pk])
    assert ratings_of(club_list) == serial


@pytest.mark.parametrize(
    ("boost", "initial"),
    [("fibs", 1500), ("fibs_including_match", 1500), ("none", 1600)],
)
def test_each_club_list_uses_its_own_policy(director, play, boost, initial):
    other = club_services.create_club(
        created_by=director, name="Other", rating_initial=initial, rating_boost=boost
    )
    a = club_services.create_player(display_name="X", clubs=[other])
    b = club_services.create_player(display_name="Y", clubs=[other])
    play(a, b, 5, target=other)
    expected = fibs.rating_change(
        winner_rating=initial,
        loser_rating=initial,
        winner_experience=0,
        loser_experience=0,
        length=5,
        policy=fibs.BoostPolicy(boost),
    )
    club_ratings = ratings_of(rating_services.club_list(other))
    assert club_ratings["X"][0] == pytest.approx(initial + expected.winner_delta)
    site_ratings = ratings_of(rating_services.site_list())
    default = fibs.rating_change(
        winner_rating=1500, loser_rating=1500, winner_experience=0, loser_experience=0, length=5
    )
    assert site_ratings["X"][0] == pytest.approx(1500 + default.winner_delta)


def test_nightly_job_reports_drift_and_repairs_it(
    club, players, play, django_capture_on_commit_callbacks
):
    a, b = players[:2]
    play(a, b, 5)
    Rating.objects.filter(player=a).update(rating=1234.0)
    with django_capture_on_commit_callbacks(execute=True):
        rating_jobs.nightly_recompute()
    job = Job.objects.get(kind=job_kinds.RECOMPUTE_ALL)
    assert job.status == "succeeded"
    assert job.result["drifted_lists"] == 2
    assert job.result["max_drift"] == pytest.approx(1500 + 4 * 5**0.5 * 0.5 * 5 - 1234.0)
    assert Rating.objects.filter(rating=1234.0).count() == 0


def test_undo_and_finish_again_moves_the_match_to_the_end(
    club, director, players, play, django_capture_on_commit_callbacks
):
    a, b, c, _ = players
    actor = actor_for_user(director)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create.create_match(actor=actor, club=club, player1=a, player2=b, length=1)
        score_entry.record_game(
            actor=actor, match_id=match.pk, game=match_records.GameInput(winner_id=a.pk)
        )
    play(b, c, 3)
    with django_capture_on_commit_callbacks(execute=True):
        score_entry.undo_last_game(actor=actor, match_id=match.pk)
    assert not RatingChange.objects.filter(match=match).exists()
    with django_capture_on_commit_callbacks(execute=True):
        score_entry.record_game(
            actor=actor, match_id=match.pk, game=match_records.GameInput(winner_id=b.pk)
        )
    club_list = rating_services.club_list(club)
    live = ratings_of(club_list)
    rating_services.recompute_list(rating_list_id=club_list.pk)
    assert ratings_of(club_list) == live
    assert Match.objects.get(pk=match.pk).winner_id == b.pk
