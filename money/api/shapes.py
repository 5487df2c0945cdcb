"""The shapes of the money answers, for the OpenAPI schema (issue #30).

The answers are plain dicts built from the event's ledger (``answers.money_data``,
``renderings.calcutta_data``) or the master-points tables; these serializers only
*describe* them, so a generated client gets typed models instead of free-form objects.
Amounts are decimal strings ("12.50"), as the answers show them. What a reader may not
see is left out of the event's money, so those keys are not required.
``tests/money/api/test_answer_shapes.py`` holds each real answer to its description,
closed to undeclared keys, so the two cannot drift apart.
"""

from __future__ import annotations

from rest_framework import serializers


def amount(
    help_text: str = 'A decimal string, e.g. "12.50".',
    *,
    required: bool = True,
    allow_null: bool = False,
) -> serializers.CharField:
    """An amount as the answers show it: a decimal string."""
    return serializers.CharField(help_text=help_text, required=required, allow_null=allow_null)


class CalcuttaOwnerSerializer(serializers.Serializer):
    name = serializers.CharField()
    percent = serializers.CharField(help_text='The share in percent, e.g. "25.00".')


class CalcuttaLotSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # DRF's Field has a label
    players = serializers.ListField(child=serializers.CharField(), help_text="Their names.")
    price = amount(allow_null=True)
    owners = CalcuttaOwnerSerializer(many=True)


class CalcuttaSerializer(serializers.Serializer):
    """The auction: its payout table, rake, pool and lots (only ``set_up`` and ``lots``
    until it is set up)."""

    set_up = serializers.BooleanField()
    table = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Percent per place."
    )
    rake_percent = serializers.CharField(required=False)
    rake_fixed = amount(required=False)
    buy_back_limit = serializers.CharField(required=False, help_text="Percent of a lot.")
    pool = amount(required=False)
    lots = CalcuttaLotSerializer(many=True)


class PoolSettingsSerializer(serializers.Serializer):
    """A pool's settings, as the director set them."""

    key = serializers.CharField()
    name = serializers.CharField()
    side = serializers.BooleanField()
    paid_by = serializers.CharField()
    fee = amount()
    added = amount()
    rake_percent = serializers.CharField()
    rake_fixed = amount()
    table = serializers.ListField(child=serializers.CharField(), help_text="Percent per place.")
    remainder = serializers.CharField()
    buy_back_fee = amount(allow_null=True)
    buy_back_until_round = serializers.IntegerField(allow_null=True)
    entrants = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="A side pool's entry ids."
    )
    award_order = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        allow_null=True,
        help_text="Entry ids by place, ties grouped; null: the results' order.",
    )


class PayoutSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField()
    amount = amount()


class PoolPayoutsSerializer(serializers.Serializer):
    """A pool's money in, rake, payouts by place and rounding remainder."""

    pool = serializers.CharField()
    name = serializers.CharField()
    money_in = amount()
    rake = amount()
    paid_out = amount()
    rounding_remainder = amount()
    remainder_kept_by_club = amount()
    held = amount()
    payouts = PayoutSerializer(many=True)


class LedgerLineSerializer(serializers.Serializer):
    pool = serializers.CharField()
    pool_name = serializers.CharField()
    kind = serializers.CharField(help_text="fee, buy_back, payout, rake, ...")
    amount = amount(help_text="What the person receives; negative: what they put in.")
    note = serializers.CharField()


class PersonMoneySerializer(serializers.Serializer):
    """A person's money in the event: lines, net, paid and the balance still open."""

    player = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    net = amount()
    paid = amount()
    balance = amount()
    marked_owing = serializers.BooleanField()
    lines = LedgerLineSerializer(many=True)


class MoneyTransferSerializer(serializers.Serializer):
    payer = serializers.CharField(help_text="A name.")
    payee = serializers.CharField(help_text="A name.")
    amount = amount()


class EventMoneySerializer(serializers.Serializer):
    """The event's money as far as the reader may see it: payouts and pools if the club
    publishes them, the Calcutta if it publishes it, people, settlement and splits for
    its directors, and a signed-in player's own money (``mine``)."""

    currency = serializers.CharField()
    payout_unit = serializers.CharField()
    finished = serializers.BooleanField()
    version = serializers.IntegerField()
    registration_fee = amount(required=False)
    pools = PoolSettingsSerializer(many=True, required=False)
    payouts = PoolPayoutsSerializer(many=True, required=False)
    calcutta = CalcuttaSerializer(required=False, allow_null=True)
    people = PersonMoneySerializer(many=True, required=False)
    settlement = MoneyTransferSerializer(many=True, required=False)
    splits = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        required=False,
        help_text="The groups of entries that agreed to split.",
    )
    mine = PersonMoneySerializer(required=False, allow_null=True)


class PlayerPointsSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.CharField(help_text="A decimal string.")


class EventMasterPointsSerializer(serializers.Serializer):
    """How the event awards master points, and each player's points."""

    formula = serializers.CharField(allow_null=True)
    club_table_version = serializers.IntegerField(allow_null=True)
    event_weight = serializers.CharField(allow_null=True)
    division_weight = serializers.CharField(allow_null=True)
    points = PlayerPointsSerializer(many=True)


class EventPointsSerializer(serializers.Serializer):
    tournament = serializers.CharField(help_text="The event's slug.")
    points = serializers.CharField()


class MasterPointsRowSerializer(serializers.Serializer):
    """A row of the club's leaderboard: the player's points and the events they came from."""

    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.CharField()
    events = EventPointsSerializer(many=True)


class PointsBracketSerializer(serializers.Serializer):
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(child=serializers.CharField(), help_text="By place.")


class PointsTableSerializer(serializers.Serializer):
    per_match_won = serializers.CharField()
    brackets = PointsBracketSerializer(many=True)


class SeasonStartSerializer(serializers.Serializer):
    month = serializers.IntegerField()
    day = serializers.IntegerField()


class ClubPointsTableSerializer(serializers.Serializer):
    """The club's own master-points table (null until it saves one) and its season start."""

    version = serializers.IntegerField(allow_null=True)
    table = PointsTableSerializer(allow_null=True)
    season_start = SeasonStartSerializer()
