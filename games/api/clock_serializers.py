"""What the clock API answers: the clock (reserves, whose time runs, sides 1 and 2)
and the match's clock policy; the match detail carries the same clock."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.clock_policies import MatchClockPolicy
from games.models import MatchClock
from games.rules import clock as rules
from games.services import clocks as clock_services


def _side_out(side: int | None) -> int | None:
    return None if side is None else side + 1


def clock_payload(clock: MatchClock) -> dict[str, Any]:
    """The clock as the API and the page's script read it, with the server's figures of
    this moment (the page shows them and only counts its own time down from them)."""
    elapsed, delay_left, remaining = clock_services.reading(clock)
    return {
        "preset": clock.preset,
        "delay_ms": clock.delay_ms,
        "initial_reserve_ms": clock.initial_reserve_ms,
        "flag_rule": clock.flag_rule,
        "overtime_ms": clock.overtime_ms,
        "scored_at_start": clock.scored_at_start,
        "reserve_ms": [clock.reserve1_ms, clock.reserve2_ms],
        "status": clock.status,
        "running": _side_out(clock.running),
        "flagged": _side_out(clock.flagged),
        "overtime_used": [clock.overtime1_used, clock.overtime2_used],
        "turns": clock.turns,
        "last_seq": clock.last_seq,
        "version": clock.version,
        "started_at": clock.started_at.isoformat(),
        # the server's reckoning of the running turn when this answer was made
        "elapsed_ms": elapsed,
        "delay_left_ms": delay_left,
        "remaining_ms": list(remaining),
    }


def policy_payload(policy: MatchClockPolicy) -> dict[str, Any]:
    return {
        "policy": policy.policy,
        "preset": policy.preset.value,
        "flag_rule": policy.flag_rule.value,
        "overtime_ms": policy.overtime_ms,
        "event": policy.event,
    }


class ClockSerializer(serializers.Serializer):
    preset = serializers.ChoiceField(choices=[(p.value, p.name) for p in rules.Preset])
    delay_ms = serializers.IntegerField()
    initial_reserve_ms = serializers.IntegerField()
    flag_rule = serializers.ChoiceField(choices=[(r.value, r.name) for r in rules.FlagRule])
    overtime_ms = serializers.IntegerField()
    scored_at_start = serializers.IntegerField(help_text="Points scored when the clock came in.")
    reserve_ms = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    status = serializers.ChoiceField(choices=[(s.value, s.name) for s in rules.ClockStatus])
    running = serializers.IntegerField(allow_null=True, help_text="1 or 2: whose time runs.")
    flagged = serializers.IntegerField(allow_null=True, help_text="1 or 2: whose flag fell.")
    overtime_used = serializers.ListField(child=serializers.BooleanField())
    turns = serializers.IntegerField()
    last_seq = serializers.IntegerField()
    version = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    elapsed_ms = serializers.IntegerField(
        help_text="The running turn's time so far by the server's clock (its truth)."
    )
    delay_left_ms = serializers.IntegerField(
        help_text="The running turn's delay left by the server's clock (else the delay)."
    )
    remaining_ms = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        help_text="Each side's reserve left by the server's clock at this answer: "
        "the running side's less what its turn has taken so far.",
    )


class ClockPolicySerializer(serializers.Serializer):
    policy = serializers.ChoiceField(choices=["required", "allowed", "none"])
    preset = serializers.CharField()
    flag_rule = serializers.CharField()
    overtime_ms = serializers.IntegerField()
    event = serializers.CharField(allow_blank=True)


class ClockResourceSerializer(serializers.Serializer):
    policy = ClockPolicySerializer()
    clock = ClockSerializer(allow_null=True)
