"""N lives Swiss: the ABT's modified Swiss, where a player is out after N losses.

``docs/rules.md``, "N lives Swiss". Every player starts with N lives (``max_losses``)
and loses one per lost match; a bye counts as a win. Rounds are paired as a Swiss among
the players still in (:func:`tournaments.formats.swiss.pair_swiss_round`, which leaves
out those with N losses). A player on their last life (N−1 losses) still plays and can
still cash on the standings, but can no longer win: only the *contenders*, players with
fewer than N−1 losses, go to the playoff. The Swiss stops once at most P contenders are
left (P = ``playoff_qualifiers``, at least 2), after at least one round; they play a
single-elimination playoff seeded in standings order, whose winner wins the event.

Should a round leave fewer than two contenders (a lone survivor; or none, when every
contender lost to a player on their last life), the playoff is made up to two with the
best of the rest in standings order: a final, so the event still ends with a match
rather than on tie-breaks. Everyone else ranks by the Swiss standings.

:func:`simulate_n_lives` gives the odds by Monte Carlo with the same simplifications as
the Swiss simulator (:func:`tournaments.formats.odds.simulate_swiss`): a round pairs the
players still in by wins, ties by seed, each with the next, the odd one out getting the
bye (a win).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from core.errors import N_

from .errors import FormatError
from .odds import EventOdds, Progress, swiss_buckets
from .registry import RecordsInput
from .seeding import first_round_pairs
from .swiss import SwissPlayer

E = TypeVar("E", bound=Hashable)

MIN_LIVES = 2
"""One life is a knockout: an N lives Swiss gives each player at least two."""
MIN_PLAYOFF = 2


def check_n_lives(config: Mapping[str, Any]) -> None:
    """The options an N lives Swiss needs: its lives, its playoff, byes as wins."""
    lives = config.get("max_losses")
    if not isinstance(lives, int) or lives < MIN_LIVES:
        raise FormatError(
            "lives_too_few",
            N_("An N lives Swiss gives each player at least %(min)s lives.", min=MIN_LIVES),
            "max_losses",
        )
    playoff = config.get("playoff_qualifiers")
    if not isinstance(playoff, int) or playoff < MIN_PLAYOFF:
        raise FormatError(
            "playoff_too_small",
            N_("The playoff of an N lives Swiss takes at least %(min)s players.", min=MIN_PLAYOFF),
            "playoff_qualifiers",
        )
    if config.get("bye_is_win") is False:
        raise FormatError(
            "bye_is_a_win", N_("In an N lives Swiss a bye counts as a win."), "bye_is_win"
        )


def contenders(players: Sequence[SwissPlayer[E]], lives: int) -> list[SwissPlayer[E]]:
    """The players who can still win: fewer than N−1 losses (in the caller's order)."""
    return [p for p in players if p.losses < lives - 1]


def n_lives_is_finished(
    rounds_played: int, players: Sequence[SwissPlayer[E]], *, lives: int, playoff: int
) -> bool:
    """The Swiss part is over: at most ``playoff`` contenders, or at most one player in."""
    if rounds_played < 1:
        return False
    still_in = [p for p in players if p.losses < lives]
    return len(still_in) <= 1 or len(contenders(players, lives)) <= playoff


def playoff_field(players: Sequence[SwissPlayer[E]], *, lives: int, playoff: int) -> list[E]:
    """Who plays the playoff, in seed order; ``players`` in standings order.

    The contenders (at most ``playoff`` of them once the Swiss is over), made up to two
    with the best of the players still in when fewer are left.
    """
    field = [p.id for p in contenders(players, lives)][:playoff]
    for player in players:
        if len(field) >= MIN_PLAYOFF:
            break
        if player.losses < lives and player.id not in field:
            field.append(player.id)
    return field


def simulate_n_lives(
    event: RecordsInput,
    simulations: int,
    progress: Progress | None = None,
    *,
    seed: int | None = None,
) -> EventOdds:
    """Play the rest of the event ``simulations`` times: the Swiss, then the playoff
    (``event.options`` hold the lives and the playoff's size).

    Places: the champion, then the playoff's players by the round they went out in,
    then everyone else by wins (ties: seed). Plain Python over lists: one simulation is
    a few hundred matches, where numpy's per-call overhead would dominate.
    """
    if simulations < 1:
        raise FormatError("odds_simulations", N_("At least one simulation."), "simulations")
    n = len(event.wins)
    sim = _Simulation(event, random.Random(seed))
    buckets = swiss_buckets(n, event.places)
    win, final = [0] * n, [0] * n
    places = [[0] * len(buckets) for _ in range(n)]
    step = max(1, simulations // 20)
    for done in range(1, simulations + 1):
        order, finalists = sim.one_event()
        win[order[0]] += 1
        for entry in finalists:
            final[entry] += 1
        for k, entry in enumerate(order[: len(buckets)]):
            places[entry][k] += 1
        if progress is not None and (done % step == 0 or done == simulations):
            progress(done, simulations)
    return EventOdds(
        win=np.asarray(win, dtype=np.float64) / simulations,
        final=np.asarray(final, dtype=np.float64) / simulations,
        places=np.asarray(places, dtype=np.float64).reshape(n, len(buckets)) / simulations,
        buckets=buckets,
        simulations=simulations,
    )


class _Simulation:
    """The event's fixed parts as plain lists, and one simulated finish at a time."""

    def __init__(self, event: RecordsInput, rng: random.Random) -> None:
        self.event = event
        self.rand = rng.random
        self.n = len(event.wins)
        self.now = np.asarray(event.matrix, dtype=np.float64).tolist()
        self.later = np.asarray(event.later, dtype=np.float64).tolist()
        self.active = [i for i in range(self.n) if event.active[i]]
        self.lives = int(event.options["max_losses"])
        self.playoff = int(event.options["playoff_qualifiers"])
        self.brackets: dict[int, list[int]] = {}  # field size -> seeds in bracket order

    def bracket(self, size: int) -> list[int]:
        """Seeds (1-based) in bracket order, 0 for a bye."""
        if size not in self.brackets:
            self.brackets[size] = [
                seed for pair in first_round_pairs(size) for seed in (pair[0], pair[1] or 0)
            ]
        return self.brackets[size]

    def one_event(self) -> tuple[list[int], list[int]]:
        """One simulated finish: the entries in finishing order, and the two finalists."""
        event, rand, later = self.event, self.rand, self.later
        wins, losses = list(event.wins), list(event.losses)
        lives, last_life = self.lives, self.lives - 1
        for a, b, chance in event.current:
            p = self.now[a][b] if chance is None else chance
            winner, loser = (a, b) if rand() < p else (b, a)
            wins[winner] += 1
            losses[loser] += 1
        while True:
            ranked = sorted(
                (i for i in self.active if losses[i] < lives), key=lambda i: (-wins[i], i)
            )
            contending = sum(1 for i in ranked if losses[i] < last_life)
            if len(ranked) <= 1 or contending <= self.playoff:  # as n_lives_is_finished
                break
            if len(ranked) % 2:
                wins[ranked[-1]] += 1  # the bye, a win
            for k in range(0, len(ranked) - 1, 2):
                a, b = ranked[k], ranked[k + 1]
                winner, loser = (a, b) if rand() < later[a][b] else (b, a)
                wins[winner] += 1
                losses[loser] += 1
        records = [SwissPlayer(i, wins[i], losses[i]) for i in ranked]
        field = playoff_field(records, lives=lives, playoff=self.playoff)
        if len(field) < MIN_PLAYOFF:  # one player left in: the champion
            return field + [i for i in range(self.n) if i not in field], []
        out_in: dict[int, int] = {}  # playoff entry -> the round it went out in
        alive = [field[s - 1] if 0 < s <= len(field) else -1 for s in self.bracket(len(field))]
        round_number, finalists = 1, []
        while len(alive) > 1:
            if len(alive) == 2:
                finalists = [e for e in alive if e >= 0]
            nxt = []
            for top, bottom in zip(alive[0::2], alive[1::2], strict=True):
                if top < 0 or bottom < 0:
                    nxt.append(max(top, bottom))
                    continue
                winner = top if rand() < later[top][bottom] else bottom
                out_in[bottom if winner == top else top] = round_number
                nxt.append(winner)
            alive, round_number = nxt, round_number + 1
        champion = alive[0]
        in_playoff = sorted(out_in, key=lambda e: (-out_in[e], field.index(e)))
        rest = sorted(
            (i for i in range(self.n) if i != champion and i not in out_in),
            key=lambda i: (-wins[i], i),
        )
        return [champion, *in_playoff, *rest], finalists
