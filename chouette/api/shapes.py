"""The shapes of the chouette answers, for the OpenAPI schema (issue #30).

The answers are plain dicts built from the session's sheet (``serializers.session_data``
and its neighbours: no query per row); these serializers only *describe* them, so a
generated client gets typed models instead of free-form objects.
``tests/chouette/api/test_answer_shapes.py`` holds each real answer to its description,
closed to undeclared keys, so the two cannot drift apart.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..rules import HOUSE_RULES, HouseRule


def house_rule_output(rule: HouseRule) -> serializers.Field:
    """How the answers show ``rule``'s value (the input's field, without its bounds)."""
    if rule.kind is bool:
        return serializers.BooleanField()
    if rule.kind is int:
        return serializers.IntegerField(allow_null=rule.nullable)
    return serializers.CharField(
        allow_null=rule.nullable, help_text=", ".join(str(value) for value in rule.choice_labels)
    )


class ChouetteRulesSerializer(serializers.Serializer):
    """The session's rule profile and every house rule's value."""

    profile = serializers.CharField(help_text="The profile the rules started from.")

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields.update({rule.name: house_rule_output(rule) for rule in HOUSE_RULES})
        return fields


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer"},
            {"type": "array", "items": {"type": "integer"}},
        ],
        "description": "A roll, or the first roll and its re-rolls.",
    }
)
class OpeningRollField(serializers.Field):
    """A player's opening roll, or the roll and its re-rolls (a tie rolls again)."""


class ChouetteSessionRowSerializer(serializers.Serializer):
    """A session as the list shows it."""

    id = serializers.IntegerField()
    club = serializers.CharField(help_text="The club's slug.")
    played_on = serializers.DateField()
    label = serializers.CharField()  # type: ignore[assignment]  # DRF's Field has a label
    stake = serializers.CharField(help_text="Money per point, e.g. '1.00'.")
    currency = serializers.CharField()
    status = serializers.CharField(help_text="open or closed.")
    version = serializers.IntegerField()


class ChouettePlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ChouetteSeatSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    joined_at = serializers.DateTimeField()
    left_at = serializers.DateTimeField(allow_null=True)
    seated = serializers.BooleanField()


class ChouetteNextSerializer(serializers.Serializer):
    """The next game's order: its number, the box, the captain and the team in line."""

    number = serializers.IntegerField()
    box = ChouettePlayerSerializer(allow_null=True)
    captain = ChouettePlayerSerializer(allow_null=True)
    partner = ChouettePlayerSerializer(allow_null=True)
    partner_to_name = serializers.BooleanField(
        help_text="The house names the box's partner each game (and the table is large)."
    )
    team = ChouettePlayerSerializer(many=True)


class ChouettePointsSerializer(serializers.Serializer):
    """A player's points (a game's payout, or a running total)."""

    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()


class ChouetteTotalSerializer(ChouettePointsSerializer):
    money = serializers.CharField(help_text="The points times the stake, e.g. '-12.00'.")


class ChouetteMemberSerializer(serializers.Serializer):
    """A team member's cube in a game and the points it moved."""

    player = serializers.IntegerField()
    cube = serializers.IntegerField()
    action = serializers.CharField()
    owner = serializers.CharField(allow_null=True, help_text="box, team or null (centred).")
    raccoon = serializers.BooleanField()
    stake = serializers.IntegerField(help_text="Stake multiple: 1, 2 or 4.")
    taken_over = serializers.BooleanField()
    points = serializers.IntegerField()


class ChouetteGameSerializer(serializers.Serializer):
    """A recorded game: who played it, how it ended and what it paid."""

    number = serializers.IntegerField()
    box = serializers.IntegerField()
    partner = serializers.IntegerField(allow_null=True)
    captain = serializers.IntegerField()
    board_captain = serializers.IntegerField()
    team_order = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_null=True, help_text="box or team; null: no result.")
    board_winner = serializers.CharField()
    level = serializers.CharField()
    ending = serializers.CharField(allow_null=True)
    automatic_doubles = serializers.IntegerField()
    members = ChouetteMemberSerializer(many=True)
    payouts = ChouettePointsSerializer(many=True)


class ChouetteLedgerRowSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    payouts = ChouettePointsSerializer(many=True)
    totals = ChouettePointsSerializer(many=True)


class ChouetteLedgerSerializer(serializers.Serializer):
    """Every game's payouts and running totals, and the totals in money."""

    games = ChouetteLedgerRowSerializer(many=True)
    totals = ChouetteTotalSerializer(many=True)
    currency = serializers.CharField()
    stake = serializers.CharField()


class ChouetteTransferSerializer(serializers.Serializer):
    payer = serializers.IntegerField()
    payer_name = serializers.CharField()
    payee = serializers.IntegerField()
    payee_name = serializers.CharField()
    amount = serializers.CharField()


class ChouetteSettlementSerializer(serializers.Serializer):
    """Who pays whom to settle the session."""

    status = serializers.CharField()
    currency = serializers.CharField()
    stake = serializers.CharField()
    totals = ChouetteTotalSerializer(many=True)
    transfers = ChouetteTransferSerializer(many=True)


class ChouetteSessionSerializer(ChouetteSessionRowSerializer):
    """The session's sheet: rules, seats, the next order, the last game and the totals."""

    rules = ChouetteRulesSerializer()
    opening_order = serializers.ListField(
        child=serializers.IntegerField(), help_text="Player ids: box, captain, ..."
    )
    opening_rolls = serializers.DictField(
        child=OpeningRollField(), allow_null=True, help_text="Player id to roll(s)."
    )
    seats = ChouetteSeatSerializer(many=True)
    next = ChouetteNextSerializer()
    box = ChouettePlayerSerializer(allow_null=True)
    captain = ChouettePlayerSerializer(allow_null=True)
    partner = ChouettePlayerSerializer(allow_null=True)
    team = serializers.ListField(child=serializers.IntegerField())
    games = serializers.IntegerField(help_text="How many games were played.")
    last_game = ChouetteGameSerializer(allow_null=True)
    totals = ChouetteTotalSerializer(many=True)


class ChouetteGameWrittenSerializer(serializers.Serializer):
    """A game write's answer: the game, the ledger after it and the next order."""

    session = serializers.IntegerField()
    version = serializers.IntegerField()
    game = ChouetteGameSerializer(allow_null=True, help_text="Null: the game was undone.")
    ledger = ChouetteLedgerSerializer()
    next = ChouetteNextSerializer()
