"""Double elimination: winners' bracket, losers' bracket, grand final and its reset.

``docs/rules.md``, "Tournaments" (double elimination with a grand final and an optional reset;
drop maps that alternate the feeding order to avoid rematches) and
``docs/club-formats.md`` (Milwaukee turns a 6-player
event into double elimination; Bangkok's "Siam style" W1/W2/L1/L2 schedules).

The losers' bracket is the standard one: losers of winners' round 1 play each other
("minor" round), then the losers of each later winners' round drop in against the
survivors ("major" round), each drop-in round in a different order (reversed, halves
swapped, ...), with a minor round between two major rounds. The losers' champion meets
the winners' champion in the grand final; with ``reset=True`` a second final is played
only when the losers' champion wins the first, so nobody is out before two losses.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bracket_graph import BracketGraph, LoserOf, Match, Source, Stage, WinnerOf, match_key
from .elimination import (
    DEFAULT_FEED_ORDERS,
    FeedOrder,
    build_fed_bracket,
    build_knockout,
    main_first_round,
)
from .seeding import bracket_size


def build_double_elimination(
    entries: int,
    *,
    reset: bool = True,
    feed_orders: Sequence[FeedOrder] = DEFAULT_FEED_ORDERS,
) -> BracketGraph:
    """Winners' and losers' brackets for ``entries`` seeds, and the grand final.

    The grand final's side A is the winners' champion and side B the losers' champion;
    the reset (``grand_final-r2-m1``) has ``reset_of`` set to the first final.
    """
    size = bracket_size(entries)
    matches: list[Match] = []
    winners_rounds = build_knockout(Stage.WINNERS, main_first_round(entries), matches)
    losers_winner, _ = build_fed_bracket(
        Stage.LOSERS,
        [[LoserOf(k) for k in keys] for keys in winners_rounds],
        matches,
        feed_orders,
    )
    winners_winner = WinnerOf(winners_rounds[-1][0])
    first_final = match_key(Stage.GRAND_FINAL, 1, 0)
    matches.append(Match(first_final, Stage.GRAND_FINAL, 1, 0, winners_winner, losers_winner))
    champion: Source = WinnerOf(first_final)
    if reset:
        second_final = match_key(Stage.GRAND_FINAL, 2, 0)
        matches.append(
            Match(
                second_final,
                Stage.GRAND_FINAL,
                2,
                0,
                WinnerOf(first_final),
                LoserOf(first_final),
                reset_of=first_final,
            )
        )
        champion = WinnerOf(second_final)
    return BracketGraph(
        entries=entries,
        size=size,
        matches=tuple(matches),
        stage_winners={
            Stage.WINNERS: winners_winner,
            Stage.LOSERS: losers_winner,
            Stage.GRAND_FINAL: champion,
        },
        champion_stage=Stage.GRAND_FINAL,
    )
