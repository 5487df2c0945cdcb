"""Round robin: Berger tables in snake-seeded groups, optionally a playoff after them."""

from __future__ import annotations

from core.errors import N_

from ..bracket_graph import BracketGraph
from ..registry import FormatKind, FormatSpec, GraphOptions, register
from ..round_robin import build_playoff
from ..standings import ROUND_ROBIN_TIE_BREAKS
from ._common import FROM_THE_END


def _playoff(entries: int, options: GraphOptions) -> BracketGraph:
    return build_playoff(entries)


ROUND_ROBIN = register(
    FormatSpec(
        key="round_robin",
        label="Round robin",
        kind=FormatKind.ROUNDS,
        position=40,
        stages=(("round_robin", N_("Group rounds")), ("playoff", N_("Playoff"))),
        lengths_help="The last round counts from the end of each group; " + FROM_THE_END.lower(),
        options=("groups", "playoff_qualifiers", "tie_breaks", "bye_is_win"),
        option_defaults={"groups": 1, "playoff_qualifiers": 0},
        tie_breaks=tuple(t.value for t in ROUND_ROBIN_TIE_BREAKS),
        example={"groups": 2, "playoff_qualifiers": 2},
        graph=_playoff,
        rounds="round_robin",
        group_count=lambda entries, options: options["groups"],
        late_entries=False,
    )
)
