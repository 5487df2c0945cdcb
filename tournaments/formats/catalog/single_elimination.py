"""Single elimination, optionally with a progressive consolation and a last chance."""

from __future__ import annotations

from core.errors import N_

from ..elimination import build_single_elimination
from ..registry import FormatKind, FormatSpec, GraphOptions, OddsModel, register
from ..standings import TieBreak
from ._common import FROM_THE_END, feed_orders


def _graph(entries: int, options: GraphOptions):  # type: ignore[no-untyped-def]
    return build_single_elimination(
        entries,
        consolation_from=options.consolation_from,
        last_chance_from=options.last_chance_from,
        feed_orders=feed_orders(options.feed_orders),
        last_chance_drawn=options.last_chance_drawn,
    )


SINGLE_ELIMINATION = register(
    FormatSpec(
        key="single_elimination",
        label="Single elimination",
        kind=FormatKind.BRACKET,
        position=10,
        stages=(
            ("main", N_("Main draw")),
            ("consolation", N_("Consolation")),
            ("last_chance", N_("Last chance")),
        ),
        lengths_help=FROM_THE_END,
        options=(
            "consolation_from",
            "last_chance_from",
            "feed_orders",
            "prize_order",
            "forfeit_feeds_consolation",
        ),
        tie_breaks=(TieBreak.MATCH_WINS.value, TieBreak.POINTS_DIFFERENCE.value),
        example={"consolation_from": [1, 2], "last_chance_from": [1]},
        graph=_graph,
        odds=OddsModel.BRACKET,
        preview={"feed_orders": [], "consolation_from": [], "last_chance_from": []},
        drop_map=True,
    )
)
