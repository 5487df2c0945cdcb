"""The shape of an audit trail entry, for the OpenAPI schema of both audit endpoints
(``GET /api/v1/matches/{id}/audit/`` and ``GET /api/v1/chouette/sessions/{id}/audit/``).

The entries are built by ``games.audit`` and ``chouette.audit``; this serializer only
documents them, so a client generator knows that every entry has a ``summary``.
"""

from __future__ import annotations

from rest_framework import serializers


class FieldChangeSerializer(serializers.Serializer):
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)


class AuditEntrySerializer(serializers.Serializer):
    at = serializers.DateTimeField(help_text="When the change was written (ISO 8601).")
    who = serializers.CharField(allow_null=True, help_text="The account that wrote it, if any.")
    what = serializers.ChoiceField(choices=["created", "changed", "deleted"])
    subject = serializers.CharField(help_text='"match", "game 3", "session", "seat: Ann", ...')
    changes = serializers.DictField(
        child=FieldChangeSerializer(), help_text="Each changed field: before and after."
    )
    reason = serializers.CharField(
        required=False, allow_null=True, help_text="Why (a match's reopening says so)."
    )
    summary = serializers.CharField(
        help_text='The change in words: "Ann entered game 3: Ann won a gammon on a 2-cube '
        '(4 points)".'
    )
