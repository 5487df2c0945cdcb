"""The shapes of the ratings answers, for the OpenAPI schema (issue #30).

A list's row and a history's change are rendered by the serializers here; the rest of
each answer (a list's information, a player's history, a preview's two sides) is built
from selectors into plain dicts by the views, and the serializers below the rows only
*describe* it, so a generated client gets typed models instead of free-form objects.
``tests/games/api/test_answer_shapes.py`` holds each real answer to its description,
closed to undeclared keys, so the two cannot drift apart.
"""

from __future__ import annotations

from rest_framework import serializers

from games.models import Rating, RatingChange

from .match_serializers import PlayerRefSerializer


def rounded(value: float) -> float:
    """A rating as answers show it: two decimals."""
    return round(value, 2)


class RatingRowSerializer(serializers.ModelSerializer):
    rank = serializers.SerializerMethodField()
    player = PlayerRefSerializer()
    rating = serializers.SerializerMethodField()
    last_change = serializers.SerializerMethodField()

    class Meta:
        model = Rating
        fields = [
            "rank",
            "player",
            "rating",
            "experience",
            "last_change",
            "matches_played",
            "last_played_at",
        ]

    def get_rank(self, rating: Rating) -> int:
        return self.context["first_rank"] + self.context["rows"].index(rating)

    def get_rating(self, rating: Rating) -> float:
        return rounded(rating.rating)

    def get_last_change(self, rating: Rating) -> float:
        return rounded(rating.last_change)


class RatingChangeSerializer(serializers.ModelSerializer):
    opponent = PlayerRefSerializer()
    rating_before = serializers.SerializerMethodField()
    rating_after = serializers.SerializerMethodField()
    change = serializers.SerializerMethodField()

    class Meta:
        model = RatingChange
        fields = [
            "match",
            "at",
            "opponent",
            "won",
            "length",
            "rating_before",
            "rating_after",
            "change",
            "experience_before",
            "experience_after",
        ]

    def get_rating_before(self, c: RatingChange) -> float:
        return rounded(c.rating_before)

    def get_rating_after(self, c: RatingChange) -> float:
        return rounded(c.rating_after)

    def get_change(self, c: RatingChange) -> float:
        return rounded(c.change)


class RatingListInfoSerializer(serializers.Serializer):
    """Which list the answer comes from, and the rules it is kept by."""

    club = serializers.CharField(allow_null=True, help_text="The club's slug; null: the site.")
    variant = serializers.CharField(help_text='"standard", or a variant the club rates.')
    initial = serializers.IntegerField(help_text="A newcomer's rating.")
    boost = serializers.CharField(help_text="The newcomer boost policy (fibs, ...).")
    recomputed_at = serializers.DateTimeField(allow_null=True)


class ClubRatingsPageSerializer(serializers.Serializer):
    """A page of the club's list, best first, with the list's information."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RatingRowSerializer(many=True)
    list = RatingListInfoSerializer()


class PlayerRatingHistorySerializer(serializers.Serializer):
    """A player's rating now and every change that led to it, oldest first."""

    player = PlayerRefSerializer()
    list = RatingListInfoSerializer()
    rating = serializers.FloatField()
    experience = serializers.IntegerField()
    matches_played = serializers.IntegerField()
    history = RatingChangeSerializer(many=True)


class PreviewSideSerializer(serializers.Serializer):
    """One player of a previewed match: who, their standing and their chance."""

    id = serializers.IntegerField()
    display_name = serializers.CharField()
    slug = serializers.CharField()
    rating = serializers.FloatField()
    experience = serializers.IntegerField()
    win_probability = serializers.FloatField()


class PreviewOutcomeSerializer(serializers.Serializer):
    """What one result would do to both ratings."""

    winner_change = serializers.FloatField()
    loser_change = serializers.FloatField()
    winner_after = serializers.FloatField()
    loser_after = serializers.FloatField()


class RatingPreviewSerializer(serializers.Serializer):
    """Each player's chance and what each outcome would do to both ratings."""

    list = RatingListInfoSerializer()
    length = serializers.IntegerField()
    player_a = PreviewSideSerializer()
    player_b = PreviewSideSerializer()
    if_a_wins = PreviewOutcomeSerializer()
    if_b_wins = PreviewOutcomeSerializer()
