"""The shape of a transcripts import's answer, for the OpenAPI schema (issue #30).

A small upload is imported at once and answered with every file's replay report (the
``import_mat --json`` shape, ``ImportOutcome.as_dict``) and the counts by outcome; a big
one is a job. These serializers only *describe* the report, so a generated client gets
typed models; ``tests/games/api/test_answer_shapes.py`` holds a real answer to it,
closed to undeclared keys, so the two cannot drift apart.
"""

from __future__ import annotations

from rest_framework import serializers


class ReplayIssueSerializer(serializers.Serializer):
    """One disagreement between a transcript and the rules (an error or a warning)."""

    file = serializers.CharField()
    game = serializers.IntegerField(allow_null=True)
    move = serializers.IntegerField(allow_null=True, help_text="The action's index in its game.")
    line = serializers.IntegerField(help_text="The file's line; 0: none.")
    code = serializers.CharField()
    message = serializers.CharField()


class ReplayedGameSerializer(serializers.Serializer):
    """What a game was worth once replayed."""

    number = serializers.IntegerField()
    score_before = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True, help_text="1 or 2; null: no winner.")
    points = serializers.IntegerField()
    cube = serializers.IntegerField()
    level = serializers.CharField(allow_null=True)
    ending = serializers.CharField(allow_null=True)
    crawford = serializers.BooleanField()


class ImportedFileSerializer(serializers.Serializer):
    """One file's replay report and what became of it."""

    file = serializers.CharField()
    length = serializers.IntegerField(help_text="0: a money session.")
    players = serializers.ListField(child=serializers.CharField())
    games = ReplayedGameSerializer(many=True)
    final_score = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True, help_text="1 or 2.")
    moves_checked = serializers.IntegerField()
    errors = ReplayIssueSerializer(many=True)  # type: ignore[assignment]  # DRF's Serializer has errors
    status = serializers.CharField(help_text="imported, checked, duplicate or refused.")
    match = serializers.IntegerField(allow_null=True)
    warnings = ReplayIssueSerializer(many=True)


class TranscriptsImportedSerializer(serializers.Serializer):
    """Every file's outcome, and how many files had each."""

    counts = serializers.DictField(child=serializers.IntegerField(), help_text="By status.")
    files = ImportedFileSerializer(many=True)
