"""The inputs of the money endpoints (amounts as decimal strings, never floats).

Each input's validated data is its service's keyword arguments (``source`` names the
parameter where the JSON name differs, e.g. ``entries`` → ``entry_ids``), so a view
passes it on untranslated (:func:`money.api.writing.endpoint`); errors still name the
JSON field."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rest_framework import serializers

from core.api_fields import AsciiDecimalField
from games.rules.limits import MAX_ID
from money import master_points, rules
from money.models import PaidBy, PaymentMethod, Remainder

from .common import AMOUNT, PERCENT


class PoolInput(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    side = serializers.BooleanField(default=False)
    paid_by = serializers.ChoiceField(choices=PaidBy.choices, default=PaidBy.EVENT)
    fee = AsciiDecimalField(**AMOUNT, default=Decimal(0))
    added = AsciiDecimalField(**AMOUNT, default=Decimal(0))
    rake_percent = AsciiDecimalField(**PERCENT, default=Decimal(0))
    rake_fixed = AsciiDecimalField(**AMOUNT, default=Decimal(0))
    preset = serializers.ChoiceField(choices=list(rules.PRESETS), required=False)
    table = serializers.ListField(
        child=AsciiDecimalField(**PERCENT), required=False, max_length=256
    )
    remainder = serializers.ChoiceField(choices=Remainder.choices, default=Remainder.FIRST)
    buy_back_fee = AsciiDecimalField(**AMOUNT, required=False, allow_null=True, default=None)
    buy_back_until_round = serializers.IntegerField(
        min_value=1, max_value=64, required=False, allow_null=True, default=None
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        preset = attrs.pop("preset", None)
        table = attrs.pop("table", None)
        if (preset is None) == (table is None):
            raise serializers.ValidationError({"table": "Give either a preset or a table."})
        attrs["table"] = preset if preset is not None else table
        return attrs


class EntrantsInput(serializers.Serializer):
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        max_length=1024,
        source="entry_ids",
    )


class AwardInput(serializers.Serializer):
    groups = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_ID), max_length=64
        ),
        allow_null=True,
        max_length=256,
    )


class MoneyEntryInput(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_ID, source="entry_id")


class PaymentInput(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, source="player_id")
    amount = AsciiDecimalField(**AMOUNT)
    method = serializers.ChoiceField(choices=PaymentMethod.choices)
    note = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)


class PrizeOrderInput(serializers.Serializer):
    prize_order = serializers.ListField(
        child=serializers.CharField(max_length=32),
        max_length=16,
        allow_empty=True,
        help_text='The order places rank and prizes go, e.g. ["main:2", "consolation:2", '
        '"main"]; [] is the default order (main, consolation:2, last_chance:2).',
    )


class CalcuttaInput(serializers.Serializer):
    preset = serializers.ChoiceField(choices=list(rules.PRESETS), required=False)
    table = serializers.ListField(
        child=AsciiDecimalField(**PERCENT), required=False, max_length=256
    )
    rake_percent = AsciiDecimalField(**PERCENT, default=Decimal(0))
    rake_fixed = AsciiDecimalField(**AMOUNT, default=Decimal(0))
    buy_back_limit = AsciiDecimalField(**PERCENT, default=Decimal(50))
    remainder = serializers.ChoiceField(choices=Remainder.choices, default=Remainder.FIRST)

    validate = PoolInput.validate


class LotInput(serializers.Serializer):
    label = serializers.CharField(max_length=80, required=False, default="", allow_blank=True)  # type: ignore[assignment]  # DRF Field has a label
    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        min_length=1,
        max_length=1024,
        source="entry_ids",
    )


class ShareInput(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    percent = AsciiDecimalField(**PERCENT)


class SaleInput(serializers.Serializer):
    price = AsciiDecimalField(**AMOUNT)
    buyers = ShareInput(many=True)

    def validate_buyers(self, value: list[dict[str, Any]]) -> list[tuple[int, Decimal]]:
        """The buyers as the service takes them: (player id, percent) pairs."""
        return [(buyer["player"], buyer["percent"]) for buyer in value]


class LotBuyBackInput(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_ID, source="entry_id")
    percent = AsciiDecimalField(**PERCENT)


class ClubMoneyInput(serializers.Serializer):
    currency = serializers.CharField(min_length=3, max_length=3)
    payout_unit = AsciiDecimalField(**AMOUNT)
    publish_payouts = serializers.BooleanField()
    publish_calcutta = serializers.BooleanField()


class MasterPointsInput(serializers.Serializer):
    formula = serializers.ChoiceField(choices=master_points.FORMULA_CHOICES)
    event_weight = AsciiDecimalField(max_digits=6, decimal_places=3, min_value=Decimal(0))
    division_weight = AsciiDecimalField(
        max_digits=6, decimal_places=3, min_value=Decimal(0), default=Decimal(1)
    )


class BracketInput(serializers.Serializer):
    min_players = serializers.IntegerField(min_value=2, max_value=100000)
    max_players = serializers.IntegerField(
        min_value=2, max_value=100000, allow_null=True, required=False, default=None
    )
    points = serializers.ListField(
        child=AsciiDecimalField(max_digits=8, decimal_places=2, min_value=Decimal(0)),
        min_length=1,
        max_length=64,
    )


class ClubPointsTableInput(serializers.Serializer):
    per_match_won = AsciiDecimalField(
        max_digits=8, decimal_places=2, min_value=Decimal(0), default=Decimal(0)
    )
    brackets = BracketInput(many=True)

    def validate_per_match_won(self, value: Decimal) -> str:
        """As the table stores it (JSON): a decimal string."""
        return str(value)

    def validate_brackets(self, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """As the table stores them (JSON): points as decimal strings."""
        return [{**bracket, "points": [str(p) for p in bracket["points"]]} for bracket in value]


class SeasonInput(serializers.Serializer):
    month = serializers.IntegerField(min_value=1, max_value=12)
    day = serializers.IntegerField(min_value=1, max_value=28)
