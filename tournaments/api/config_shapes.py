"""The shapes of an event's JSON options (the ``Tournament`` model's JSON columns).

A JSON column is "anything" to drf-spectacular, and a client generated from the schema
got a free-form dict for each (issue #30). The services decide what the columns hold
(``services.events.check_config`` normalises every configuration before it is written:
``formats.schedule.check_schedule``, ``formats.clock_plan.check_clock_plan``,
``formats.places.parse_prize_order``), so the shapes are known, and described here once
for the event read (``TournamentSerializer``) and for the create and change bodies
(``ConfigSerializer``).

The two object-valued options are described, not parsed: their fields keep the
validation they had (a dict, a list of dicts) and the service still refuses a bad one
with its own error code (``match_lengths_unknown_key``, ``clock_rounds_stage``...), so
the API accepts and answers exactly what it did. ``tests/tournaments/api/test_read_shapes.py``
holds real answers to these shapes, closed to undeclared keys.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from games.rules import limits
from tournaments.formats.clock_plan import MAX_ITEMS, POLICIES
from tournaments.formats.elimination import FeedOrder
from tournaments.formats.places import BLOCKS
from tournaments.formats.schedule import MAX_LENGTH
from tournaments.formats.standings import TieBreak
from tournaments.models import StageKind

PRIZE_STEP = rf"^({'|'.join(BLOCKS)})(:[0-9]*)?$"


class MatchLengthsSerializer(serializers.Serializer):
    """The schedule: ``{"default": 5, "rounds": {"main": {"1": 5, "-2": 7, "-1": 11}}}``."""

    default = serializers.IntegerField(
        min_value=1,
        max_value=MAX_LENGTH,
        required=False,
        help_text="The length of a round the schedule does not name.",
    )
    rounds = serializers.DictField(
        child=serializers.DictField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_LENGTH)
        ),
        required=False,
        help_text="Per stage (main, consolation, swiss...), per round: the round's number as "
        'a string, counted from the stage\'s first round, or from its last when negative ("-1" '
        'the final, "-2" the semi-finals), to its length.',
    )


CLOCK_ROUND = inline_serializer(
    "ClockRound",
    {
        "stage": serializers.ChoiceField(choices=StageKind.choices),
        "from": serializers.IntegerField(
            help_text="The first round it applies to: 1, 2, ... or from the stage's end "
            "(-1 the final, -3 the quarter-finals); never 0."
        ),
        "policy": serializers.ChoiceField(choices=[(p, p) for p in POLICIES]),
    },
)


@extend_schema_field({"type": "string", "pattern": PRIZE_STEP, "maxLength": 32})
class PrizeStepField(serializers.CharField):
    """A prize step, ``main`` or ``consolation:2``: a string, as it was; the service
    reads it (``formats.places.parse_prize_order``: 1 to 4096 places)."""


@extend_schema_field(MatchLengthsSerializer)
class MatchLengthsField(serializers.DictField):
    """``match_lengths``: a dict, as it was; the service checks its layout."""


@extend_schema_field(serializers.ListField(child=CLOCK_ROUND, max_length=MAX_ITEMS))
class ClockRoundsField(serializers.ListField):
    """``clock_rounds``: a list of dicts, as it was; the service checks each item."""


def feeding_rounds(**kwargs: Any) -> serializers.ListField:
    """``consolation_from`` and ``last_chance_from``: the main rounds whose losers drop in."""
    child = serializers.IntegerField(min_value=1, max_value=limits.MAX_INT16)
    return serializers.ListField(child=child, max_length=64, **kwargs)


def feed_orders(**kwargs: Any) -> serializers.ListField:
    """How each round of drop-ins meets the survivors, round by round."""
    return serializers.ListField(
        child=serializers.ChoiceField(choices=[o.value for o in FeedOrder]), **kwargs
    )


def tie_breaks(**kwargs: Any) -> serializers.ListField:
    """The standings' order after match wins, first tie-break first."""
    return serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in TieBreak]), **kwargs
    )


def prize_order(**kwargs: Any) -> serializers.ListField:
    """Elimination: the order places rank and prizes go in, as steps."""
    return serializers.ListField(
        child=PrizeStepField(max_length=32),
        max_length=16,
        help_text='Elimination: the order places rank and prizes go, e.g. ["main", '
        '"consolation:2", "last_chance:2"] (the default); places not named follow.',
        **kwargs,
    )


def match_lengths(**kwargs: Any) -> MatchLengthsField:
    return MatchLengthsField(
        help_text='The match lengths per stage and round (docs/rules.md, "Match lengths"); '
        "a round not named is played to the default (5 when none is given).",
        **kwargs,
    )


def clock_rounds(**kwargs: Any) -> ClockRoundsField:
    return ClockRoundsField(
        child=serializers.DictField(),
        max_length=MAX_ITEMS,
        help_text='The clock policy per round before the draw: [{"stage": "main", "from": -3, '
        '"policy": "required"}] gives the quarter-finals on their policy (docs/clocks.md).',
        **kwargs,
    )
