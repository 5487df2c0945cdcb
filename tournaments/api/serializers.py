"""Serializers of the tournaments API: input parsers, and output built from selectors."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api_jobs import job_answer
from games.api.inputs import ClubRef
from games.models import Club
from games.rules import limits
from tournaments import options as tournament_options
from tournaments.api import config_shapes, shapes
from tournaments.models import (
    Entry,
    SeedingMethod,
    Tournament,
)
from tournaments.options import OptionKind, TournamentOption
from tournaments.selectors import BracketView, EntryRow, PairingRow, Standing, StandingsTable


class TournamentSerializer(serializers.ModelSerializer):
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    entry_count = serializers.IntegerField(read_only=True, default=None)
    # the JSON columns, as the services write them (config_shapes), not "anything"
    consolation_from = config_shapes.feeding_rounds(read_only=True)
    last_chance_from = config_shapes.feeding_rounds(read_only=True)
    feed_orders = config_shapes.feed_orders(read_only=True)
    tie_breaks = config_shapes.tie_breaks(read_only=True)
    match_lengths = config_shapes.match_lengths(read_only=True)
    prize_order = config_shapes.prize_order(read_only=True)
    clock_rounds = config_shapes.clock_rounds(read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "slug",
            "club",
            "name",
            "status",
            "format",
            "starts_on",
            "ends_on",
            "consolation_from",
            "last_chance_from",
            "grand_final_reset",
            "feed_orders",
            "seeding",
            "random_seed",
            "tie_breaks",
            "swiss_rounds",
            "max_losses",
            "groups",
            "playoff_qualifiers",
            "match_lengths",
            "crawford",
            "rated",
            "variant",
            "bye_is_win",
            "forfeit_feeds_consolation",
            "prize_order",
            "clock_policy",
            "clock_preset",
            "clock_flag_rule",
            "clock_overtime_ms",
            "clock_rounds",
            "capacity",
            "check_in_required",
            "auto_call_rounds",
            "table_first",
            "table_last",
            "entry_count",
            "version",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields


def option_input(option: TournamentOption) -> serializers.Field:
    """The API's input field of a declared option (``tournaments.option_catalog``)."""
    common: dict[str, Any] = {"required": option.required}
    if option.api_help:
        common["help_text"] = option.api_help
    kind = option.kind
    if kind == OptionKind.TEXT:
        assert option.max_length is not None  # TournamentOption checks it
        return serializers.CharField(max_length=option.max_length, **common)
    if kind == OptionKind.DATE:
        return serializers.DateField(allow_null=option.nullable, **common)
    if kind == OptionKind.BOOL:
        return serializers.BooleanField(**common)
    if kind == OptionKind.INT:
        if option.nullable:
            common["allow_null"] = True
        assert option.minimum is not None and option.maximum is not None  # checked
        return serializers.IntegerField(
            min_value=option.minimum, max_value=option.maximum, **common
        )
    if kind == OptionKind.CHOICE:
        assert option.choices is not None  # TournamentOption checks it
        return serializers.ChoiceField(choices=list(option.choices()), **common)
    return getattr(config_shapes, option.shape)(**common)  # lists and JSON columns


class ConfigSerializer(serializers.Serializer):
    """Every option of an event; on PATCH only those given change."""

    # A field per declared option (tournaments.option_catalog), added by get_fields, in
    # the declaration's order, before a subclass's own fields.
    def get_fields(self) -> dict[str, serializers.Field]:
        declared = {o.name: option_input(o) for o in tournament_options.options()}
        return {**declared, **super().get_fields()}


class CreateSerializer(ConfigSerializer):
    club = ClubRef()
    slug = serializers.SlugField(
        max_length=limits.MAX_TOURNAMENT_SLUG, required=False, allow_blank=True
    )


class EntryInputSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=limits.MAX_ID, help_text="Player id.")


class SeedInputSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=SeedingMethod.choices, required=False)
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=limits.MAX_ID),
        required=False,
        max_length=1024,
        help_text="Entry ids, seed 1 first (manual).",
    )
    random_seed = serializers.IntegerField(min_value=0, max_value=limits.MAX_SEED, required=False)


class NextRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(
        min_value=1,
        max_value=limits.MAX_INT16,
        required=False,
        help_text="The round you mean (idempotent).",
    )


class ForfeitInputSerializer(serializers.Serializer):
    winner = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_ID, help_text="Entry id of the player who advances."
    )


class SwapInputSerializer(serializers.Serializer):
    entry_a = serializers.IntegerField(min_value=1, max_value=limits.MAX_ID)
    entry_b = serializers.IntegerField(min_value=1, max_value=limits.MAX_ID)


class RedrawSerializer(serializers.Serializer):
    random_seed = serializers.IntegerField(min_value=0, max_value=limits.MAX_SEED, required=False)


class EntrySerializer(serializers.ModelSerializer):
    player = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = [
            "id",
            "player",
            "seed",
            "status",
            "late",
            "registered_at",
            "withdrawn_at",
            "checked_in_at",
            "waitlist_position",
        ]

    @extend_schema_field(shapes.EntryPlayerSerializer)
    def get_player(self, entry: Entry) -> dict[str, Any]:
        p = entry.player
        return {"id": p.pk, "display_name": p.display_name, "slug": p.slug}


def player_ref(entry: EntryRow | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {
        "entry": entry.pk,
        "id": entry.player_id,
        "display_name": entry.display_name,
        "slug": entry.slug,
        "seed": entry.seed,
        "status": entry.status,
    }


def pairing_data(p: PairingRow, entries: dict[int, EntryRow]) -> dict[str, Any]:
    return {
        "key": p.key,
        "slot": p.slot,
        "status": p.status,
        "player1": player_ref(entries.get(p.entry1_id)) if p.entry1_id else None,
        "player2": player_ref(entries.get(p.entry2_id)) if p.entry2_id else None,
        "bye": p.status == "bye",
        "winner": p.winner_id,
        "forfeit": p.forfeit,
        "stale": p.stale,
        "stale_reason": p.stale_reason or None,
        "match": p.match_id,
        "match_status": p.match_status,
        "score": list(p.match_score) if p.match_score else None,
        "length": p.match_length,
        "winner_to": p.winner_to or None,
        "loser_to": p.loser_to or None,
        **({} if p.replaced_matches is None else {"replaced_matches": p.replaced_matches}),
    }


def bracket_data(view: BracketView, champion: int | None) -> dict[str, Any]:
    stages = []
    for stage in view.stages:
        rounds = []
        for round_ in view.rounds[stage.pk]:
            rounds.append(
                {
                    "number": round_.number,
                    "match_length": round_.match_length,
                    "status": round_.status,
                    "pairings": [
                        pairing_data(p, view.entries) for p in view.pairings.get(round_.pk, [])
                    ],
                }
            )
        stages.append(
            {"kind": stage.kind, "name": str(stage), "group": stage.group or None, "rounds": rounds}
        )
    return {
        "tournament": view.tournament.slug,
        "format": view.tournament.format,
        "status": view.tournament.status,
        "version": view.tournament.version,
        "champion": champion,
        "stages": stages,
    }


def places_data(table: StandingsTable) -> list[dict[str, Any]]:
    """Elimination: each decided finishing place with the players sharing it."""
    return [
        {"place": p.label, "block": p.block, "players": [player_ref(e) for e in p.entries]}
        for p in table.places
    ]


def standings_data(rows: list[Standing]) -> list[dict[str, Any]]:
    return [
        {
            "rank": s.row.rank,
            "place": s.place,
            "player": player_ref(s.entry),
            "played": s.row.played,
            "wins": s.row.wins,
            "losses": s.row.losses,
            "byes": s.row.byes,
            "forfeit_wins": s.row.forfeit_wins,
            "forfeit_losses": s.row.forfeit_losses,
            "withdrawn": s.entry.status == "withdrawn",
            "note": "forfeit" if s.row.forfeit_losses or s.row.forfeit_wins else None,
            "tie_breaks": dict(zip((k.value for k in s.row.values), s.values, strict=True)),
        }
        for s in rows
    ]


class OddsPlaceSerializer(serializers.Serializer):
    """A finishing place of the event: ``size`` entrants share it."""

    # DRF's metaclass takes declared fields off the class, so this never replaces
    # Field.label; the stubs cannot know that
    label = serializers.CharField()  # type: ignore[assignment]
    size = serializers.IntegerField()


class OddsEntrySerializer(serializers.Serializer):
    """One entrant's chances (0 to 1)."""

    player = shapes.EntrantSerializer(help_text="The entry and its player, as in the standings.")
    win = serializers.FloatField(help_text="Chance to win the event.")
    final = serializers.FloatField(
        allow_null=True, help_text="Chance to play the final (null for a Swiss: no final)."
    )
    places = serializers.DictField(
        child=serializers.FloatField(),
        help_text="Chance to finish in each place, by label, in the event's prize order.",
    )


class OddsHistorySerializer(serializers.Serializer):
    computed_at = serializers.DateTimeField()
    results = serializers.IntegerField(help_text="Decided matches when computed.")
    win = serializers.DictField(
        child=serializers.FloatField(), help_text="Chance to win by entry id (the leaders)."
    )


class OddsSerializer(serializers.Serializer):
    """The latest event odds (docs/chances.md, "Event odds": the model, its error, Swiss)."""

    tournament = serializers.CharField()
    available = serializers.BooleanField(help_text="False when the format has no odds yet.")
    reason = serializers.CharField(allow_null=True)
    computed_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(
        allow_null=True, help_text="The tournament version the odds were computed from."
    )
    up_to_date = serializers.BooleanField(
        help_text="False while a newer result waits for its computation (see ``job``)."
    )
    results = serializers.IntegerField(allow_null=True)
    method = serializers.ChoiceField(
        choices=["exact", "monte_carlo", "swiss_approximation"], allow_null=True
    )
    simulations = serializers.IntegerField(allow_null=True, help_text="0 when exact.")
    standard_error = serializers.FloatField(
        allow_null=True,
        help_text="The largest standard error of any probability: 0.5 / sqrt(simulations).",
    )
    places = OddsPlaceSerializer(many=True)
    entries = OddsEntrySerializer(many=True)
    leaders = serializers.ListField(child=serializers.IntegerField())
    history = OddsHistorySerializer(many=True)
    job = job_answer(allow_null=True, help_text="The odds job queued or running.")


def odds_data(view: Any, job: dict[str, Any] | None) -> dict[str, Any]:
    snapshot = view.snapshot
    return {
        "tournament": view.tournament.slug,
        "available": view.reason is None,
        "reason": view.reason,
        "computed_at": snapshot.computed_at if snapshot else None,
        "version": snapshot.version if snapshot else None,
        "up_to_date": view.up_to_date,
        "results": snapshot.results if snapshot else None,
        "method": snapshot.method if snapshot else None,
        "simulations": snapshot.simulations if snapshot else None,
        "standard_error": snapshot.standard_error if snapshot else None,
        "places": snapshot.places if snapshot else [],
        "entries": [
            {
                "player": player_ref(row.entry),
                "win": row.win,
                "final": row.final,
                "places": dict(row.places),
            }
            for row in view.rows
        ],
        "leaders": [e.pk for e in view.leaders],
        "history": [
            {"computed_at": h.computed_at, "results": h.results, "win": h.win} for h in view.history
        ],
        "job": job,
    }
