"""Double elimination: winners' and losers' brackets, a grand final and its reset."""

from __future__ import annotations

from core.errors import N_

from ..bracket_graph import BracketGraph
from ..double_elimination import build_double_elimination
from ..registry import FormatKind, FormatSpec, GraphOptions, OddsModel, register
from ..standings import TieBreak
from ._common import FROM_THE_END, feed_orders


def _graph(entries: int, options: GraphOptions) -> BracketGraph:
    return build_double_elimination(
        entries, reset=options.reset, feed_orders=feed_orders(options.feed_orders)
    )


DOUBLE_ELIMINATION = register(
    FormatSpec(
        key="double_elimination",
        label="Double elimination",
        kind=FormatKind.BRACKET,
        position=20,
        stages=(
            ("winners", N_("Winners' bracket")),
            ("losers", N_("Losers' bracket")),
            ("grand_final", N_("Grand final")),
        ),
        lengths_help=FROM_THE_END + " The deciding match is played only after a grand-final reset.",
        options=("grand_final_reset", "feed_orders"),
        tie_breaks=(TieBreak.MATCH_WINS.value, TieBreak.POINTS_DIFFERENCE.value),
        example={"grand_final_reset": True},
        graph=_graph,
        odds=OddsModel.BRACKET,
        preview={"feed_orders": [], "grand_final_reset": True},
    )
)
