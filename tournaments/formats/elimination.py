"""Single elimination with progressive consolation and last chance; drop maps.

``docs/rules.md``, "Tournaments": main + **progressive consolation** (losers of early main rounds
enter the consolation; later losers enter later consolation rounds, with byes where
needed) + **last chance** (losers of early consolation rounds); drop maps chosen to
avoid early rematches by alternating the feeding order round by round, previewed with
their rematch count. ``docs/club-formats.md``: Milwaukee
sends only main round-1 losers to a consolation (``consolation_from=(1,)``); Portland's
5-player bracket had a first-round bye and a consolation-round bye.

A *fed* bracket (consolation, last chance, and the losers' bracket of double
elimination) is built the same way: its field is the losers of chosen rounds of the
bracket feeding it. The first group of drop-ins plays among itself ("minor" rounds)
until it is as small as the next group of drop-ins, then meets them ("major" round),
and so on; after the last drop-in round it plays down to one winner. Major rounds
pair survivors with drop-ins in an order that changes round by round (reversed, then
halves swapped, ...), so that a player dropping in meets survivors from the far side
of the bracket, not someone they have just beaten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.errors import N_

from .bracket_graph import (
    BracketGraph,
    Bye,
    Feed,
    LoserOf,
    Match,
    Seed,
    Source,
    Stage,
    WinnerOf,
    match_key,
    playable_matches,
)
from .errors import FormatError
from .seeding import bracket_size, first_round_pairs


class FeedOrder(StrEnum):
    """How a round of drop-ins is laid against the survivors of a fed bracket."""

    STRAIGHT = "straight"  # drop-in i meets survivor i
    REVERSED = "reversed"  # drop-in i meets survivor m-1-i
    HALF_SWAPPED = "half_swapped"  # the two halves of the drop-ins change places
    REVERSED_HALVES = "reversed_halves"  # each half reversed in place


DEFAULT_FEED_ORDERS: tuple[FeedOrder, ...] = (FeedOrder.REVERSED, FeedOrder.HALF_SWAPPED)
"""The alternation used unless the director picks another: reversed, halves swapped, ..."""


def feed_permutation(order: FeedOrder, count: int) -> list[int]:
    """Index of the drop-in that meets survivor ``i``, for ``count`` drop-ins."""
    straight = list(range(count))
    half = count // 2
    if order == FeedOrder.STRAIGHT or count < 2:
        return straight
    if order == FeedOrder.REVERSED:
        return straight[::-1]
    if order == FeedOrder.HALF_SWAPPED:
        return straight[half:] + straight[:half]
    return straight[:half][::-1] + straight[half:][::-1]


@dataclass
class _StageBuilder:
    """Accumulates the matches of one stage, numbering rounds and slots as it goes."""

    stage: Stage
    matches: list[Match]
    round_number: int = 0

    def play_round(
        self, pairs: Sequence[tuple[Source, Source]], reset_of: str | None = None
    ) -> list[str]:
        self.round_number += 1
        keys = []
        for slot, (a, b) in enumerate(pairs):
            key = match_key(self.stage, self.round_number, slot)
            self.matches.append(Match(key, self.stage, self.round_number, slot, a, b, reset_of))
            keys.append(key)
        return keys


def build_knockout(
    stage: Stage, first_round: Sequence[tuple[Source, Source]], matches: list[Match]
) -> list[list[str]]:
    """A plain knockout from round-1 pairs; appends to ``matches``, returns keys per round."""
    builder = _StageBuilder(stage, matches)
    rounds = [builder.play_round(first_round)]
    while len(rounds[-1]) > 1:
        previous = rounds[-1]
        rounds.append(
            builder.play_round(
                [
                    (WinnerOf(previous[i]), WinnerOf(previous[i + 1]))
                    for i in range(0, len(previous), 2)
                ]
            )
        )
    return rounds


def build_fed_bracket(
    stage: Stage,
    drop_ins: Sequence[Sequence[Source]],
    matches: list[Match],
    feed_orders: Sequence[FeedOrder] = DEFAULT_FEED_ORDERS,
) -> tuple[Source, list[list[str]]]:
    """A bracket whose field arrives in groups (the losers of chosen feeding rounds).

    Returns the source of its winner and the keys of its rounds. Appends to ``matches``.
    """
    if not drop_ins or not feed_orders:
        raise FormatError(
            "no_feed", N_("The %(value)s bracket has no feeding round.", value=stage.value)
        )
    builder = _StageBuilder(stage, matches)
    rounds: list[list[str]] = []
    survivors: list[Source] = []
    majors = 0
    for group in drop_ins:
        group = list(group)
        if not survivors:
            survivors = group
            continue
        while len(survivors) > len(group):
            keys = builder.play_round(
                [(survivors[i], survivors[i + 1]) for i in range(0, len(survivors), 2)]
            )
            rounds.append(keys)
            survivors = [WinnerOf(k) for k in keys]
        if len(survivors) < len(group):
            survivors = _spread_byes(survivors, len(group))
        permutation = feed_permutation(feed_orders[majors % len(feed_orders)], len(group))
        majors += 1
        keys = builder.play_round([(s, group[permutation[i]]) for i, s in enumerate(survivors)])
        rounds.append(keys)
        survivors = [WinnerOf(k) for k in keys]
    while len(survivors) > 1:
        if len(survivors) % 2:
            survivors.append(Bye())
        keys = builder.play_round(
            [(survivors[i], survivors[i + 1]) for i in range(0, len(survivors), 2)]
        )
        rounds.append(keys)
        survivors = [WinnerOf(k) for k in keys]
    return survivors[0], rounds


def _spread_byes(survivors: list[Source], size: int) -> list[Source]:
    """Pad ``survivors`` to ``size`` with byes placed evenly between them."""
    padded: list[Source] = [Bye()] * size
    for index, source in enumerate(survivors):
        padded[index * size // len(survivors)] = source
    return padded


def main_first_round(entries: int) -> list[tuple[Source, Source]]:
    """Round-1 pairs of a seeded bracket: seeds in standard order, byes to the top seeds."""
    return [(Seed(a), Seed(b) if b is not None else Bye()) for a, b in first_round_pairs(entries)]


def build_single_elimination(
    entries: int,
    *,
    consolation_from: Sequence[int] = (),
    last_chance_from: Sequence[int] = (),
    feed_orders: Sequence[FeedOrder] = DEFAULT_FEED_ORDERS,
    last_chance_drawn: Sequence[int] = (),
) -> BracketGraph:
    """The main bracket, optionally with a consolation and a last chance.

    ``consolation_from`` lists the main rounds whose losers enter the consolation:
    ``(1,)`` is Milwaukee's first-round consolation, ``(1, 2)`` the usual progressive
    consolation. ``last_chance_from`` lists the consolation rounds whose losers enter
    the last chance (it needs a consolation), counted as :func:`last_chance_rounds`
    says. ``feed_orders`` is the alternation of drop-in orders used by every fed
    bracket's major rounds, round after round.

    ``last_chance_drawn`` is for a bracket already drawn: the consolation rounds (as
    built, 1-based) that fed its last chance when it was drawn. Given, they are taken
    as they are, so the bracket keeps the wiring its stored slots were made from (a
    bracket drawn before the rule for unreachable rounds, or a late entry that fills a
    bye and so changes which rounds hold matches, would otherwise be rewired under it).
    """
    size = bracket_size(entries)
    matches: list[Match] = []
    main_rounds = build_knockout(Stage.MAIN, main_first_round(entries), matches)
    stage_winners: dict[Stage, Source] = {Stage.MAIN: WinnerOf(main_rounds[-1][0])}
    feeds: list[Feed] = []
    if consolation_from:
        feeding = _check_feeding(consolation_from, len(main_rounds), "consolation_from")
        winner, consolation_rounds = build_fed_bracket(
            Stage.CONSOLATION,
            [[LoserOf(k) for k in main_rounds[r - 1]] for r in feeding],
            matches,
            feed_orders,
        )
        stage_winners[Stage.CONSOLATION] = winner
        feeds.append(Feed(Stage.CONSOLATION, Stage.MAIN, tuple(feeding), tuple(feeding)))
        if last_chance_from:
            if last_chance_drawn:
                feeding = _check_feeding(
                    last_chance_drawn, len(consolation_rounds), "last_chance_from"
                )
            else:
                feeding = last_chance_rounds(
                    last_chance_from, consolation_rounds, playable_matches(matches, entries)
                )
            winner, _ = build_fed_bracket(
                Stage.LAST_CHANCE,
                [[LoserOf(k) for k in consolation_rounds[r - 1]] for r in feeding],
                matches,
                feed_orders,
            )
            stage_winners[Stage.LAST_CHANCE] = winner
            asked = tuple(sorted(set(last_chance_from)))
            feeds.append(Feed(Stage.LAST_CHANCE, Stage.CONSOLATION, asked, tuple(feeding)))
    elif last_chance_from:
        raise FormatError(
            "last_chance_without_consolation",
            N_("A last chance is fed by the consolation: add a consolation first."),
            "last_chance_from",
        )
    return BracketGraph(
        entries=entries,
        size=size,
        matches=tuple(matches),
        stage_winners=stage_winners,
        champion_stage=Stage.MAIN,
        feeds=tuple(feeds),
    )


def last_chance_rounds(
    asked: Sequence[int], consolation_rounds: Sequence[Sequence[str]], playable: dict[str, bool]
) -> list[int]:
    """The consolation rounds whose losers actually feed the last chance.

    The director counts consolation rounds as the players see them: round 1 is the first
    consolation round that can hold a match. With byes in the main draw the consolation
    may open with a round of walkovers only (24 entries: every first-round consolation
    slot pairs a loser with a bye's empty loser), whose losers are nobody; taking its
    losers literally would leave the last chance empty. So ``asked`` is counted over the
    rounds that can hold a match, and when those rounds would send fewer than two
    players (no match to play), the next such rounds are added until two can arrive.
    Returns real consolation round numbers (1-based), ascending.
    """
    real = [
        number
        for number, keys in enumerate(consolation_rounds, start=1)
        if any(playable[k] for k in keys)
    ]
    chosen = [real[r - 1] for r in _check_feeding(asked, len(real), "last_chance_from")]

    def arriving(rounds: Sequence[int]) -> int:
        return sum(playable[k] for r in rounds for k in consolation_rounds[r - 1])

    later = [r for r in real if r > chosen[-1]]
    while arriving(chosen) < 2 and later:
        chosen.append(later.pop(0))
    if arriving(chosen) < 2:
        raise FormatError(
            "last_chance_unreachable",
            N_(
                "Too few entries for a last chance: the consolation sends it fewer "
                "than two players."
            ),
            "last_chance_from",
        )
    return chosen


def _check_feeding(rounds: Sequence[int], available: int, field: str) -> list[int]:
    chosen = sorted(set(rounds))
    if not chosen or chosen[0] < 1 or chosen[-1] > available:
        raise FormatError(
            "bad_feeding_rounds",
            N_("Feeding rounds must be between 1 and %(available)s.", available=available),
            field,
        )
    return chosen
