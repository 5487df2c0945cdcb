"""Swiss: a fixed number of rounds, or "out after k losses" (``max_losses``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.errors import N_

from ..errors import FormatError
from ..registry import FormatKind, FormatSpec, OddsModel, register
from ..standings import SWISS_TIE_BREAKS
from ..swiss import SwissPairing, SwissPlayer, pair_swiss_round, swiss_is_finished


def _check(config: Mapping[str, Any]) -> None:
    if not config.get("swiss_rounds") and not config.get("max_losses"):
        raise FormatError(
            "swiss_needs_an_end",
            N_("A Swiss needs a number of rounds or a number of losses that puts players out."),
            "swiss_rounds",
        )


def _pair(players: Sequence[SwissPlayer[int]], config: Mapping[str, Any]) -> SwissPairing[int]:
    return pair_swiss_round(players, max_losses=config.get("max_losses"))


def _finished(played: int, players: Sequence[SwissPlayer[int]], config: Mapping[str, Any]) -> bool:
    return swiss_is_finished(
        played, players, rounds=config.get("swiss_rounds"), max_losses=config.get("max_losses")
    )


def _odds_unsupported(config: Mapping[str, Any]) -> str | None:
    if config.get("swiss_rounds") is None or config.get("max_losses") is not None:
        return "Odds are computed for a Swiss with a fixed number of rounds."
    return None


SWISS = register(
    FormatSpec(
        key="swiss",
        label="Swiss",
        kind=FormatKind.ROUNDS,
        position=30,
        stages=(("swiss", N_("Swiss")),),
        lengths_help="The last round counts from the end (the number of Swiss rounds).",
        options=("swiss_rounds", "max_losses", "tie_breaks", "bye_is_win"),
        tie_breaks=tuple(t.value for t in SWISS_TIE_BREAKS),
        example={"swiss_rounds": 4},
        check=_check,
        rounds="swiss",
        pair=_pair,
        finished=_finished,
        odds=OddsModel.SWISS,
        odds_unsupported=_odds_unsupported,
        preview={"swiss_rounds": None},
        preview_rounds=lambda options: options.get("swiss_rounds") or 0,
    )
)
