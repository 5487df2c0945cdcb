"""Input of the match table write (``POST /api/v1/matches/{id}/table/``)."""

from __future__ import annotations

from rest_framework import serializers

from games.rules import limits


class TableSerializer(serializers.Serializer):
    table = serializers.IntegerField(
        min_value=1,
        max_value=limits.MAX_TABLE,
        allow_null=True,
        help_text="The table number (1 to 999); null clears it.",
    )
