"""Serializers of the chouette API: input parsers, and output built from the sheet."""

from __future__ import annotations

from typing import Any, cast

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.inputs import ClubRef
from games.models import Player
from games.rules import limits

from ..models import (
    ChouetteGame,
    Ending,
    Level,
    MemberAction,
    RuleProfile,
    Session,
    Side,
)
from ..records import GameInput, MemberInput
from ..rules import HOUSE_RULES, HouseRule
from ..selectors import Sheet, game_payouts
from .shapes import OpeningRollField

# --- input serializers (parse only) ---------------------------------------------------------


def house_rule_input(rule: HouseRule) -> serializers.Field:
    """The API's input field for ``rule``: optional, bounded as declared."""
    if rule.kind is bool:
        return serializers.BooleanField(required=False)
    if rule.kind is int:
        assert rule.minimum is not None and rule.maximum is not None  # HouseRule checks it
        return serializers.IntegerField(
            min_value=rule.minimum,
            max_value=rule.maximum,
            required=False,
            allow_null=rule.nullable,
        )
    return serializers.ChoiceField(choices=rule.choices, required=False)


class HouseRulesSerializer(serializers.Serializer):
    """Every house rule is optional: the profile's value stands unless given."""

    # A field per declared rule (chouette.rules.HOUSE_RULES, added by get_fields); the
    # column's bounds are checked here, the rules then name their own (3 or 4, ...).
    profile = serializers.ChoiceField(choices=RuleProfile.choices, default=RuleProfile.MODERN)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields.update({rule.name: house_rule_input(rule) for rule in HOUSE_RULES})
        return fields

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {unknown[0]: [f"Unknown house rule. Known: {', '.join(self.fields)}."]}
                )
        return super().to_internal_value(data)


@extend_schema_field(serializers.DictField(child=OpeningRollField()))
class RollsField(serializers.DictField):
    """``{"<player id>": roll}`` or ``{"<player id>": [roll, re-roll, ...]}``: described
    as the sheet's ``opening_rolls`` (a typed map), checked here as it was."""

    def to_internal_value(self, data: Any) -> dict[int, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                gettext_lazy("Rolls are an object: player id to roll(s).")
            )
        if len(data) > limits.MAX_SEATS:
            raise serializers.ValidationError(
                gettext_lazy("At most %(MAX_SEATS)s players roll for the order.")
                % {"MAX_SEATS": limits.MAX_SEATS},
                code="max_length",
            )
        rolls: dict[int, Any] = {}
        for key, value in data.items():
            try:
                pk = int(key)
            except (TypeError, ValueError):
                raise serializers.ValidationError(
                    gettext_lazy("%(key)r is not a player id.") % {"key": key}
                ) from None
            if isinstance(value, list) and len(value) > limits.MAX_ROLLS:
                raise serializers.ValidationError(
                    gettext_lazy(
                        "Player %(pk)s gave %(count)s rolls: at most %(MAX_ROLLS)s (the first "
                        "and its re-rolls)."
                    )
                    % {"pk": pk, "count": len(value), "MAX_ROLLS": limits.MAX_ROLLS},
                    code="max_length",
                )
            rolls[pk] = value
        return rolls


class SessionCreateSerializer(serializers.Serializer):
    club = ClubRef()
    stake = serializers.CharField(max_length=20, help_text="Money per point, e.g. '1.00'.")
    currency = serializers.CharField(max_length=3, default="EUR")
    played_on = serializers.DateField(required=False, allow_null=True)
    # a field named like DRF's Field.label attribute, which the stubs type as a string
    label = serializers.CharField(  # type: ignore[assignment]
        max_length=limits.MAX_LABEL, required=False, allow_blank=True, default=""
    )
    rules = HouseRulesSerializer(required=False)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=limits.MAX_ID),
        required=False,
        max_length=limits.MAX_SEATS,
        help_text="Box first, then the team.",
    )
    rolls = RollsField(required=False)


class ChouetteMemberInputSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=limits.MAX_ID)
    cube = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_CUBE, required=False, allow_null=True
    )
    action = serializers.ChoiceField(choices=MemberAction.choices, default=MemberAction.PLAYED)
    owner = serializers.ChoiceField(choices=Side.choices, required=False, allow_null=True)
    raccoon = serializers.BooleanField(default=False)
    stake = serializers.IntegerField(
        min_value=1,
        max_value=limits.MAX_STAKE_MULTIPLE,
        default=1,
        help_text="Stake multiple: 1, 2 or 4.",
    )
    taken_over = serializers.BooleanField(default=False)
    cube_turned = serializers.BooleanField(required=False, allow_null=True)


class ChouetteGameInputSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=Side.choices, required=False, allow_null=True)
    level = serializers.ChoiceField(choices=Level.choices, default=Level.SINGLE)
    ending = serializers.ChoiceField(choices=Ending.choices, required=False, allow_null=True)
    automatic_doubles = serializers.IntegerField(
        min_value=0, max_value=limits.MAX_AUTOMATIC_DOUBLES, default=0
    )
    partner = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_ID, required=False, allow_null=True
    )
    box = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_ID, required=False, allow_null=True
    )
    captain = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_ID, required=False, allow_null=True
    )
    members = ChouetteMemberInputSerializer(  # type: ignore[call-arg]  # stubs lack it (DRF 3.14)
        many=True, allow_empty=False, max_length=limits.MAX_SEATS
    )
    number = serializers.IntegerField(
        min_value=1,
        max_value=limits.MAX_GAME_NUMBER,
        required=False,
        allow_null=True,
        help_text="Which game this is; if it is already recorded the answer is 409.",
    )

    def to_game_input(self) -> GameInput:
        data = self.validated_data
        return GameInput(
            members=tuple(
                MemberInput(
                    player_id=m["player"],
                    cube=m.get("cube"),
                    action=m["action"],
                    owner=m.get("owner"),
                    raccoon=m["raccoon"],
                    stake=m["stake"],
                    taken_over=m["taken_over"],
                    cube_turned=m.get("cube_turned"),
                )
                for m in data["members"]
            ),
            winner=data.get("winner"),
            level=data["level"],
            ending=data.get("ending"),
            automatic_doubles=data["automatic_doubles"],
            partner_id=data.get("partner"),
            box_id=data.get("box"),
            captain_id=data.get("captain"),
        )


class PlayerActionSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


# --- output (plain dicts from the sheet: no query per row) ----------------------------------


def _player(player: Player | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {"id": player.pk, "name": player.display_name}


def rules_data(session: Session) -> dict[str, Any]:
    return {"profile": session.profile, **{r.name: getattr(session, r.name) for r in HOUSE_RULES}}


def game_data(game: ChouetteGame, sheet: Sheet) -> dict[str, Any]:
    players = sheet.players
    return {
        "number": game.number,
        "box": game.box_id,
        "partner": game.partner_id,
        "captain": game.captain_id,
        "board_captain": game.board_captain_id,
        "team_order": game.team_order,
        "winner": game.winner or None,
        "board_winner": game.board_winner,
        "level": game.level,
        "ending": game.ending or None,
        "automatic_doubles": game.automatic_doubles,
        "members": [
            {
                "player": m.player_id,
                "cube": m.cube,
                "action": m.action,
                "owner": m.owner or None,
                "raccoon": m.raccoon,
                "stake": m.stake,
                "taken_over": m.taken_over,
                "points": m.points,
            }
            for m in game.members.all()
        ],
        "payouts": [
            {"player": pk, "name": players[pk].display_name, "points": points}
            for pk, points in game_payouts(game).items()
        ],
    }


def _totals(sheet: Sheet, totals: dict[int, int]) -> list[dict[str, Any]]:
    return [
        {"player": pk, "name": sheet.players[pk].display_name, "points": points}
        for pk, points in totals.items()
    ]


def ledger_data(sheet: Sheet) -> dict[str, Any]:
    return {
        "games": [
            {
                "number": entry.game.number,
                "payouts": _totals(sheet, cast("dict[int, int]", dict(entry.row.payouts))),
                "totals": _totals(sheet, cast("dict[int, int]", dict(entry.row.totals))),
            }
            for entry in sheet.ledger
        ],
        "totals": [
            {
                "player": pk,
                "name": sheet.players[pk].display_name,
                "points": points,
                "money": str(sheet.money[pk]),
            }
            for pk, points in sheet.totals.items()
        ],
        "currency": sheet.session.currency,
        "stake": str(sheet.session.stake),
    }


def settlement_data(sheet: Sheet) -> dict[str, Any]:
    ledger = ledger_data(sheet)
    return {
        "status": sheet.session.status,
        "currency": sheet.session.currency,
        "stake": str(sheet.session.stake),
        "totals": ledger["totals"],
        "transfers": [
            {
                "payer": t.payer,
                "payer_name": sheet.players[cast(int, t.payer)].display_name,
                "payee": t.payee,
                "payee_name": sheet.players[cast(int, t.payee)].display_name,
                "amount": str(t.amount),
            }
            for t in sheet.transfers
        ],
    }


def next_data(sheet: Sheet) -> dict[str, Any]:
    nxt = sheet.next
    return {
        "number": len(sheet.games) + 1,
        "box": _player(nxt.box),
        "captain": _player(nxt.captain),
        "partner": _player(nxt.partner),
        "partner_to_name": nxt.partner_to_name,
        "team": [_player(p) for p in nxt.team],
    }


def session_data(sheet: Sheet) -> dict[str, Any]:
    session = sheet.session
    last = sheet.last_game
    return {
        "id": session.pk,
        "club": session.club.slug,
        "played_on": session.played_on.isoformat(),
        "label": session.label,
        "stake": str(session.stake),
        "currency": session.currency,
        "status": session.status,
        "version": session.version,
        "rules": rules_data(session),
        "opening_order": session.opening_order,
        "opening_rolls": session.opening_rolls,
        "seats": [
            {
                "player": seat.player_id,
                "name": seat.player.display_name,
                "joined_at": seat.joined_at.isoformat(),
                "left_at": seat.left_at.isoformat() if seat.left_at else None,
                "seated": seat.left_at is None,
            }
            for seat in sheet.seats
        ],
        "next": next_data(sheet),
        "box": _player(sheet.next.box),
        "captain": _player(sheet.next.captain),
        "partner": _player(sheet.next.partner),
        "team": [p.pk for p in sheet.next.team],
        "games": len(sheet.games),
        "last_game": game_data(last, sheet) if last is not None else None,
        "totals": ledger_data(sheet)["totals"],
    }
