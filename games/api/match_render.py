"""A match's detail body as a plain function: what every score entry answers.

``MatchDetailSerializer`` describes the body (the OpenAPI schema comes from it), but
building a ``ModelSerializer`` per response (copying its declared fields, deriving the
others from the model, one field object per value) cost about a quarter of a score
entry's CPU (profiled, issue 18 part 8). This function writes the same dictionary
straight from the match the service returned, with the serializer's own field
classes for the two values whose format DRF decides (date and time), so the body
stays exactly what the schema says. ``tests/games/api/test_match_render.py`` compares the
two on matches in every state.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import Game, Match, Player
from games.rules.scoring import next_game_facts
from games.selectors import next_game_open
from games.selectors_chances import winning_chances
from games.services import match_records

_DATETIME = serializers.DateTimeField()
_DATE = serializers.DateField()


def _when(value: Any) -> str | None:
    return None if value is None else _DATETIME.to_representation(value)


def _choice(value: Any) -> str | None:
    """A choice field's stored key as a plain string (what DRF's ``ChoiceField`` gives)."""
    return value if value in ("", None) else str(value)


def _player(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "display_name": player.display_name, "slug": player.slug}


def game_rows(match: Match) -> list[dict[str, Any]]:
    """The match's games as plain values: those the write read, or one query."""
    if match.game_rows is not None:
        return match.game_rows
    return list(
        Game.objects.filter(match_id=match.pk).order_by("number").values(*match_records.GAME_FIELDS)
    )


def game_body(g: dict[str, Any]) -> dict[str, Any]:
    """One game of the body (``GameSerializer``'s fields) from its stored values
    (:data:`~games.services.match_records.GAME_FIELDS`): the one mapping from a row to
    what a client sees, for this function and ``MatchDetailSerializer`` alike."""
    return {
        "number": g["number"],
        "score_before": [g["score1_before"], g["score2_before"]],
        "winner": g["winner_id"],
        "cube": g["cube"],
        "cube_owner": g["cube_owner"],
        "ending": g["ending"],
        "level": g["level"],
        "points": g["points"],
        "crawford": g["crawford"],
        "post_crawford": g["post_crawford"],
        "confirmed": g["confirmed"],
        "entered_by": g["entered_by_id"],
    }


def match_detail(match: Match) -> dict[str, Any]:
    """``MatchDetailSerializer(match).data``, equal key for key, without the serializer.

    The match comes with its club and players loaded (every match service returns it
    so, and ``matches_queryset`` reads it so).
    """
    rows = game_rows(match)
    crawford_played = any(g["crawford"] for g in rows)
    chances = winning_chances([match], crawford_played={match.pk: crawford_played})[match.pk]
    is_open = next_game_open(match)
    if is_open:
        next_is_crawford, next_post = next_game_facts(
            match_records.match_rules(match), (match.score1, match.score2), crawford_played
        )
    else:
        next_is_crawford = next_post = False
    return {
        "id": match.pk,
        "club": match.club.slug,
        "player1": _player(match.player1),
        "player2": _player(match.player2),
        "length": match.length,
        "crawford": match.crawford,
        "rated": match.rated,
        "cube_limit": match.cube_limit,
        "variant": match.variant,
        "status": _choice(match.status),
        "source": _choice(match.source),
        "score": [match.score1, match.score2],
        "winner": match.winner_id,
        "confirmation": _choice(match.confirmation),
        "awaiting": match.awaiting_id,
        "final_score_only": match.final_score_only,
        "label": match.label,
        "table": match.table,
        "played_on": None if match.played_on is None else _DATE.to_representation(match.played_on),
        "version": match.version,
        "created_at": _when(match.created_at),
        "finished_at": _when(match.finished_at),
        "winning_chances": None if chances is None else chances.as_list(),
        "games": [game_body(g) for g in rows],
        "crawford_game": next((g["number"] for g in rows if g["crawford"]), None),
        "next_game": len(rows) + 1 if is_open else None,
        "next_game_is_crawford": is_open and next_is_crawford,
        "post_crawford": any(g["post_crawford"] for g in rows) or (is_open and next_post),
    }
