"""The shapes of the games app's jobs' ``params`` and ``result``, for the schema.

Each kind's declaration (``games.job_catalog``, registered by ``games/wiring.py``)
names them: a recomputation's report and a large
transcript upload's outcome reach a generated client as typed objects. They describe
what the starters put in ``params`` (the packed files stay hidden) and what
``games.rating_jobs`` and ``games.transcript_jobs`` return;
``tests/games/api/test_job_shapes.py`` holds real jobs to them.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class RecomputeReportSerializer(serializers.Serializer[Any]):
    """One list replayed (``games.services.ratings.recompute.RecomputeReport``)."""

    list = serializers.IntegerField(help_text="The rating list's id.")
    label = serializers.CharField()  # type: ignore[assignment]  # DRF's Field has a label
    from_scratch = serializers.BooleanField(help_text="False: replayed from a changed match.")
    matches = serializers.IntegerField()
    players = serializers.IntegerField()
    drifted_players = serializers.IntegerField(
        help_text="Players whose stored rating differed from the replay (from scratch only)."
    )
    max_drift = serializers.FloatField()


class RecomputeFromParamsSerializer(serializers.Serializer[Any]):
    match_id = serializers.IntegerField(help_text="The match whose result changed.")


class RecomputeFromResultSerializer(serializers.Serializer[Any]):
    lists = RecomputeReportSerializer(many=True, help_text="Each list of the match, replayed.")


class RecomputeListParamsSerializer(serializers.Serializer[Any]):
    list = serializers.IntegerField(help_text="The rating list's id.")


class RecomputeAllResultSerializer(serializers.Serializer[Any]):
    lists = RecomputeReportSerializer(many=True)
    drifted_lists = serializers.IntegerField()
    max_drift = serializers.FloatField()


class TranscriptImportParamsSerializer(serializers.Serializer[Any]):
    """The upload's options and its files' names (the files themselves stay private)."""

    check = serializers.BooleanField()
    lenient = serializers.BooleanField()
    money = serializers.BooleanField(allow_null=True)
    names = serializers.ListField(child=serializers.CharField())
