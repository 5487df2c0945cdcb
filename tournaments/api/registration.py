"""Serializers of the registration endpoints: bulk entry, walk-ins (see
``tournaments.services.registration``)."""

from __future__ import annotations

from rest_framework import serializers

from games.api.clubs import AddressLinkSerializer
from games.api.clubs import WalkInInputSerializer as WalkInSerializer
from games.rules import limits

from .serializers import EntrySerializer

__all__ = [
    "BulkEntryInputSerializer",
    "BulkResultSerializer",
    "WalkInEntrySerializer",
    "WalkInSerializer",
]


class WalkInEntrySerializer(EntrySerializer):
    """The walk-in's entry, with what became of their address's link."""

    address_link = AddressLinkSerializer(read_only=True)

    class Meta(EntrySerializer.Meta):
        fields = [*EntrySerializer.Meta.fields, "address_link"]


class BulkEntryInputSerializer(serializers.Serializer):
    names = serializers.ListField(
        child=serializers.CharField(allow_blank=True, trim_whitespace=False, max_length=1000),
        required=False,
        default=list,
        max_length=limits.MAX_BULK_NAMES,
        help_text="Names, one per player: matched on the club's roster ignoring case and "
        "accents; unknown names become new players; blank names are skipped.",
    )
    player_ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=limits.MAX_ID),
        required=False,
        default=list,
        max_length=limits.MAX_BULK_NAMES,
        help_text="Players picked by id (a roster tick, or the pick for an ambiguous name).",
    )
    dry_run = serializers.BooleanField(
        default=False, help_text="Only preview: say what each line would do, write nothing."
    )

    def validate(self, attrs: dict) -> dict:
        if not attrs["names"] and not attrs["player_ids"]:
            raise serializers.ValidationError(
                {"names": "Give at least one name or player id."}, code="required"
            )
        return attrs


class BulkCandidateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()


class BulkLineSerializer(serializers.Serializer):
    # a field named like DRF's Field.source attribute, which the stubs type as a string
    source = serializers.CharField(  # type: ignore[assignment]
        help_text='The input the line came from: "names" or "player_ids".'
    )
    index = serializers.IntegerField()
    name = serializers.CharField()
    action = serializers.ChoiceField(
        choices=[
            "register",
            "create",
            "already_entered",
            "duplicate",
            "ambiguous",
            "invalid",
            "not_member",
        ],
        help_text="not_member: a ticked player of another club, refused (they join the "
        "club themself first: docs/api.md, Tenancy).",
    )
    player = serializers.IntegerField(allow_null=True)
    player_name = serializers.CharField(help_text="The matched member's name ('' if new).")
    candidates = BulkCandidateSerializer(many=True)
    message = serializers.CharField()


class BulkResultSerializer(serializers.Serializer):
    dry_run = serializers.BooleanField()
    to_register = serializers.IntegerField()
    to_create = serializers.IntegerField()
    skipped = serializers.IntegerField()
    refused = serializers.IntegerField()
    lines = BulkLineSerializer(many=True)
    entries = serializers.ListField(child=serializers.IntegerField())
