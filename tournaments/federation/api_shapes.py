"""The shape of an export's summary (``GET .../federation/{export}/``), for the schema.

``services.build_export`` writes the summary as a plain dict, one layout per export
(each export's ``build`` in ``federation.catalog``); these serializers only *describe*
it, so a generated client gets a typed model instead of a free-form object (issue #30).
One model holds every export's keys, each saying which export fills it: the export is
the answer's ``export``, and a generator cannot pick a ``oneOf`` branch by a sibling
key. ``tests/tournaments/federation/test_finished_event.py`` holds each export's real answer to it,
closed to undeclared keys.
"""

from __future__ import annotations

from rest_framework import serializers

from .rules import abt, matches

#: Why a match is left out of an export (``FederationExclusionEnum``).
REASONS = [
    matches.NOT_FINISHED,
    matches.FORFEIT,
    matches.UNRATED,
    matches.UNLIMITED,
    matches.NO_TRANSCRIPT,
    matches.TOO_SHORT,
]

#: The ABT's skill divisions (``AbtDivisionEnum``).
DIVISIONS = list(abt.DIVISIONS)


class FederationCheckSerializer(serializers.Serializer):
    """One WBGF condition: the rule, what the event has, whether it holds."""

    code = serializers.CharField()
    rule = serializers.CharField()
    found = serializers.CharField()
    passed = serializers.BooleanField()


class FederationPlacedSerializer(serializers.Serializer):
    """A placed player: their place and its label ("3-4" for a shared third)."""

    place = serializers.IntegerField()
    place_label = serializers.CharField()
    player = serializers.CharField()


class FederationAwardSerializer(FederationPlacedSerializer):
    points = serializers.CharField(help_text='A decimal number, as a string ("12.5").')


class FederationMatchSerializer(serializers.Serializer):
    """A match of the event, as every match list of a summary names it."""

    match_id = serializers.IntegerField()
    round = serializers.CharField()
    player1 = serializers.CharField()
    player2 = serializers.CharField()


class FederationExcludedSerializer(FederationMatchSerializer):
    reason = serializers.ChoiceField(choices=REASONS)


class FederationRatedMatchSerializer(FederationMatchSerializer):
    length = serializers.IntegerField()
    score = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    winner = serializers.CharField()
    clocked = serializers.BooleanField()


class FederationFileSerializer(FederationMatchSerializer):
    file = serializers.CharField(help_text="The .mat file's name in the zip.")
    length = serializers.IntegerField()
    clocked = serializers.BooleanField()


class FederationSummarySerializer(serializers.Serializer):
    """What the file holds; each key is filled by the exports it names."""

    qualifies = serializers.BooleanField(
        required=False, help_text="wbgf: the event meets every condition."
    )
    checks = FederationCheckSerializer(many=True, required=False, help_text="wbgf.")
    entrants = FederationPlacedSerializer(many=True, required=False, help_text="wbgf: by place.")
    division = serializers.ChoiceField(
        choices=DIVISIONS, required=False, help_text="abt: the event's skill division."
    )
    division_factor = serializers.CharField(required=False, help_text="abt: a decimal number.")
    attendance = serializers.IntegerField(required=False, help_text="abt: players who took part.")
    total_points = serializers.CharField(required=False, help_text="abt: a decimal number.")
    places_awarded = serializers.IntegerField(
        required=False, help_text="abt: how many places earn points."
    )
    awards = FederationAwardSerializer(many=True, required=False, help_text="abt.")
    matches = FederationRatedMatchSerializer(
        many=True, required=False, help_text="ukbgf: the rated ones."
    )
    files = FederationFileSerializer(many=True, required=False, help_text="bmab, wbif.")
    excluded = FederationExcludedSerializer(
        many=True, required=False, help_text="ukbgf, bmab, wbif: the matches left out, and why."
    )
