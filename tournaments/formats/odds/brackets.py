"""Bracket odds (single elimination with consolation and last chance, double elimination).

The remaining matches are played out in the graph's topological order
(:class:`~tournaments.formats.bracket_graph.BracketGraph`), with the same rules as
:mod:`tournaments.formats.bracket_engine` (see :mod:`tournaments.formats.odds`): a plan
of integer operations (:func:`plan_bracket`) played three ways, vectorised with numpy
(:func:`simulate_bracket`), by a plain Python loop (:func:`simulate_bracket_loop`, the
cross-check and the benchmark's baseline), and exactly (:func:`exact_bracket`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.errors import N_

from ..bracket_engine import MatchStatus, derive_bracket_state
from ..bracket_graph import BracketGraph, Bye, LoserOf, Seed, Source, Stage, WinnerOf
from ..errors import FormatError
from ..places import DEFAULT_PRIZE_ORDER, PlaceBucket, place_layout
from .common import CHUNK, EventOdds, Progress

EXACT_LIMIT = 22
"""At most this many undecided matches are enumerated exactly (4 million leaves)."""

# ---------------------------------------------------------------- the bracket plan

_SEED, _BYE, _WIN, _LOSE = 0, 1, 2, 3


@dataclass(frozen=True)
class _Op:
    """One match of the plan, with its sources as (kind, value) and what decides it."""

    a: tuple[int, int]
    b: tuple[int, int]
    matrix: int  # index into the plan's matrices
    fixed_p: float | None  # a match in progress: side A's chance
    played: tuple[int, int] | None  # a recorded result: (winner, loser)
    reset_of: int  # index of the first final for a reset, else -1
    eliminates: int  # place index of a loser who goes nowhere, else -1
    not_needed_bucket: int  # a reset: place of the first final's loser if it is not played


@dataclass(frozen=True)
class BracketPlan:
    """A bracket ready to be played out: the matches as integer operations."""

    entries: int
    ops: tuple[_Op, ...]
    matrices: tuple[np.ndarray, ...]
    winners: tuple[tuple[int, tuple[int, int]], ...]  # (place index, source) per block
    champion: tuple[int, int]
    final: int  # op index of the final (the first grand final in double elimination)
    buckets: tuple[PlaceBucket, ...]

    @property
    def undecided(self) -> int:
        """Matches whose result is not recorded yet (some may turn out to be walkovers)."""
        return sum(1 for op in self.ops if op.played is None)


def _encode(source: Source, index: Mapping[str, int], entries: int) -> tuple[int, int]:
    if isinstance(source, Seed):
        return (_SEED, source.seed - 1) if source.seed <= entries else (_BYE, -1)
    if isinstance(source, Bye):
        return (_BYE, -1)
    if isinstance(source, WinnerOf):
        return (_WIN, index[source.match])
    assert isinstance(source, LoserOf)
    return (_LOSE, index[source.match])


def plan_bracket(
    graph: BracketGraph,
    *,
    matrices: Sequence[np.ndarray],
    matrix_of: Mapping[str, int],
    winners: Mapping[str, int] | None = None,
    in_progress: Mapping[str, float] | None = None,
    withdrawn: Sequence[int] = (),
    prize_order: Sequence[str] = DEFAULT_PRIZE_ORDER,
) -> BracketPlan:
    """Compile ``graph`` with the results so far into a plan the simulators share.

    Entries are 0-based seed indices. ``winners``: recorded winners by match key (stale
    ones are ignored, as the bracket engine ignores them); ``in_progress``: side A's
    chance for matches being played (only used while both players are known);
    ``matrices[matrix_of[key]]``: the chance matrix of each match; ``withdrawn``: entries
    who lose every match still to play.
    """
    n = graph.entries
    winners = dict(winners or {})
    in_progress = dict(in_progress or {})
    state = derive_bracket_state(graph, list(range(n)), winners)
    layout = place_layout(graph, prize_order)
    adjusted: list[np.ndarray] = []
    for matrix in matrices:
        m = np.array(matrix, dtype=float, copy=True)
        if m.shape != (n, n):
            raise FormatError(
                "odds_matrix", N_("A chance matrix must be %(n)s×%(n)s.", n=n), "matrices"
            )
        for w in withdrawn:
            m[w, :] = 0.0
            m[:, w] = 1.0  # two withdrawn players: side A goes through, as the bracket does
        adjusted.append(m)
    index = {m.key: i for i, m in enumerate(graph.matches)}
    ops: list[_Op] = []
    for match in graph.matches:
        slot = state.matches[match.key]
        played = None
        if slot.status == MatchStatus.PLAYED:
            played = (slot.winner, slot.loser)
        fixed = None
        if slot.status == MatchStatus.READY and match.key in in_progress:
            fixed = float(in_progress[match.key])
            if slot.player_a in withdrawn or slot.player_b in withdrawn:
                fixed = None
        eliminates = -1
        if graph.loser_destination(match.key) is None:
            eliminates = layout.eliminated_at.get((match.stage, match.round), -1)
        ops.append(
            _Op(
                a=_encode(match.side_a, index, n),
                b=_encode(match.side_b, index, n),
                matrix=matrix_of.get(match.key, 0),
                fixed_p=fixed,
                played=played,  # type: ignore[arg-type]
                reset_of=index[match.reset_of] if match.reset_of else -1,
                eliminates=eliminates,
                not_needed_bucket=eliminates if match.reset_of else -1,
            )
        )
    champion_source = graph.stage_winners[graph.champion_stage]
    final_key = champion_source.match if isinstance(champion_source, WinnerOf) else None
    if final_key is None:
        raise FormatError("odds_no_final", N_("The bracket has no final."))
    final_match = graph.match(final_key)
    final = index[final_match.reset_of or final_key]
    block_sources = {
        "main": champion_source,
        "consolation": graph.stage_winners.get(Stage.CONSOLATION),
        "last_chance": graph.stage_winners.get(Stage.LAST_CHANCE),
    }
    block_winners = tuple(
        (bucket, _encode(source, index, n))
        for block, bucket in layout.block_winner.items()
        if (source := block_sources.get(block)) is not None
    )
    return BracketPlan(
        entries=n,
        ops=tuple(ops),
        matrices=tuple(adjusted),
        winners=block_winners,
        champion=_encode(champion_source, index, n),
        final=final,
        buckets=layout.buckets,
    )


# ---------------------------------------------------------------- numpy, all at once


def simulate_bracket(
    plan: BracketPlan,
    simulations: int,
    *,
    seed: int | None = None,
    progress: Progress | None = None,
) -> EventOdds:
    """Play the rest of the bracket ``simulations`` times, vectorised over simulations."""
    if simulations < 1:
        raise FormatError("odds_simulations", N_("At least one simulation."), "simulations")
    rng = np.random.default_rng(seed)
    n, nb = plan.entries, len(plan.buckets)
    win = np.zeros(n, dtype=np.int64)
    final = np.zeros(n, dtype=np.int64)
    places = np.zeros(n * nb, dtype=np.int64)
    done = 0
    while done < simulations:
        size = min(CHUNK, simulations - done)
        w, f, p = _simulate_chunk(plan, size, rng)
        win += w
        final += f
        places += p
        done += size
        if progress is not None:
            progress(done, simulations)
    return EventOdds(
        win=win / simulations,
        final=final / simulations,
        places=(places / simulations).reshape(n, nb),
        buckets=plan.buckets,
        simulations=simulations,
    )


def _may_be_empty(plan: BracketPlan) -> tuple[list[bool], list[bool]]:
    """Per op, whether its winner and its loser may be nobody (-1: a bye) in some run.

    Known before simulating: once both sides of a match are certain to be players (every
    match after the first round of a full bracket), its simulation takes the short path
    of :func:`_simulate_chunk`, without the masks that handle byes.
    """
    won_empty: list[bool] = []
    lost_empty: list[bool] = []

    def empty(source: tuple[int, int]) -> bool:
        kind, value = source
        if kind == _SEED:
            return False
        if kind == _BYE:
            return True
        return won_empty[value] if kind == _WIN else lost_empty[value]

    for op in plan.ops:
        ea, eb = empty(op.a), empty(op.b)
        if op.played is not None:
            won_empty.append(op.played[0] < 0)
            lost_empty.append(op.played[1] < 0)
        elif op.reset_of >= 0:
            won_empty.append(True)
            lost_empty.append(True)
        else:
            won_empty.append(ea and eb)
            lost_empty.append(ea or eb)
    return won_empty, lost_empty


def _simulate_chunk(
    plan: BracketPlan, size: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``size`` runs of the plan at once: one row of ``size`` per match.

    The rows of a played match are constants; a match whose sides are certain to be
    players (see :func:`_may_be_empty`) is decided in a handful of passes (a gather of
    the chances, one draw, one choice). The draws are the same, in the same order, as
    the general path's, so a seed gives the same odds either way. Profiled at 512
    players with progressive consolation and last chance (1,149 matches): about half
    the CPU of the general path for every match (``python -m bench odds``).
    """
    n, nb = plan.entries, len(plan.buckets)
    count = len(plan.ops)
    won = np.empty((count, size), dtype=np.int16)
    lost = np.empty((count, size), dtype=np.int16)
    # the sides are kept only where they are read again: the final, and a first final
    # whose reset depends on who was side B
    keep_sides = {plan.final} | {op.reset_of for op in plan.ops if op.reset_of >= 0}
    side_a: dict[int, NDArray[np.int16]] = {}
    side_b: dict[int, NDArray[np.int16]] = {}
    rows = np.arange(size)
    place = np.full((size, n), nb, dtype=np.int16)  # nb: not placed (cannot happen once over)
    consts: dict[int, NDArray[np.int16]] = {}
    flat_matrices = [np.ascontiguousarray(m).ravel() for m in plan.matrices]
    won_empty, lost_empty = _may_be_empty(plan)

    def const(value: int) -> NDArray[np.int16]:
        if value not in consts:
            consts[value] = np.full(size, value, dtype=np.int16)
        return consts[value]

    def resolve(source: tuple[int, int]) -> NDArray[np.int16]:
        kind, value = source
        if kind == _SEED:
            return const(value)
        if kind == _BYE:
            return const(-1)
        row: NDArray[np.int16] = won[value] if kind == _WIN else lost[value]
        return row

    def empty(source: tuple[int, int]) -> bool:
        kind, value = source
        if kind == _SEED:
            return False
        if kind == _BYE:
            return True
        return won_empty[value] if kind == _WIN else lost_empty[value]

    for i, op in enumerate(plan.ops):
        a, b = resolve(op.a), resolve(op.b)
        if i in keep_sides:
            side_a[i], side_b[i] = a.copy(), b.copy()
        if op.played is not None:
            winner, loser = op.played
            won[i], lost[i] = winner, loser
            if op.eliminates >= 0 and loser >= 0:
                place[:, loser] = op.eliminates
            continue
        if op.fixed_p is not None:
            p: np.ndarray | float = op.fixed_p
        elif not (empty(op.a) or empty(op.b)):
            p = flat_matrices[op.matrix].take(a.astype(np.intp) * n + b)
        else:
            p = plan.matrices[op.matrix][np.maximum(a, 0), np.maximum(b, 0)]
        a_wins = rng.random(size) < p
        if op.reset_of < 0 and not (empty(op.a) or empty(op.b)):
            # two players, always: the short path
            np.copyto(won[i], np.where(a_wins, a, b))
            np.subtract(a + b, won[i], out=lost[i])
            if op.eliminates >= 0:
                place[rows, lost[i]] = op.eliminates
            continue
        both = (a >= 0) & (b >= 0)
        won[i] = np.where(both, np.where(a_wins, a, b), np.maximum(a, b))
        lost[i] = np.where(both, np.where(a_wins, b, a), -1)
        if op.reset_of >= 0:
            first = op.reset_of
            needed = (won[first] >= 0) & (won[first] == side_b[first])
            won[i] = np.where(needed, won[i], won[first])
            lost[i] = np.where(needed, lost[i], -1)
            skipped = ~needed & (lost[first] >= 0)
            place[rows[skipped], lost[first][skipped]] = op.not_needed_bucket
        if op.eliminates >= 0:
            out = lost[i] >= 0
            place[rows[out], lost[i][out]] = op.eliminates
    for bucket, source in plan.winners:
        who = resolve(source)
        ok = who >= 0
        place[rows[ok], who[ok]] = bucket
    champion = resolve(plan.champion)
    win = np.bincount(champion[champion >= 0], minlength=n)
    fa, fb = side_a[plan.final], side_b[plan.final]
    final = np.bincount(fa[fa >= 0], minlength=n) + np.bincount(fb[fb >= 0], minlength=n)
    flat = (np.arange(n, dtype=np.int64)[None, :] * (nb + 1) + place).ravel()
    counts = np.bincount(flat, minlength=n * (nb + 1)).reshape(n, nb + 1)[:, :nb]
    return win, final, counts.ravel()


# ---------------------------------------------------------------- one at a time


def _scalar_step(
    plan: BracketPlan,
    i: int,
    won: list[int],
    lost: list[int],
    side_a: list[int],
    side_b: list[int],
) -> float | None:
    """Settle op ``i`` if nothing is left to chance; else return side A's chance."""
    op = plan.ops[i]

    def resolve(source: tuple[int, int]) -> int:
        kind, value = source
        if kind == _SEED:
            return value
        if kind == _BYE:
            return -1
        return won[value] if kind == _WIN else lost[value]

    a, b = resolve(op.a), resolve(op.b)
    side_a[i], side_b[i] = a, b
    if op.played is not None:
        won[i], lost[i] = op.played
        return None
    if op.reset_of >= 0:
        first = op.reset_of
        if not (won[first] >= 0 and won[first] == side_b[first]):
            won[i], lost[i] = won[first], -1
            return None
    if a < 0 or b < 0:
        won[i], lost[i] = max(a, b), -1
        return None
    if op.fixed_p is not None:
        return op.fixed_p
    return float(plan.matrices[op.matrix][a, b])


def _scalar_outcome(
    plan: BracketPlan, won: list[int], lost: list[int], side_a: list[int], side_b: list[int]
) -> tuple[int, tuple[int, int], dict[int, int]]:
    """(champion, the final's two sides, place index of each entry) of a finished run."""

    def resolve(source: tuple[int, int]) -> int:
        kind, value = source
        if kind == _SEED:
            return value
        if kind == _BYE:
            return -1
        return won[value] if kind == _WIN else lost[value]

    place: dict[int, int] = {}
    for i, op in enumerate(plan.ops):
        if op.reset_of >= 0 and lost[i] < 0 and lost[op.reset_of] >= 0:
            place[lost[op.reset_of]] = op.not_needed_bucket
        if op.eliminates >= 0 and lost[i] >= 0:
            place[lost[i]] = op.eliminates
    for bucket, source in plan.winners:
        who = resolve(source)
        if who >= 0:
            place[who] = bucket
    return resolve(plan.champion), (side_a[plan.final], side_b[plan.final]), place


def simulate_bracket_loop(
    plan: BracketPlan, simulations: int, *, seed: int | None = None
) -> EventOdds:
    """The same simulation as :func:`simulate_bracket`, one event at a time in plain Python.

    The baseline of ``python -m bench odds`` and a cross-check of the vectorised code.
    """
    if simulations < 1:
        raise FormatError("odds_simulations", N_("At least one simulation."), "simulations")
    rng = random.Random(seed)
    n, nb, count = plan.entries, len(plan.buckets), len(plan.ops)
    win = [0] * n
    final = [0] * n
    places = [[0] * nb for _ in range(n)]
    won, lost, side_a, side_b = [0] * count, [0] * count, [0] * count, [0] * count
    for _ in range(simulations):
        for i in range(count):
            p = _scalar_step(plan, i, won, lost, side_a, side_b)
            if p is not None:
                a, b = side_a[i], side_b[i]
                won[i], lost[i] = (a, b) if rng.random() < p else (b, a)
        champion, sides, place = _scalar_outcome(plan, won, lost, side_a, side_b)
        if champion >= 0:
            win[champion] += 1
        for who in sides:
            if who >= 0:
                final[who] += 1
        for who, bucket in place.items():
            places[who][bucket] += 1
    return EventOdds(
        win=np.array(win) / simulations,
        final=np.array(final) / simulations,
        places=np.array(places, dtype=float).reshape(n, nb) / simulations,
        buckets=plan.buckets,
        simulations=simulations,
    )


def exact_bracket(plan: BracketPlan) -> EventOdds:
    """Every combination of the remaining results, weighted by its probability.

    For small brackets (2, 4, 8 players, or a big one near its end): refused with
    ``odds_too_many_matches`` beyond :data:`EXACT_LIMIT` undecided matches.
    """
    if plan.undecided > EXACT_LIMIT:
        raise FormatError(
            "odds_too_many_matches",
            N_(
                "%(undecided)s matches are undecided; exact odds stop at %(EXACT_LIMIT)s.",
                undecided=plan.undecided,
                EXACT_LIMIT=EXACT_LIMIT,
            ),
        )
    n, nb, count = plan.entries, len(plan.buckets), len(plan.ops)
    win = np.zeros(n)
    final = np.zeros(n)
    places = np.zeros((n, nb))
    won, lost, side_a, side_b = [0] * count, [0] * count, [0] * count, [0] * count

    def walk(i: int, weight: float) -> None:
        while i < count:
            p = _scalar_step(plan, i, won, lost, side_a, side_b)
            if p is not None:
                a, b = side_a[i], side_b[i]
                for winner, loser, chance in ((a, b, p), (b, a, 1.0 - p)):
                    if chance > 0.0:
                        won[i], lost[i] = winner, loser
                        walk(i + 1, weight * chance)
                return
            i += 1
        champion, sides, place = _scalar_outcome(plan, won, lost, side_a, side_b)
        if champion >= 0:
            win[champion] += weight
        for who in sides:
            if who >= 0:
                final[who] += weight
        for who, bucket in place.items():
            places[who, bucket] += weight

    walk(0, 1.0)
    return EventOdds(win=win, final=final, places=places, buckets=plan.buckets, simulations=0)
