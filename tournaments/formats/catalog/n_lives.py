"""N lives Swiss: out after N losses, the last life cashes but cannot win, a playoff.

The ABT's modified Swiss (``tournaments.formats.n_lives``, ``docs/rules.md``): Swiss
rounds among the players with lives left, byes as wins, until at most
``playoff_qualifiers`` contenders (fewer than N−1 losses) are left; they play a
single-elimination playoff for the title.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.errors import N_

from ..n_lives import check_n_lives, n_lives_is_finished, playoff_field, simulate_n_lives
from ..registry import FormatKind, FormatSpec, OddsModel, register
from ..standings import SWISS_TIE_BREAKS
from ..swiss import SwissPairing, SwissPlayer, pair_swiss_round
from .round_robin import ROUND_ROBIN


def _pair(players: Sequence[SwissPlayer[int]], config: Mapping[str, Any]) -> SwissPairing[int]:
    return pair_swiss_round(players, max_losses=config["max_losses"])


def _finished(played: int, players: Sequence[SwissPlayer[int]], config: Mapping[str, Any]) -> bool:
    return n_lives_is_finished(
        played, players, lives=config["max_losses"], playoff=config["playoff_qualifiers"]
    )


def _field(players: Sequence[SwissPlayer[int]], config: Mapping[str, Any]) -> list[int]:
    return playoff_field(players, lives=config["max_losses"], playoff=config["playoff_qualifiers"])


N_LIVES = register(
    FormatSpec(
        key="n_lives",
        label="N lives Swiss",
        kind=FormatKind.ROUNDS,
        position=35,
        stages=(("swiss", N_("Swiss")), ("playoff", N_("Playoff"))),
        lengths_help="The playoff's final and semi-finals count from its end.",
        options=("max_losses", "playoff_qualifiers", "tie_breaks", "bye_is_win"),
        option_defaults={"max_losses": 3, "playoff_qualifiers": 4, "bye_is_win": True},
        tie_breaks=tuple(t.value for t in SWISS_TIE_BREAKS),
        example={"max_losses": 3, "playoff_qualifiers": 4},
        check=check_n_lives,
        graph=ROUND_ROBIN.graph,  # the same single-elimination playoff
        rounds="swiss",
        pair=_pair,
        finished=_finished,
        playoff_field=_field,
        odds=OddsModel.RECORDS,
        simulate=simulate_n_lives,
    )
)
