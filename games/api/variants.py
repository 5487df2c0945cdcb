"""The variants API: the registry (``GET /api/v1/variants/``) and the legal plays of a
position in any variant (``POST /api/v1/variants/{key}/plays/``), for board apps and
integrators. Public reads: no account needed, throttled per client.

The position's JSON form counts every point from the mover's side (point 1 is the
mover's last point before bearing off, 24 the first, where the English game starts two
men), for both sides: ``opponent.points[i]`` is the opponent's men on the mover's point
``i + 1``, whatever the variant's directions. The engine's own numbering (each side
counted from its home table) stays inside :mod:`games.rules.variants`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from games.rules.errors import RuleViolation
from games.rules.limits import MAX_PLAYS_ANSWERED
from games.rules.variants import REGISTRY, all_variants
from games.rules.variants.base import BAR, OFF, SLOTS, UNENTERED, Variant
from games.rules.variants.engine import LegalPlay, format_steps
from games.rules.variants.position import VariantPosition
from games.rules.variants.scoring import game_result
from games.rules.variants.throws import Stage, Throw, legal_plays

from .variant_shapes import VariantListSerializer, VariantPlaysSerializer


class _Public(APIView):
    permission_classes = [AllowAny]
    # per user, or per client address for anonymous callers (THROTTLE_VARIANTS)
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "variants"


# --------------------------------------------------------------------------------------
# the position's JSON form


class SideSerializer(serializers.Serializer):
    points = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=15),
        min_length=24,
        max_length=24,
        help_text="Men on the mover's points 1..24 (index 0 is point 1).",
    )
    bar = serializers.IntegerField(min_value=0, max_value=15, default=0)
    off = serializers.IntegerField(min_value=0, max_value=15, default=0)
    not_entered = serializers.IntegerField(
        min_value=0, max_value=15, default=0, help_text="Men not yet entered."
    )
    pinned = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=24),
        max_length=24,
        default=list,
        help_text="Plakoto: the mover's points where this side's man lies pinned.",
    )


class PositionSerializer(serializers.Serializer):
    mover = SideSerializer()
    opponent = SideSerializer()


#: The stages of a throw, named ``VariantThrowStageEnum`` in the schema (settings).
STAGE_CHOICES = [(s.value, s.value) for s in Stage]


class ThrowSerializer(serializers.Serializer):
    stage = serializers.ChoiceField(choices=STAGE_CHOICES, default=Stage.ROLL.value)
    chosen = serializers.IntegerField(min_value=1, max_value=6, required=False, allow_null=True)
    earlier_doublets = serializers.BooleanField(
        default=False, help_text="Has the mover thrown doublets before in this game?"
    )


class PlaysRequestSerializer(serializers.Serializer):
    position = PositionSerializer(
        required=False, help_text="Omitted: the variant's starting position."
    )
    dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6), min_length=2, max_length=2
    )
    throw = ThrowSerializer(required=False)
    options = serializers.DictField(
        child=serializers.BooleanField(), required=False, help_text="House options by key."
    )


def _own(
    variant: Variant, side: dict[str, Any], *, opponent: bool
) -> tuple[tuple[int, ...], frozenset[int]]:
    counts = [0] * SLOTS
    for index, men in enumerate(side["points"]):
        p = index + 1
        counts[variant.opposing_point(p) if opponent else p] = men
    counts[BAR] = side["bar"]
    counts[OFF] = side["off"]
    counts[UNENTERED] = side["not_entered"]
    pins = frozenset(variant.opposing_point(p) if opponent else p for p in side["pinned"])
    return tuple(counts), pins


def read_position(variant: Variant, data: dict[str, Any] | None) -> VariantPosition:
    if data is None:
        return VariantPosition.start(variant)
    me, me_pinned = _own(variant, data["mover"], opponent=False)
    opp, opp_pinned = _own(variant, data["opponent"], opponent=True)
    return VariantPosition(me, opp, me_pinned, opp_pinned)


def _side_json(
    variant: Variant, counts: tuple[int, ...], pins: frozenset[int], *, opponent: bool
) -> dict[str, Any]:
    def mover_point(q: int) -> int:
        return variant.opposing_point(q) if opponent else q

    points = [0] * 24
    for q in range(1, 25):
        points[mover_point(q) - 1] = counts[q]
    return {
        "points": points,
        "bar": counts[BAR],
        "off": counts[OFF],
        "not_entered": counts[UNENTERED],
        "pinned": sorted(mover_point(q) for q in pins),
    }


def position_json(variant: Variant, position: VariantPosition) -> dict[str, Any]:
    return {
        "mover": _side_json(variant, position.me, position.me_pinned, opponent=False),
        "opponent": _side_json(variant, position.opp, position.opp_pinned, opponent=True),
    }


def _play_json(variant: Variant, play: LegalPlay) -> dict[str, Any]:
    result = game_result(variant, play.after)
    return {
        "moves": [list(step) for step in play.steps],
        "notation": format_steps(play.steps),
        "hits": list(play.hits),
        "position": position_json(variant, play.after),
        "result": None
        if result is None
        else {
            "winner": result.winner,
            "level": result.level.value,
            "points": result.points,
            "reason": result.reason,
        },
    }


def variant_json(variant: Variant) -> dict[str, Any]:
    return {
        "key": variant.key,
        "name": variant.name,
        "summary": variant.summary,
        "sources": list(variant.sources),
        "allows": variant.allows(),
        "options": [
            {
                "key": o.key,
                "default": o.default,
                "description": o.description,
                "source": o.source,
            }
            for o in variant.options
        ],
        "start": position_json(variant, VariantPosition.start(variant)),
        "gnubg_variation": variant.gnubg_variation,
        "engine_analysis": variant.engine_analysis,
    }


# --------------------------------------------------------------------------------------

_EMPTY = [0] * 24
_RUSSIAN_EXAMPLE = {
    "position": {
        "mover": {"points": _EMPTY, "bar": 0, "off": 0, "not_entered": 15, "pinned": []},
        "opponent": {"points": _EMPTY, "bar": 0, "off": 0, "not_entered": 15, "pinned": []},
    },
    "dice": [6, 6],
    "throw": {"stage": "roll", "earlier_doublets": True},
}


class VariantListView(_Public):
    """``GET /api/v1/variants/``: every registered variant, its sources and rules."""

    @extend_schema(
        responses={200: VariantListSerializer},
        examples=[
            OpenApiExample(
                "Two of the entries (abridged)",
                response_only=True,
                value={
                    "results": [
                        {
                            "key": "standard",
                            "name": "Backgammon",
                            "sources": ["The modern rules: ..."],
                            "allows": {"checkers": 15, "cube": True, "crawford": True},
                        },
                        {
                            "key": "plakoto",
                            "name": "Plakoto (tavli)",
                            "allows": {"contact": "pin", "cube": False},
                        },
                    ]
                },
            )
        ],
    )
    def get(self, request: Request) -> Response:
        return Response({"results": [variant_json(v) for v in all_variants()]})


class VariantPlaysView(_Public):
    """``POST /api/v1/variants/{key}/plays/``: the legal plays of a position.

    Bounded (issue #37, item 7): a spread Russian 1-1 has over a thousand plays and took
    0.4 s of CPU, so one client at the registry's rate burned more than a core. The
    answer carries at most ``MAX_PLAYS_ANSWERED`` plays (``truncated``, ``total``), and
    the endpoint has its own, lower rate (``variant_plays``, THROTTLE_VARIANT_PLAYS).
    """

    throttle_scope = "variant_plays"

    @extend_schema(
        request=PlaysRequestSerializer,
        responses={200: VariantPlaysSerializer},
        examples=[
            OpenApiExample(
                "Russian sixes: the first stage of a privileged doublet",
                request_only=True,
                value=_RUSSIAN_EXAMPLE,
            ),
            OpenApiExample(
                "The answer (one play shown)",
                response_only=True,
                value={
                    "variant": "russian",
                    "dice_played": [6, 6, 6, 6],
                    "next": "complementary",
                    "unplayed": 0,
                    "total": 1,
                    "truncated": False,
                    "plays": [
                        {
                            "moves": [[26, 19], [26, 19], [26, 19], [26, 19]],
                            "notation": "in/19 in/19 in/19 in/19",
                            "hits": [],
                            "position": {"mover": {"points": "...", "not_entered": 11}},
                            "result": None,
                        }
                    ],
                },
            ),
        ],
    )
    def post(self, request: Request, key: str) -> Response:
        if key not in REGISTRY:
            raise NotFound()
        variant = REGISTRY[key]
        body = PlaysRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        variant = variant.configured(data.get("options"))
        position = read_position(variant, data.get("position"))
        state = data.get("throw") or {}
        throw = Throw(
            dice=(data["dice"][0], data["dice"][1]),
            stage=Stage(state.get("stage", Stage.ROLL.value)),
            chosen=state.get("chosen"),
            earlier_doublets=state.get("earlier_doublets", False),
        )
        try:
            stage = legal_plays(variant, position, throw)
        except RuleViolation as err:
            if err.code == "bad_position" and err.field:
                raise RuleViolation(err.code, err.message, f"position.{err.field}") from None
            raise
        return Response(
            {
                "variant": variant.key,
                "dice_played": list(stage.dice),
                "next": stage.next.value,
                "unplayed": stage.unplayed,
                "plays": [_play_json(variant, play) for play in stage.plays[:MAX_PLAYS_ANSWERED]],
                "total": len(stage.plays),
                "truncated": len(stage.plays) > MAX_PLAYS_ANSWERED,
            }
        )
