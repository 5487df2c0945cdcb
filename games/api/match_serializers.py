"""What the match API answers: a match (summary in lists, detail with its games and
the Crawford facts a client needs to enter the next game) and its players and games.

The detail renders from the game rows the service that returned the match already
read (``Match.game_rows``), or reads them once as plain values: this is the body of
every score-entry response.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Club, Game, Match, Player
from games.rules.scoring import next_game_facts
from games.selectors import clock_of, next_game_open
from games.selectors_chances import Chances, winning_chances
from games.services import match_records

from .clock_serializers import ClockSerializer, clock_payload
from .match_render import game_body, game_rows


class PlayerRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "display_name", "slug"]


class GameSerializer(serializers.ModelSerializer):
    score_before = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "number",
            "score_before",
            "winner",
            "cube",
            "cube_owner",
            "ending",
            "level",
            "points",
            "crawford",
            "post_crawford",
            "confirmed",
            "entered_by",
        ]

    def get_score_before(self, game: Game) -> list[int]:
        return [game.score1_before, game.score2_before]


class MatchSummarySerializer(serializers.ModelSerializer):
    player1 = PlayerRefSerializer()
    player2 = PlayerRefSerializer()
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    score = serializers.SerializerMethodField()
    winning_chances = serializers.SerializerMethodField(
        help_text="Each player's chance to win the match from where it stands, "
        "[player1, player2], summing to 1 (docs/chances.md): before the first game the "
        "FIBS probability for the length from their ratings on the club's list; during "
        "the match the club's match equity table (Kazaross-XG2 by default), shifted by "
        "the rating gap; [1, 0] or [0, 1] once decided. null for a void match, an "
        "unlimited session, or a match longer than the table once it has started."
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "club",
            "player1",
            "player2",
            "length",
            "crawford",
            "rated",
            "cube_limit",
            "variant",
            "status",
            "source",
            "score",
            "winner",
            "confirmation",
            "awaiting",
            "final_score_only",
            "label",
            "table",
            "played_on",
            "version",
            "created_at",
            "finished_at",
            "winning_chances",
        ]

    def get_score(self, match: Match) -> list[int]:
        return [match.score1, match.score2]

    def _chances(self, match: Match) -> Chances | None:
        """Read once for the whole page of a list (two queries, not two per match)."""
        cache: dict[int, Chances | None] = self.context.setdefault("_chances", {})
        if match.pk not in cache:
            siblings = getattr(self.parent, "instance", None)
            batch = list(siblings) if isinstance(siblings, list | tuple) else [match]
            if match not in batch:
                batch = [match]
            cache.update(winning_chances(batch, crawford_played=self._crawford_known(batch)))
        return cache[match.pk]

    def _crawford_known(self, batch: list[Match]) -> dict[int, bool] | None:
        return None

    @extend_schema_field(
        serializers.ListField(
            child=serializers.FloatField(min_value=0, max_value=1),
            min_length=2,
            max_length=2,
            allow_null=True,
        )
    )
    def get_winning_chances(self, match: Match) -> list[float] | None:
        chances = self._chances(match)
        return None if chances is None else chances.as_list()


class MatchDetailSerializer(MatchSummarySerializer):
    """The match with its games and the Crawford facts a client needs to enter the next.

    Games are read as plain values in one query (no model instances), or not at all
    when the service that returned the match already has them (``Match.game_rows``):
    this is the body of every score-entry response.
    The Crawford facts come from the per-game facts the services keep in step.
    """

    games = serializers.SerializerMethodField()
    crawford_game = serializers.SerializerMethodField()
    next_game = serializers.SerializerMethodField()
    next_game_is_crawford = serializers.SerializerMethodField()
    post_crawford = serializers.SerializerMethodField()

    class Meta(MatchSummarySerializer.Meta):
        fields = [
            *MatchSummarySerializer.Meta.fields,
            "games",
            "crawford_game",
            "next_game",
            "next_game_is_crawford",
            "post_crawford",
        ]

    def _rows(self, match: Match) -> list[dict[str, Any]]:
        if match.game_rows is not None:  # the write that returned the match read them
            return match.game_rows
        cache = self.context.setdefault("_games", {})
        if match.pk not in cache:
            cache[match.pk] = game_rows(match)
        return cache[match.pk]

    def _open(self, match: Match) -> bool:
        return next_game_open(match)

    def _crawford_known(self, batch: list[Match]) -> dict[int, bool] | None:
        """The games are read anyway: whether the Crawford game was played needs no query."""
        return {m.pk: any(g["crawford"] for g in self._rows(m)) for m in batch}

    def _next_facts(self, match: Match) -> tuple[bool, bool]:
        crawford_played = any(g["crawford"] for g in self._rows(match))
        return next_game_facts(
            match_records.match_rules(match), (match.score1, match.score2), crawford_played
        )

    @extend_schema_field(GameSerializer(many=True))
    def get_games(self, match: Match) -> list[dict[str, Any]]:
        return [game_body(g) for g in self._rows(match)]

    def get_crawford_game(self, match: Match) -> int | None:
        return next((g["number"] for g in self._rows(match) if g["crawford"]), None)

    def get_next_game(self, match: Match) -> int | None:
        return len(self._rows(match)) + 1 if self._open(match) else None

    def get_next_game_is_crawford(self, match: Match) -> bool:
        return self._open(match) and self._next_facts(match)[0]

    def get_post_crawford(self, match: Match) -> bool:
        rows = self._rows(match)
        if any(g["post_crawford"] for g in rows):
            return True
        return self._open(match) and self._next_facts(match)[1]


class MatchReadSerializer(MatchDetailSerializer):
    """The match as ``GET /matches/{id}/`` shows it: the detail plus its clock (the
    reserves left, stored with the result). Write answers leave the clock out (it has
    its own endpoint), so a score entry costs no query for it."""

    clock = serializers.SerializerMethodField()

    class Meta(MatchDetailSerializer.Meta):
        fields = [*MatchDetailSerializer.Meta.fields, "clock"]

    @extend_schema_field(ClockSerializer(allow_null=True))
    def get_clock(self, match: Match) -> dict[str, Any] | None:
        """The match clock's reserves and state, stored with the result (None: no clock)."""
        clock = clock_of(match)
        return clock_payload(clock) if clock is not None else None
