"""Event odds: computed by a job after each burst of results, stored as snapshots.

``docs/chances.md`` ("Event odds") explains the model. The pieces here:

* :func:`request_odds` is called by the result listener (inside the result's
  transaction): after the commit it starts one ``tournaments.odds`` job per tournament
  with a dedupe key and a countdown (``ODDS_DEBOUNCE_SECONDS``). The job releases the
  key as it starts, before it reads anything, so results arriving while it waits join
  it, and a result arriving after it started reading gets a job of its own: no result
  is left out and a burst costs one computation. When the settling completes a round
  (``at_once``) no more results are coming: the job runs at once, with no countdown and
  no wait for quiet, and the odds are fresh a second or two after the round's last
  result (they took 3.5-5.2 s through the debounce and the wait at 512 players).
* :func:`wait_for_quiet`: the starting job first waits for the results to pause
  (``ODDS_QUIET_SECONDS``, at most ``ODDS_MAX_WAIT_SECONDS``), so a round's end costs
  one computation or two, not one every few seconds.
* :func:`compute_odds` (the job) reads the event, builds the pure input (ratings,
  the chance of each match: the FIBS pre-match probability for its length, or from its
  score for a match in progress), runs :mod:`tournaments.formats.odds` (exactly when
  few matches remain, else Monte Carlo with ``ODDS_SIMULATIONS``) and stores an
  :class:`~tournaments.models.OddsSnapshot`; a redelivered job finds its snapshot
  (one per tournament version) and writes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from core import live
from core.jobs import send_now, start_job
from core.leases import is_eager
from core.models import Job
from games.models import Match, MatchStatus
from tournaments.formats import odds as pure
from tournaments.formats.bracket_engine import MatchStatus as SlotStatus
from tournaments.formats.places import DEFAULT_PRIZE_ORDER
from tournaments.formats.registry import OddsModel, RecordsInput
from tournaments.formats.schedule import match_length
from tournaments.job_kinds import ODDS
from tournaments.models import (
    Entry,
    EntryStatus,
    OddsSnapshot,
    PairingStatus,
    StageKind,
    Tournament,
)
from tournaments.selectors import (
    entry_rows,
    pairing_rows,
    ratings_for_seeding,
    results_from_pairings,
    standings,
)
from tournaments.selectors_odds import decided_pairings, odds_supported

from .brackets import bracket_graph, bracket_pairings, derive_state
from .match_chance import in_progress_chance

ODDS_JOB = ODDS
EXACT_UP_TO = 12
"""Enumerate exactly when at most this many matches are undecided (4,096 outcomes).

The enumeration's CPU doubles with each match: near a championship's end 12 undecided
took 0.9 s here, 14 took 3.4 s and 16 (the limit before) 12.9 s, while 50,000
simulations of the same took under a second; two such runs side by side at a round's
end kept the odds stale for 10 s."""
QUIET_POLL_SECONDS = 0.25
"""How often a job waiting for quiet looks again (one cache read)."""

Progress = Callable[[int, int, str], None]


def dedupe_key(tournament_id: int) -> str:
    return f"{ODDS_JOB}:{tournament_id}"


def request_odds(*, tournament_id: int, at_once: bool = False) -> None:
    """Ask for fresh odds once the current transaction commits (one job per burst);
    ``at_once``: the burst is over (a round completed), run without waiting."""
    transaction.on_commit(lambda: _start(tournament_id, at_once=at_once))


def _asked_key(tournament_id: int) -> str:
    return f"odds-asked:{tournament_id}"


def _start(tournament_id: int, *, at_once: bool = False) -> None:
    club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    if club_id is None:
        return
    # for wait_for_quiet: when this ask; at once, an ask already quiet long enough
    asked = time.time() - (settings.ODDS_QUIET_SECONDS if at_once else 0.0)
    cache.set(_asked_key(tournament_id), asked, timeout=3600)
    job, created = start_job(
        kind=ODDS_JOB,
        params={"tournament": tournament_id},
        club=None,
        dedupe_key=dedupe_key(tournament_id),
        countdown=0.0 if at_once else settings.ODDS_DEBOUNCE_SECONDS,
    )
    if at_once and not created:
        send_now(job.pk)  # an earlier ask's job still in its countdown: no longer


def wait_for_quiet(
    *,
    tournament_id: int,
    asked_since: float,
    sleep: Callable[[float], None] = time.sleep,
    now: Callable[[], float] = time.time,
) -> float:
    """Hold a starting odds job until the event's results pause: no new ask for
    ``ODDS_QUIET_SECONDS``, or ``ODDS_MAX_WAIT_SECONDS`` after ``asked_since`` (the job's
    creation) at most. Returns the seconds waited.

    While it waits the job keeps its dedupe key, so the results arriving join it. At a
    championship's round end results come every few hundred milliseconds for half a
    minute: without the pause the odds (about a second of CPU at 512 players) ran every
    three seconds all through it, and took the CPU from the score entry (a round end's
    result p50 240-400 ms through ``make serve``, about 100 ms with the odds out of the
    way: docs/operations.md). With it they run about once a round, and once more a
    moment after its last result, so they are still fresh within seconds. A club night's
    results, minutes apart, never wait. With tasks in-process (``make run``: no worker)
    or without the cache's answer it does not wait.
    """
    if is_eager():
        return 0.0
    quiet = settings.ODDS_QUIET_SECONDS
    poll = min(quiet, QUIET_POLL_SECONDS)  # a round's end (``at_once``) is heard within it
    deadline = asked_since + settings.ODDS_MAX_WAIT_SECONDS
    started = now()
    while True:
        asked = cache.get(_asked_key(tournament_id))
        moment = now()
        if not isinstance(asked, int | float) or moment >= deadline:
            return moment - started
        if moment >= asked + quiet:
            return moment - started
        sleep(max(0.05, min(asked + quiet, deadline, moment + poll) - moment))


def release_request(*, job_id: int, tournament_id: int) -> None:
    """The job is starting: the next result must start a job of its own (see the module)."""
    Job.objects.filter(pk=job_id, dedupe_key=dedupe_key(tournament_id)).update(dedupe_key=None)


@dataclass(frozen=True)
class _Prepared:
    entry_ids: list[int]
    run: Callable[[int, Callable[[int, int], None] | None], pure.EventOdds]
    method: str
    simulations: int = 0  # a bracket's own count (see bracket_simulations); 0: as asked


def bracket_simulations(asked: int, undecided: int) -> int:
    """Simulations for a bracket with ``undecided`` matches: the ``asked`` count (the
    setting), but no more than ``ODDS_WORK_BUDGET`` match-runs, and no fewer than
    ``ODDS_MIN_SIMULATIONS``.

    A run's CPU is proportional to simulations × matches still to play; a 512-player
    event with progressive consolation and last chance has 1,149 matches, and 50,000
    simulations of it took 17-40 s under load, so the odds were never fresh within a
    round. Under the budget the first rounds of such an event get about 9,000-11,000
    simulations (a standard error of at most 0.5 points, stated with the odds as
    always); a 64-player event and every event's later rounds keep the full count.
    """
    budget = settings.ODDS_WORK_BUDGET // max(undecided, 1)
    return max(min(asked, budget), min(asked, settings.ODDS_MIN_SIMULATIONS))


def compute_odds(
    *, tournament_id: int, progress: Progress | None = None, simulations: int | None = None
) -> OddsSnapshot | None:
    """Compute and store the event's odds; None if its format or state has none."""
    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    existing = OddsSnapshot.objects.filter(tournament=tournament, version=tournament.version)
    if (found := existing.first()) is not None:
        return found
    if odds_supported(tournament) is not None:
        return None
    model = tournament.format_spec.odds
    assert model is not None  # odds_supported said so
    simulations = simulations or settings.ODDS_SIMULATIONS
    prepared = ODDS_INPUTS[model](tournament, simulations)
    simulations = prepared.simulations or simulations
    say = progress or (lambda done, total, message: None)
    say(0, simulations, prepared.method)
    odds = prepared.run(simulations, lambda done, total: say(done, total, "simulating"))
    results = decided_pairings(tournament)
    try:
        with transaction.atomic():
            # the big screen and the odds page show the new chances within seconds
            live.publish_on_commit([live.channel("tournament", tournament.pk)], "odds")
            return OddsSnapshot.objects.create(
                tournament=tournament,
                computed_at=timezone.now(),
                version=tournament.version,
                results=results,
                method=prepared.method,
                simulations=odds.simulations,
                standard_error=odds.standard_error,
                places=[{"label": b.label, "size": b.size} for b in odds.buckets],
                entries=_entries_json(prepared.entry_ids, odds),
            )
    except IntegrityError:  # a twin delivery stored the same version first
        return existing.first()


def _entries_json(entry_ids: list[int], odds: pure.EventOdds) -> dict[str, Any]:
    return {
        str(entry_id): {
            "win": round(float(odds.win[i]), 6),
            "final": None if odds.final is None else round(float(odds.final[i]), 6),
            "places": [round(float(p), 6) for p in odds.places[i]],
        }
        for i, entry_id in enumerate(entry_ids)
    }


def _matrices_by_length(ratings: list[float], lengths: set[int]) -> dict[int, np.ndarray]:
    return {length: pure.fibs_matrix(ratings, length) for length in sorted(lengths)}


def _bracket_input(tournament: Tournament, simulations: int) -> _Prepared:
    graph = bracket_graph(tournament)
    order = list(tournament.bracket_order)
    pairings = bracket_pairings(tournament)
    entries = {
        e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("player")
    }
    state, _, _ = derive_state(tournament, pairings, entries, graph)
    index = {entry_id: i for i, entry_id in enumerate(order)}
    rating_of = ratings_for_seeding(tournament.club, [entries[e].player for e in order])
    ratings = [rating_of[entries[e].player_id] for e in order]
    length_of = {key: p.round.match_length for key, p in pairings.items()}
    by_length = _matrices_by_length(ratings, set(length_of.values()) or {1})
    lengths = list(by_length)
    winners = {
        key: index[slot.winner]
        for key, slot in state.matches.items()
        if slot.status == SlotStatus.PLAYED and slot.winner is not None
    }
    in_progress: dict[str, float] = {}
    for key, slot in state.matches.items():
        match = pairings[key].match
        if slot.status == SlotStatus.READY and match is not None and _started(match):
            a, b = entries[slot.player_a], entries[slot.player_b]  # type: ignore[index]
            in_progress[key] = _chance_of(match, a.player_id, rating_of, b.player_id)
    plan = pure.plan_bracket(
        graph,
        matrices=[by_length[length] for length in lengths],
        matrix_of={key: lengths.index(length) for key, length in length_of.items()},
        winners=winners,
        in_progress=in_progress,
        withdrawn=[index[e] for e in order if entries[e].status == EntryStatus.WITHDRAWN],
        prize_order=tournament.prize_order or DEFAULT_PRIZE_ORDER,
    )
    if plan.undecided <= EXACT_UP_TO:
        return _Prepared(order, lambda sims, progress: pure.exact_bracket(plan), "exact")
    return _Prepared(
        order,
        lambda sims, progress: pure.simulate_bracket(plan, sims, progress=progress),
        "monte_carlo",
        simulations=bracket_simulations(simulations, plan.undecided),
    )


def _started(match: Match) -> bool:
    return match.status == MatchStatus.IN_PROGRESS or bool(match.score1 or match.score2)


def _chance_of(match: Match, player_a: int, rating_of: dict[int, float], player_b: int) -> float:
    """Side A's chance in a match being played, from its score (oriented to side A)."""
    a_first = match.player1_id == player_a
    return in_progress_chance(
        match,
        score_a=match.score1 if a_first else match.score2,
        score_b=match.score2 if a_first else match.score1,
        rating_a=rating_of[player_a],
        rating_b=rating_of[player_b],
    )


@dataclass
class _RoundsState:
    """A rounds event's records for a simulator, entries as 0-based seed indices."""

    rows: list[Any]
    order: list[int]
    ratings: list[float]
    wins: list[int]
    losses: list[int]
    opponents: list[list[int]]
    paired: int  # the round being played (0: none yet)
    current_length: int
    current: list[tuple[int, int, float | None]]


def _rounds_state(tournament: Tournament) -> _RoundsState:
    rows = sorted(entry_rows(tournament).values(), key=lambda e: (e.seed or 10**9, e.pk))
    order = [e.pk for e in rows]
    index = {entry_id: i for i, entry_id in enumerate(order)}
    players = {
        e.pk: e.player for e in Entry.objects.filter(tournament=tournament).select_related("player")
    }
    rating_of = ratings_for_seeding(tournament.club, players.values())
    pairings = [p for p in pairing_rows(tournament) if p.stage_kind == StageKind.SWISS]
    wins, losses = [0] * len(order), [0] * len(order)
    opponents: list[list[int]] = [[] for _ in order]
    for result in results_from_pairings(pairings):
        if result.bye:
            if tournament.bye_is_win:
                wins[index[result.player_a]] += 1
            continue
        a, b = index[result.player_a], index[result.player_b]  # type: ignore[index]
        wins[index[result.winner]] += 1
        losses[b if index[result.winner] == a else a] += 1
        opponents[a].append(b)
        opponents[b].append(a)
    paired = max((p.round_number for p in pairings), default=0)
    matches = {
        m.pk: m
        for m in Match.objects.select_related("club").filter(
            pk__in=[p.match_id for p in pairings if p.status == PairingStatus.READY and p.match_id]
        )
    }
    current: list[tuple[int, int, float | None]] = []
    for p in pairings:
        if p.round_number != paired or p.status != PairingStatus.READY or p.stale:
            continue
        if p.entry1_id is None or p.entry2_id is None:
            continue
        match = matches.get(p.match_id)  # type: ignore[arg-type]
        chance = None
        if match is not None and _started(match):
            chance = _chance_of(match, players[p.entry1_id].pk, rating_of, players[p.entry2_id].pk)
        current.append((index[p.entry1_id], index[p.entry2_id], chance))
    return _RoundsState(
        rows=rows,
        order=order,
        ratings=[rating_of[players[e].pk] for e in order],
        wins=wins,
        losses=losses,
        opponents=opponents,
        paired=paired,
        current_length=next((p.match_length for p in pairings if p.round_number == paired), 1),
        current=current,
    )


def _swiss_input(tournament: Tournament, simulations: int) -> _Prepared:
    state = _rounds_state(tournament)
    paired, current_length = state.paired, state.current_length
    rounds = tournament.swiss_rounds or paired
    if not state.current and paired >= rounds:
        return _swiss_decided(tournament, state.order)
    future = [
        match_length(tournament.match_lengths, StageKind.SWISS, number, rounds)
        for number in range(paired + 1, rounds + 1)
    ]
    by_length = _matrices_by_length(state.ratings, {current_length, *future})
    event = pure.SwissInput(
        wins=state.wins,
        opponents=state.opponents,
        current=state.current,
        rounds_left=len(future),
        matrices=[by_length[current_length]] + [by_length[length] for length in future],
        active=[e.status == EntryStatus.ACTIVE for e in state.rows],
        bye_is_win=tournament.bye_is_win,
    )
    return _Prepared(
        state.order,
        lambda sims, progress: pure.simulate_swiss(event, sims, progress=progress),
        "swiss_approximation",
    )


def _records_input(tournament: Tournament, simulations: int) -> _Prepared:
    """A format's own simulator over the records; once its playoff is drawn, the
    playoff's odds are a bracket's."""
    if tournament.bracket_order:
        return _bracket_input(tournament, simulations)
    simulate = tournament.format_spec.simulate
    assert simulate is not None  # the registry test checks a RECORDS format has one
    state = _rounds_state(tournament)
    later = match_length(tournament.match_lengths, StageKind.SWISS, state.paired + 1, None)
    by_length = _matrices_by_length(state.ratings, {state.current_length, later})
    event = RecordsInput(
        wins=state.wins,
        losses=state.losses,
        current=state.current,
        matrix=by_length[state.current_length],
        later=by_length[later],
        active=[e.status == EntryStatus.ACTIVE for e in state.rows],
        options=tournament.format_options(),
    )
    return _Prepared(
        state.order,
        lambda sims, progress: simulate(event, sims, progress),
        "monte_carlo",
        simulations=min(simulations, settings.ODDS_MIN_SIMULATIONS),
    )


def _swiss_decided(tournament: Tournament, order: list[int]) -> _Prepared:
    """Every round played: the standings (with the event's own tie-breaks) decide."""
    ranked = [s.entry.pk for s in standings(tournament)]
    index = {entry_id: i for i, entry_id in enumerate(order)}
    buckets = pure.swiss_buckets(len(order))
    places = np.zeros((len(order), len(buckets)))
    for position, entry_id in enumerate(ranked[: len(buckets)]):
        places[index[entry_id], position] = 1.0
    odds = pure.EventOdds(
        win=places[:, 0].copy(), final=None, places=places, buckets=buckets, simulations=0
    )
    return _Prepared(order, lambda sims, progress: odds, "exact")


#: How each odds model (``FormatSpec.odds``) reads the event into its simulator.
ODDS_INPUTS: dict[OddsModel, Callable[[Tournament, int], _Prepared]] = {
    OddsModel.BRACKET: _bracket_input,
    OddsModel.SWISS: _swiss_input,
    OddsModel.RECORDS: _records_input,
}
