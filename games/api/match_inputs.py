"""What the match API accepts: the request bodies of creating a match, entering a game
or a final score, disputing and resolving, forfeiting and reopening, each turned into
what its service takes (:class:`~games.services.match_records.GameInput`, or
:class:`~games.services.match_records.GameChanges` for a correction)."""

from __future__ import annotations

from rest_framework import serializers

from games.models import Dispute, Game, Player
from games.models.matches import HAND_ENTRY_ENDINGS
from games.rules import limits, variants
from games.services import match_records

from .inputs import ClubRef


class MatchCreateSerializer(serializers.Serializer):
    club = ClubRef()
    player1 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player2 = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    length = serializers.IntegerField(min_value=0, max_value=limits.MAX_MATCH_LENGTH)
    crawford = serializers.BooleanField(default=True)
    rated = serializers.BooleanField(default=True)
    cube_limit = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_CUBE, required=False, allow_null=True
    )
    variant = serializers.ChoiceField(
        choices=variants.match_choices(),
        default=variants.DEFAULT,
        help_text="The game played (GET /api/v1/variants/, or tavli: portes, plakoto and "
        "fevga in rotation): its levels, whether the cube and the Crawford rule apply.",
    )
    # a field named like DRF's Field.label attribute, which the stubs type as a string
    label = serializers.CharField(  # type: ignore[assignment]
        max_length=limits.MAX_LABEL, required=False, allow_blank=True, default=""
    )
    played_on = serializers.DateField(required=False, allow_null=True)


class GameInputSerializer(serializers.Serializer):
    winner = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_ID, help_text="Player id of the game's winner."
    )
    cube = serializers.IntegerField(min_value=1, max_value=limits.MAX_CUBE, default=1)
    cube_owner = serializers.ChoiceField(
        choices=Game.CubeOwner.choices,
        required=False,
        help_text="Who holds the cube. Optional: omitted, a cube of 1 is 'centre' and a "
        "turned cube is 'unknown' (score sheets rarely record the owner; it changes no score).",
    )
    ending = serializers.ChoiceField(choices=HAND_ENTRY_ENDINGS, default="played")
    level = serializers.ChoiceField(choices=Game.Level.choices, default="single")
    points = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_SCORE, required=False, allow_null=True
    )
    number = serializers.IntegerField(
        min_value=1,
        max_value=limits.MAX_GAME_NUMBER,
        required=False,
        allow_null=True,
        help_text="Which game this is; if it is already recorded the answer is 409.",
    )
    clock_override_reason = serializers.CharField(
        max_length=limits.MAX_REASON,
        required=False,
        allow_blank=True,
        default="",
        help_text="A director's reason for a result without a clock where the round "
        'requires one (docs/clocks.md, "Enforced"); kept in the audit trail.',
    )

    def to_game_input(self) -> match_records.GameInput:
        data = self.validated_data
        return match_records.GameInput(
            winner_id=data["winner"],
            cube=data["cube"],
            cube_owner=data.get("cube_owner") or match_records.default_cube_owner(data["cube"]),
            ending=data["ending"],
            level=data["level"],
            points=data.get("points"),
        )

    def to_game_changes(self) -> match_records.GameChanges:
        """A partial body (``partial=True``): only the fields sent, for a correction."""
        data = self.validated_data
        return match_records.GameChanges(
            winner_id=data.get("winner"),
            cube=data.get("cube"),
            cube_owner=data.get("cube_owner"),
            ending=data.get("ending"),
            level=data.get("level"),
            points=data.get("points"),
        )


class FinalScoreSerializer(serializers.Serializer):
    score = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=limits.MAX_SCORE),
        min_length=2,
        max_length=2,
    )
    clock_override_reason = serializers.CharField(
        max_length=limits.MAX_REASON,
        required=False,
        allow_blank=True,
        default="",
        help_text="A director's reason for a result without a clock where the round "
        'requires one (docs/clocks.md, "Enforced"); kept in the audit trail.',
    )


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=limits.MAX_REASON)


class ResolveSerializer(serializers.Serializer):
    resolution = serializers.CharField(
        max_length=limits.MAX_REASON, help_text="The director's note; the players see it."
    )
    decision = serializers.ChoiceField(
        choices=Dispute.Decision.choices,
        required=False,
        default=Dispute.Decision.KEEP,
        help_text="keep (the default): the result stands; corrected: the games were "
        "corrected first and the result stands as it now is; void: the match is voided.",
    )


class ForfeitSerializer(serializers.Serializer):
    winner = serializers.IntegerField(min_value=1, max_value=limits.MAX_ID)


class ReopenSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=limits.MAX_REASON,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why the match is reopened; shown in its audit trail.",
    )
