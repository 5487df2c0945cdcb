"""Event odds through the services: the job after results, snapshots, the API."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings

from core import jobs
from core.models import Job
from tournaments.models import OddsSnapshot
from tournaments.services import odds as odds_services

pytestmark = pytest.mark.django_db


def test_compute_odds_of_a_fresh_bracket_is_exact_and_sums_to_one(make_event):
    event = make_event(8, consolation_from=[1])
    snapshot = odds_services.compute_odds(tournament_id=event.pk)
    assert snapshot.method == "exact"
    wins = [row["win"] for row in snapshot.entries.values()]
    assert sum(wins) == pytest.approx(1.0, abs=1e-5)
    assert len(snapshot.entries) == 8


def test_results_start_one_debounced_job_and_the_api_shows_the_odds(
    make_event, win, api_client, django_capture_on_commit_callbacks, settings
):
    settings.ODDS_SIMULATIONS = 4_000
    event = make_event(8)
    with django_capture_on_commit_callbacks(execute=True):
        win(event, "main-r1-m1", 1)
        win(event, "main-r1-m2", 5)  # an upset
    # eager: each commit ran its job at once; a job per commit, none left queued
    assert not Job.objects.filter(kind="tournaments.odds", dedupe_key__isnull=False).exists()
    event.refresh_from_db()
    body = api_client.get(f"/api/v1/tournaments/{event.slug}/odds/").json()
    assert body["available"] is True
    assert body["up_to_date"] is True
    assert body["method"] == "exact"
    assert body["results"] == 2
    by_seed = {row["player"]["seed"]: row for row in body["entries"]}
    assert sum(row["win"] for row in body["entries"]) == pytest.approx(1.0, abs=1e-5)
    assert by_seed[4]["win"] == 0.0  # lost to 5 in round 1 (seed 4 meets 5)
    assert by_seed[1]["win"] > 0
    assert [p["label"] for p in body["places"]][:2] == ["1", "2"]
    for label, place in zip([p["label"] for p in body["places"]], body["places"], strict=True):
        total = sum(row["places"][label] for row in body["entries"])
        assert total == pytest.approx(place["size"], abs=1e-5)
    assert len(body["history"]) == OddsSnapshot.objects.filter(tournament=event).count()


def test_a_burst_shares_one_queued_job(
    make_event, win, monkeypatch, django_capture_on_commit_callbacks
):
    from core import jobs as job_runner

    enqueued: list[int] = []
    monkeypatch.setattr(
        job_runner, "_enqueue", lambda job_id, countdown=None, **message: enqueued.append(job_id)
    )
    event = make_event(8)
    with django_capture_on_commit_callbacks(execute=True):
        win(event, "main-r1-m1", 1)
    with django_capture_on_commit_callbacks(execute=True):
        win(event, "main-r1-m2", 4)
    assert len(set(enqueued)) == 1  # the second result found the first job still queued
    job = Job.objects.get(pk=enqueued[0])
    job_runner.run(job.pk)
    job.refresh_from_db()
    assert job.status == "succeeded"
    assert job.dedupe_key is None  # released as it started: the next result gets a new job
    event.refresh_from_db()
    assert OddsSnapshot.objects.get(tournament=event).version == event.version
    with django_capture_on_commit_callbacks(execute=True):
        win(event, "main-r1-m3", 3)
    assert len(set(enqueued)) == 2


def test_a_rounds_last_result_runs_the_odds_at_once(
    make_event, win, monkeypatch, django_capture_on_commit_callbacks
):
    from config.celery import app
    from core import enqueue, outbox
    from core.models import DomainEvent
    from tournaments.event_kinds import SETTLE

    sent: list[tuple[int, float | None, int]] = []
    monkeypatch.setattr(
        enqueue,
        "send_job",
        lambda job_id, countdown=None, *, token, kind: sent.append((job_id, countdown, token)),
    )
    monkeypatch.setattr(enqueue, "send_event", lambda *args, **kwargs: None)
    event = make_event(4)
    app.conf.task_always_eager = False  # a worker settles (the conftest puts it back)

    def settle() -> None:  # what the worker does with the result's settle event
        with django_capture_on_commit_callbacks(execute=True):
            for pending in DomainEvent.objects.filter(kind=SETTLE, handled_at__isnull=True):
                assert outbox.handle_event(event_id=pending.pk) in ("handled", "already handled")

    with django_capture_on_commit_callbacks(execute=True):
        win(event, "main-r1-m1", 1)
    settle()
    assert [countdown for _, countdown, _ in sent] == [settings.ODDS_DEBOUNCE_SECONDS]
    job_id = sent[0][0]
    with django_capture_on_commit_callbacks(execute=True):
        win(event, "main-r1-m2", 2)  # the round's last result
    settle()
    # the job still in its countdown is sent again, now, under a new token
    assert sent[1:] == [(job_id, None, 1)]
    assert cache.get(f"odds-asked:{event.pk}") <= time.time() - settings.ODDS_QUIET_SECONDS
    waited = odds_services.wait_for_quiet(tournament_id=event.pk, asked_since=time.time())
    assert waited < 0.05  # nothing more to wait for
    assert jobs.run(job_id, token=0) == "stale message"
    assert jobs.run(job_id, token=1) == "succeeded"
    event.refresh_from_db()
    assert OddsSnapshot.objects.get(tournament=event).version == event.version


def test_a_result_not_yet_settled_leaves_the_odds_not_up_to_date(
    make_event, win, api_client, monkeypatch, django_capture_on_commit_callbacks
):
    from config.celery import app
    from core import enqueue

    event = make_event(4)
    odds_services.compute_odds(tournament_id=event.pk)  # the draw's odds
    url = f"/api/v1/tournaments/{event.slug}/odds/"
    assert api_client.get(url).json()["up_to_date"] is True
    app.conf.task_always_eager = False  # a worker settles, later (the conftest puts it back)
    monkeypatch.setattr(enqueue, "send_event", lambda *args, **kwargs: None)
    with django_capture_on_commit_callbacks(execute=True):
        win(event, "main-r1-m1", 1)
    event.refresh_from_db()
    snapshot = OddsSnapshot.objects.get(tournament=event)
    assert snapshot.version == event.version  # the version moves with the settling
    body = api_client.get(url).json()
    assert body["up_to_date"] is False and body["results"] == 0


def test_an_older_run_finishing_last_does_not_replace_newer_odds(make_event, api_client):
    from datetime import timedelta

    from django.db.models import F
    from django.utils import timezone

    from tournaments.models import Tournament

    event = make_event(4)
    older = odds_services.compute_odds(tournament_id=event.pk)  # a long run's reading
    Tournament.objects.filter(pk=event.pk).update(version=F("version") + 1)
    newer = odds_services.compute_odds(tournament_id=event.pk)  # a quick run's, side by side
    assert newer.version == older.version + 1
    # the long run stores last: later than the quick one
    OddsSnapshot.objects.filter(pk=older.pk).update(
        computed_at=timezone.now() + timedelta(seconds=5)
    )
    body = api_client.get(f"/api/v1/tournaments/{event.slug}/odds/").json()
    assert body["version"] == newer.version and body["up_to_date"] is True
    assert odds_services.compute_odds(tournament_id=event.pk).pk == newer.pk


@override_settings(ODDS_QUIET_SECONDS=1.5, ODDS_MAX_WAIT_SECONDS=30)
def test_a_waiting_odds_job_hears_a_rounds_end_within_a_poll():
    # results every 0.3 s, then at 3.0 s the round completes (an ask already quiet)
    waited, clock = _waited(9105, [i * 0.3 for i in range(11)], at_once=3.0)
    assert waited <= 3.0 + odds_services.QUIET_POLL_SECONDS + 0.06
    assert max(clock.slept) <= odds_services.QUIET_POLL_SECONDS


def test_swiss_odds_sum_to_one(make_event, settings):
    settings.ODDS_SIMULATIONS = 3_000
    event = make_event(9, format="swiss", swiss_rounds=4)
    snapshot = odds_services.compute_odds(tournament_id=event.pk)
    assert snapshot.method == "swiss_approximation"
    assert sum(r["win"] for r in snapshot.entries.values()) == pytest.approx(1.0, abs=1e-5)
    assert all(r["final"] is None for r in snapshot.entries.values())


def test_odds_of_a_draft_event_are_not_available(club, actor, api_client):
    from tournaments.services import events as event_services

    event = event_services.create_tournament(
        actor=actor, club=club, name="Later", format="single_elimination"
    )
    body = api_client.get(f"/api/v1/tournaments/{event.slug}/odds/").json()
    assert body["available"] is False
    assert "started" in body["reason"]
    assert body["entries"] == []


def test_a_match_in_progress_starts_from_its_score(make_event, actor):
    """Seed 2 leads 4-0 in a 5-point final of a 2-player event: the table's chance."""
    from games.met_tables import default_table
    from games.rules.match_chances import match_winning_chance
    from games.services import score_entry
    from games.services.match_records import GameInput
    from tournaments.models import Pairing

    event = make_event(2, match_lengths={"default": 5})
    pairing = Pairing.objects.select_related("match", "entry1", "entry2").get(
        tournament=event, key="main-r1-m1"
    )
    match = pairing.match
    assert match.length == 5
    leader = pairing.entry2.player_id
    score_entry.record_game(
        actor=actor, match_id=match.pk, game=GameInput(winner_id=leader, cube=4)
    )
    snapshot = odds_services.compute_odds(tournament_id=event.pk)
    p_leader = match_winning_chance(
        default_table(),
        length=5,
        score_a=4,
        score_b=0,
        crawford_game=True,
        post_crawford=False,
        rating_a=1500.0,
        rating_b=1500.0,
    )
    assert snapshot.entries[str(pairing.entry2_id)]["win"] == pytest.approx(p_leader, abs=1e-6)
    assert 0.8 < p_leader < 0.9  # 1-away, 5-away, Crawford game: about 84%


def test_race_fallback_is_fibs_at_zero_zero_and_monotone():
    from games.rules.fibs import win_probabilities
    from tournaments.services.match_chance import race_chance

    at_start = race_chance(length=31, score_a=0, score_b=0, rating_a=1700, rating_b=1500)
    assert at_start == pytest.approx(win_probabilities(1700, 1500, 31)[0], abs=1e-6)
    ahead = race_chance(length=31, score_a=10, score_b=0, rating_a=1700, rating_b=1500)
    behind = race_chance(length=31, score_a=0, score_b=10, rating_a=1700, rating_b=1500)
    assert behind < at_start < ahead


def test_pages_show_the_chances_and_the_chart(make_event, win, settings):
    from django.test import Client

    event = make_event(8)
    odds_services.compute_odds(tournament_id=event.pk)
    win(event, "main-r1-m1", 1)
    odds_services.compute_odds(tournament_id=event.pk)
    client = Client()
    for url in ("standings", "bracket", "odds"):
        html = client.get(f"/tournaments/{event.slug}/{url}/").content.decode()
        assert "Chances to win" in html, url
        assert "odds-bars" in html
        assert "The leaders' chance to win through the evening" in html  # two snapshots
    standings = client.get(f"/tournaments/{event.slug}/standings/").content.decode()
    assert 'class="num chance"' in standings
    screen = client.get(f"/tournaments/{event.slug}/screen/").content.decode()
    assert 'class="num chance"' in screen
    full = client.get(f"/tournaments/{event.slug}/odds/").content.decode()
    assert "odds-table" in full and "3–4" in full
    marker = full.split("?v=")[1].split("&")[0]
    assert client.get(f"/tournaments/{event.slug}/odds/live/?v={marker}").status_code == 204
    assert client.get(f"/tournaments/{event.slug}/odds/live/?v=old").status_code == 200


def test_a_finished_swiss_gives_the_standings_order(make_event, win, actor):
    from tournaments.models import Pairing, PairingStatus
    from tournaments.selectors import standings
    from tournaments.services import rounds as round_services

    event = make_event(4, format="swiss", swiss_rounds=2)
    for number in (1, 2):
        if number == 2:
            round_services.pair_next_round(actor=actor, tournament_id=event.pk, round_number=2)
        for p in Pairing.objects.filter(
            tournament=event, status=PairingStatus.READY
        ).select_related("entry1", "entry2"):
            win(event, p.key, min(p.entry1.seed, p.entry2.seed))
    event.refresh_from_db()
    snapshot = odds_services.compute_odds(tournament_id=event.pk)
    first = standings(event)[0].entry.pk
    assert snapshot.method == "exact"
    assert snapshot.entries[str(first)]["win"] == 1.0
    assert sorted(r["win"] for r in snapshot.entries.values()) == [0.0, 0.0, 0.0, 1.0]


def test_odds_stay_up_to_date_through_an_edit_that_changes_no_chance(
    make_event, win, actor, api_client, django_capture_on_commit_callbacks, monkeypatch
):
    """A director's edit that bumps the version but no chance (a round's clock policy,
    a call, a table) left the odds ``up_to_date: false`` until the next result."""
    from tournaments.services.round_clocks import allowed_policies, set_round_clock_policy

    event = make_event(8)
    with django_capture_on_commit_callbacks(execute=True):
        win(event, "main-r1-m1", 1)
    set_round_clock_policy(
        actor=actor, tournament_id=event.pk, round_number=1, policy=allowed_policies()[-1]
    )
    event.refresh_from_db()
    snapshot = OddsSnapshot.objects.get(tournament=event)
    assert snapshot.version < event.version  # the edit bumped the version, no odds job
    url = f"/api/v1/tournaments/{event.slug}/odds/"
    assert api_client.get(url).json()["up_to_date"] is True
    # a result asks for new odds: not up to date while its job waits in the queue
    from core import jobs as job_runner

    monkeypatch.setattr(job_runner, "_enqueue", lambda job_id, countdown=None, **message: None)
    with django_capture_on_commit_callbacks(execute=True):
        win(event, "main-r1-m2", 4)
    body = api_client.get(url).json()
    assert body["up_to_date"] is False and body["job"]["status"] == "queued"


class _Clock:
    """A fake clock: ``sleep`` moves it, and a result's ask lands at given moments;
    ``at_once``: the moment a round completes (an ask that is quiet already)."""

    def __init__(self, tournament_id: int, asks: list[float], at_once: float | None = None) -> None:
        self.tournament_id, self.asks, self.at_once, self.t = tournament_id, asks, at_once, 0.0
        self.slept: list[float] = []
        self._land()

    def _land(self) -> None:
        landed = [a for a in self.asks if a <= self.t]
        if self.at_once is not None and self.at_once <= self.t:
            landed = [self.at_once - settings.ODDS_QUIET_SECONDS]  # as odds._start writes it
        if landed:
            cache.set(f"odds-asked:{self.tournament_id}", max(landed))

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += seconds
        self._land()


def _waited(
    tournament_id: int, asks: list[float], at_once: float | None = None
) -> tuple[float, _Clock]:
    from config.celery import app
    from tournaments.services.odds import wait_for_quiet

    app.conf.task_always_eager = False  # a worker's job (the conftest puts it back)
    clock = _Clock(tournament_id, asks, at_once)
    waited = wait_for_quiet(
        tournament_id=tournament_id, asked_since=0.0, sleep=clock.sleep, now=clock.now
    )
    return waited, clock


@override_settings(ODDS_QUIET_SECONDS=1.5, ODDS_MAX_WAIT_SECONDS=30)
def test_a_starting_odds_job_waits_for_the_results_to_pause():
    # results every 0.3 s for 5 s, then none: it runs 1.5 s after the last one
    waited, _ = _waited(9101, [i * 0.3 for i in range(17)])
    assert 4.8 + 1.5 <= waited <= 4.8 + 1.5 + 0.1


@override_settings(ODDS_QUIET_SECONDS=1.5, ODDS_MAX_WAIT_SECONDS=30)
def test_results_that_never_pause_wait_no_longer_than_the_cap():
    waited, _ = _waited(9102, [i * 0.3 for i in range(200)])  # a minute of results
    assert 29.9 <= waited <= 30.1


@override_settings(ODDS_QUIET_SECONDS=1.5, ODDS_MAX_WAIT_SECONDS=30)
def test_a_club_nights_result_is_not_waited_for():
    waited, clock = _waited(9103, [-60.0])  # the last ask a minute ago
    assert waited == 0 and clock.slept == []


def test_with_tasks_in_process_the_odds_never_wait():
    from tournaments.services.odds import wait_for_quiet

    assert wait_for_quiet(tournament_id=9104, asked_since=0.0, sleep=_no_sleep) == 0.0


def _no_sleep(seconds: float) -> None:
    raise AssertionError("the embedded default must not wait")
