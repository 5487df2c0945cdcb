"""Match lengths per stage and round (``docs/rules.md``, "Match lengths").

A schedule is ``{"default": 5, "rounds": {"main": {"1": 5, "-2": 7, "-1": 11}}}``: a
round number counts from the stage's first round, a negative one from its last (−1 is
the final, −2 the semi-finals), so one schedule fits any field size. Clubs play 5
points early, 7 in the semi-finals and 11 in the final
(``docs/club-formats.md``: Bangkok's 5- and 7-point
round robins, Portland's 5- and 3-point brackets).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import N_

from .errors import FormatError

MAX_LENGTH = 99


def check_schedule(schedule: Mapping[str, Any]) -> dict[str, Any]:
    """The schedule, checked: positive lengths, integer round keys, known layout."""
    unknown = set(schedule) - {"default", "rounds"}
    if unknown:
        raise FormatError(
            "match_lengths_unknown_key",
            N_(
                "Match lengths take 'default' and 'rounds', not %(join)s.",
                join=", ".join(sorted(unknown)),
            ),
            "match_lengths",
        )
    default = schedule.get("default", 5)
    _check_length(default, "match_lengths.default")
    rounds = schedule.get("rounds", {})
    if not isinstance(rounds, Mapping):
        raise FormatError(
            "match_lengths_rounds", N_("'rounds' maps stages to rounds."), "match_lengths"
        )
    for stage, per_round in rounds.items():
        if not isinstance(per_round, Mapping):
            raise FormatError(
                "match_lengths_rounds",
                N_("'%(stage)s' maps rounds to lengths.", stage=stage),
                "match_lengths",
            )
        for number, length in per_round.items():
            try:
                int(number)
            except (TypeError, ValueError):
                raise FormatError(
                    "match_lengths_round",
                    N_(
                        "Round '%(number)s' of '%(stage)s' is not a number (use -1 for the final).",
                        number=number,
                        stage=stage,
                    ),
                    "match_lengths",
                ) from None
            _check_length(length, f"match_lengths.rounds.{stage}.{number}")
    return {"default": default, "rounds": {s: dict(r) for s, r in rounds.items()}}


def _check_length(length: object, field: str) -> None:
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
        raise FormatError(
            "match_length_invalid",
            N_(
                "A tournament match is played to 1 to %(MAX_LENGTH)s points.", MAX_LENGTH=MAX_LENGTH
            ),
            field,
        )


def match_length(
    schedule: Mapping[str, Any], stage: str, round_number: int, rounds_in_stage: int | None
) -> int:
    """The length of ``round_number`` of ``stage``: its own entry, else from the end, else
    the default. ``rounds_in_stage`` is None for open-ended stages (Swiss)."""
    per_round = schedule.get("rounds", {}).get(stage, {})
    if str(round_number) in per_round:
        return int(per_round[str(round_number)])
    if rounds_in_stage is not None:
        from_end = round_number - rounds_in_stage - 1
        if str(from_end) in per_round:
            return int(per_round[str(from_end)])
    return int(schedule.get("default", 5))
