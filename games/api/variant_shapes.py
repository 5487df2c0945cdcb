"""The shapes of the variants answers, for the OpenAPI schema (issue #30).

The registry and the legal plays are rendered by plain functions
(``variants.variant_json``, ``variants.position_json``: the engine's tuples turned into
the position's JSON form); these serializers only *describe* them, so a generated client
gets typed models instead of free-form objects.
``tests/games/api/test_answer_shapes.py`` holds each real answer to its description,
closed to undeclared keys, so the two cannot drift apart.
"""

from __future__ import annotations

from rest_framework import serializers


class VariantSideSerializer(serializers.Serializer):
    """One side's men, every point counted from the mover's side (as in a request)."""

    points = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Men on the mover's points 1..24 (index 0 is point 1).",
    )
    bar = serializers.IntegerField()
    off = serializers.IntegerField()
    not_entered = serializers.IntegerField(help_text="Men not yet entered.")
    pinned = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Plakoto: the mover's points where this side's man lies pinned.",
    )


class VariantPositionSerializer(serializers.Serializer):
    mover = VariantSideSerializer()
    opponent = VariantSideSerializer()


class VariantAllowsSerializer(serializers.Serializer):
    """What the variant allows (``Variant.allows``)."""

    checkers = serializers.IntegerField()
    starts_off_board = serializers.BooleanField()
    direction = serializers.CharField(help_text="opposite, same or same_from_opposite_corners.")
    contact = serializers.CharField(help_text="hit, pin or blocked.")
    complementary_doublets = serializers.CharField(help_text="none, compulsory or by_agreement.")
    first_doublets_plain = serializers.BooleanField()
    doublets_throw_again = serializers.BooleanField()
    one_two_names_doublets = serializers.BooleanField()
    levels = serializers.DictField(
        child=serializers.IntegerField(), help_text="Points by level (single, gammon, ...)."
    )
    cube = serializers.BooleanField()
    crawford = serializers.BooleanField()
    jacoby = serializers.BooleanField()


class VariantOptionSerializer(serializers.Serializer):
    """A house option the sources leave to the players, and its default."""

    key = serializers.CharField()
    default = serializers.BooleanField()
    description = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]  # DRF's Field has a source


class VariantDescriptionSerializer(serializers.Serializer):
    """A registered variant: its sources, rules, house options and starting position."""

    key = serializers.CharField()
    name = serializers.CharField()
    summary = serializers.CharField()
    sources = serializers.ListField(child=serializers.CharField())
    allows = VariantAllowsSerializer()
    options = VariantOptionSerializer(many=True)
    start = VariantPositionSerializer()
    gnubg_variation = serializers.CharField(allow_null=True)
    engine_analysis = serializers.BooleanField()


class VariantListSerializer(serializers.Serializer):
    results = VariantDescriptionSerializer(many=True)


class VariantResultSerializer(serializers.Serializer):
    """The game's result when a play ends it."""

    winner = serializers.CharField(help_text="mover or opponent.")
    level = serializers.CharField()
    points = serializers.IntegerField()
    reason = serializers.CharField(help_text="borne_off or mother_pinned.")


class VariantPlaySerializer(serializers.Serializer):
    moves = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="Each step as [from, to]: the mover's points, 25 the bar, 26 not entered, 0 off.",
    )
    notation = serializers.CharField()
    hits = serializers.ListField(
        child=serializers.IntegerField(), help_text="Points where a man was hit or pinned."
    )
    position = VariantPositionSerializer(help_text="The position after the play.")
    result = VariantResultSerializer(allow_null=True, help_text="Null: the game goes on.")


class VariantPlaysSerializer(serializers.Serializer):
    """The legal plays of a throw, and what follows them."""

    variant = serializers.CharField()
    dice_played = serializers.ListField(child=serializers.IntegerField())
    next = serializers.CharField(
        help_text=(
            "turn_over, complementary, choose_doublets, throw_again, opponent_finishes "
            "or game_over."
        )
    )
    unplayed = serializers.IntegerField(help_text="Dice that could not be played.")
    plays = VariantPlaySerializer(
        many=True,
        help_text="The legal plays, at most MAX_PLAYS_ANSWERED (100) of them, in the order "
        "the engine finds them; `truncated` says when there are more.",
    )
    total = serializers.IntegerField(help_text="How many legal plays the throw has.")
    truncated = serializers.BooleanField(
        help_text="True when `plays` holds only the first 100 of `total` plays."
    )
