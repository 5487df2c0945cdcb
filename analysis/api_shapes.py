"""The shapes of the analysis answers, for the OpenAPI schema (issue #30).

The answers are plain dicts built by the selectors (``selectors.as_dict``,
``selectors.earlier_as_dicts``); these serializers only *describe* them, so a generated
client gets typed models instead of free-form objects. ``tests/analysis/api/test_api_shapes.py``
holds each real answer to its description, closed to undeclared keys, so the two cannot
drift apart.
"""

from __future__ import annotations

from rest_framework import serializers


class DecisionSerializer(serializers.Serializer):
    """One decision of the analysis: what was played, what was best and what it cost."""

    game = serializers.IntegerField()
    index = serializers.IntegerField(help_text="The action's place in its game.")
    side = serializers.IntegerField(help_text="1 or 2.")
    kind = serializers.CharField()
    position_id = serializers.CharField(help_text="gnubg position ID, decider on roll.")
    match_id = serializers.CharField(help_text="gnubg match ID.")
    dice = serializers.CharField()
    score = serializers.ListField(child=serializers.IntegerField())
    played = serializers.CharField()
    best = serializers.CharField()
    played_equity = serializers.FloatField()
    best_equity = serializers.FloatField()
    loss = serializers.FloatField()
    mark = serializers.CharField()


class PlayerFiguresSerializer(serializers.Serializer):
    """A player's figures in the analysis, and their worst decisions."""

    side = serializers.IntegerField(help_text="1 or 2.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    pr = serializers.FloatField(help_text="XG's Performance Rating.")
    error_rate = serializers.FloatField(help_text="mEMG per decision (gnubg).")
    rating = serializers.CharField(help_text="gnubg's words for the error rate.")
    luck = serializers.FloatField()
    luck_rate = serializers.FloatField()
    luck_rating = serializers.CharField()
    moves = serializers.IntegerField()
    unforced_moves = serializers.IntegerField()
    cube_decisions = serializers.IntegerField()
    close_cube_decisions = serializers.IntegerField()
    checker_error = serializers.FloatField()
    cube_error = serializers.FloatField()
    total_error = serializers.FloatField()
    doubtful = serializers.IntegerField()
    errors = serializers.IntegerField()  # type: ignore[assignment]  # DRF's Serializer has errors
    blunders = serializers.IntegerField()
    worst = DecisionSerializer(many=True)


class MatchAnalysisSerializer(serializers.Serializer):
    """The match's analysis: how deep, by which engine, each player's figures."""

    match = serializers.IntegerField()
    plies = serializers.IntegerField()
    engine = serializers.CharField()
    analysed_at = serializers.DateTimeField()
    seconds = serializers.FloatField(help_text="How long the engine took.")
    decisions = serializers.IntegerField()
    players = PlayerFiguresSerializer(many=True)


class EarlierFiguresSerializer(serializers.Serializer):
    """A player's figures in an earlier analysis (those it stored)."""

    side = serializers.IntegerField(help_text="1 or 2.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    pr = serializers.FloatField(required=False)
    error_rate = serializers.FloatField(required=False)
    rating = serializers.CharField(required=False)
    luck_rate = serializers.FloatField(required=False)
    errors = serializers.IntegerField(required=False)  # type: ignore[assignment]  # DRF's Serializer has errors
    blunders = serializers.IntegerField(required=False)
    decisions = serializers.IntegerField(required=False)


class StoredDecisionSerializer(DecisionSerializer):
    """A replaced decision row as it was stored: the decision table's columns
    (``services._keep_superseded``: the score as two columns, and what the live answer
    leaves out). A row stored before a
    column was added lacks it, so none is required."""

    score = None  # type: ignore[assignment]  # stored as score1 and score2
    score1 = serializers.IntegerField()
    score2 = serializers.IntegerField()
    crawford = serializers.BooleanField()
    cube_value = serializers.IntegerField()
    cube_owner = serializers.IntegerField(allow_null=True, help_text="0, 1, or null (centred).")
    counted = serializers.BooleanField(help_text="Unforced, or a close or actual cube decision.")
    luck = serializers.FloatField(allow_null=True)
    no_double = serializers.FloatField(allow_null=True)
    double_take = serializers.FloatField(allow_null=True)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        for field in fields.values():
            field.required = False
        return fields


class EarlierAnalysisSerializer(serializers.Serializer):
    """An analysis a re-analysis replaced: when, how deep, each player's figures then."""

    id = serializers.IntegerField()
    plies = serializers.IntegerField()
    engine = serializers.CharField()
    analysed_at = serializers.DateTimeField()
    superseded_at = serializers.DateTimeField()
    decisions = serializers.IntegerField()
    players = EarlierFiguresSerializer(many=True)
    decision_rows = StoredDecisionSerializer(
        many=True, required=False, help_text="With ?decisions=true only."
    )


class AnalysisJobParamsSerializer(serializers.Serializer):
    """What an ``analysis.match`` job analyses, and how deep."""

    match_id = serializers.IntegerField()
    plies = serializers.IntegerField()


class AnalysedPlayerSerializer(serializers.Serializer):
    """One side's figures, as the job reports them (the full analysis is on the API)."""

    side = serializers.IntegerField()
    player_id = serializers.IntegerField()
    pr = serializers.FloatField()
    error_rate = serializers.FloatField()


class AnalysisJobResultSerializer(serializers.Serializer):
    """What ``analysis.jobs.analyse_match_job`` answers."""

    match_id = serializers.IntegerField()
    plies = serializers.IntegerField()
    decisions = serializers.IntegerField()
    players = AnalysedPlayerSerializer(many=True)
