"""The clock policy per round set when the event is created (docs/clocks.md, "Per round").

Rounds do not exist before the draw, so the create page says it as a plan: a list of
``{"stage": "main", "from": -3, "policy": "required"}``, each giving ``policy`` to the
round ``from`` of ``stage`` and every round after it (a negative ``from`` counts from
the stage's end, as match lengths do: −3 the quarter-finals, −1 the final). Later
items win. Each round takes its policy from the plan when it is created; a director may
still change a round's policy on the dashboard.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.errors import N_

from .errors import FormatError

POLICIES = ("required", "allowed", "none")
MAX_ITEMS = 8


def check_clock_plan(plan: object, stages: Sequence[str]) -> list[dict[str, Any]]:
    """The plan, checked (each item a known stage, a round other than 0, a policy)."""
    if not isinstance(plan, list) or len(plan) > MAX_ITEMS:
        raise FormatError(
            "clock_rounds_invalid",
            N_("The clock plan is a list of at most %(max)s items.", max=MAX_ITEMS),
            "clock_rounds",
        )
    checked = []
    for item in plan:
        if not isinstance(item, Mapping) or set(item) != {"stage", "from", "policy"}:
            raise FormatError(
                "clock_rounds_invalid",
                N_("Each item of the clock plan has a stage, a 'from' round and a policy."),
                "clock_rounds",
            )
        if item["stage"] not in stages:
            raise FormatError(
                "clock_rounds_stage",
                N_("The stage is one of %(join)s.", join=", ".join(stages)),
                "clock_rounds",
            )
        start = item["from"]
        if isinstance(start, bool) or not isinstance(start, int) or start == 0:
            raise FormatError(
                "clock_rounds_round",
                N_("A round is 1, 2, ... or counts from the end: -1 the final, -3 the quarters."),
                "clock_rounds",
            )
        if item["policy"] not in POLICIES:
            raise FormatError(
                "clock_rounds_policy",
                N_("The policy is one of %(join)s.", join=", ".join(POLICIES)),
                "clock_rounds",
            )
        checked.append({"stage": item["stage"], "from": start, "policy": item["policy"]})
    return checked


def round_clock_policy(
    plan: Sequence[Mapping[str, Any]], stage: str, number: int, rounds_in_stage: int | None
) -> str:
    """The policy the plan gives round ``number`` of ``stage`` ('' for the event's).
    ``rounds_in_stage`` is None for an open-ended stage: a round counted from the end
    then never applies."""
    policy = ""
    for item in plan:
        if item["stage"] != stage:
            continue
        start = item["from"]
        if start < 0:
            if rounds_in_stage is None:
                continue
            start = rounds_in_stage + 1 + start
        if number >= start:
            policy = item["policy"]
    return policy
