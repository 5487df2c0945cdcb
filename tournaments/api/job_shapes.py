"""The shapes of the tournaments' jobs' ``params`` and ``result``, for the schema.

Each job kind's declaration (``tournaments.job_catalog``, registered by
``tournaments/wiring.py``) names them, so that a generated
client reads a paired round or a redraw as a typed object, not a dict. They only
*describe* what the starters put in ``params`` and what the handlers in
``tournaments.jobs`` return; ``tests/tournaments/api/test_job_shapes.py`` holds real
job answers to them.
"""

from __future__ import annotations

from rest_framework import serializers


class TournamentParamsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(help_text="The event's id.")


class PairRoundParamsSerializer(TournamentParamsSerializer):
    round = serializers.IntegerField(help_text="The number of the round to pair.")


class PairRoundResultSerializer(serializers.Serializer):
    """What pairing the round produced (``tournaments.services.rounds.RoundOutcome``)."""

    round = serializers.IntegerField()
    pairings = serializers.IntegerField()
    byes = serializers.IntegerField()
    created = serializers.BooleanField(help_text="False: the round existed already.")
    penalty = serializers.IntegerField(allow_null=True)
    rematches = serializers.IntegerField()
    warnings = serializers.ListField(child=serializers.CharField())


class RedrawParamsSerializer(TournamentParamsSerializer):
    random_seed = serializers.IntegerField(
        required=False, help_text="The seed asked for; absent: the next one."
    )


class RedrawResultSerializer(serializers.Serializer):
    entries = serializers.IntegerField()
    voided_matches = serializers.IntegerField()
    random_seed = serializers.IntegerField()


class DropMapParamsSerializer(serializers.Serializer):
    """What the preview is built from (``tournaments.selectors.drop_map_params``)."""

    format = serializers.CharField()
    entries = serializers.IntegerField()
    consolation_from = serializers.ListField(child=serializers.IntegerField())
    last_chance_from = serializers.ListField(child=serializers.IntegerField())
    grand_final_reset = serializers.BooleanField()
    feed_orders = serializers.ListField(child=serializers.CharField())
    last_chance_drawn = serializers.ListField(child=serializers.IntegerField())


class OddsResultSerializer(serializers.Serializer):
    """The snapshot written; ``snapshot`` null (and nothing else) when none was."""

    snapshot = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField(required=False)
    method = serializers.CharField(required=False)


class NotifyCallParamsSerializer(serializers.Serializer):
    call = serializers.IntegerField(help_text="The round call's id.")


class NotifyCallResultSerializer(serializers.Serializer):
    """How many notices went out, were sent before, failed; players with no address,
    and with one its owner has not confirmed for the club yet (not mailed)."""

    sent = serializers.IntegerField()
    skipped = serializers.IntegerField()
    failed = serializers.IntegerField()
    no_address = serializers.IntegerField()
    unconfirmed = serializers.IntegerField()
    pushed = serializers.IntegerField()
