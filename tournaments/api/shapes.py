"""The shapes of the tournament reads built from selectors (bracket, standings, places,
the drop map).

These answers are rendered by plain functions (``serializers.bracket_data`` and its
neighbours: a big event's bracket is thousands of rows, rendered once per version), so
the serializers here only *describe* them for the OpenAPI schema: a generated client
gets typed models instead of free-form objects. ``tests/tournaments/api/test_read_shapes.py``
checks each real answer against its description, so the two cannot drift apart.
"""

from __future__ import annotations

from rest_framework import serializers

from tournaments.formats.standings import TieBreak
from tournaments.models import StageKind


class EntrantSerializer(serializers.Serializer):
    """An entry and its player, as every tournament read names them."""

    entry = serializers.IntegerField(help_text="The entry id.")
    id = serializers.IntegerField(help_text="The player id.")
    display_name = serializers.CharField()
    slug = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="active, withdrawn or waitlisted.")


class EntryPlayerSerializer(serializers.Serializer):
    """The player of an entry, as the entries list shows them."""

    id = serializers.IntegerField()
    display_name = serializers.CharField()
    slug = serializers.CharField()


class PairingSerializer(serializers.Serializer):
    """A slot of a round: its two players (or a bye), its match, where players go next."""

    key = serializers.CharField()
    slot = serializers.IntegerField()
    status = serializers.CharField(help_text="waiting, ready, played, bye, empty or not_needed.")
    player1 = EntrantSerializer(allow_null=True)
    player2 = EntrantSerializer(allow_null=True)
    bye = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True, help_text="The winner's entry id.")
    forfeit = serializers.BooleanField()
    stale = serializers.BooleanField()
    stale_reason = serializers.CharField(allow_null=True)
    match = serializers.IntegerField(allow_null=True, help_text="The match id.")
    match_status = serializers.CharField(allow_null=True)
    score = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Player 1's and player 2's points.",
    )
    length = serializers.IntegerField(allow_null=True)
    winner_to = serializers.CharField(allow_null=True, help_text="The key the winner plays next.")
    loser_to = serializers.CharField(allow_null=True, help_text="The key the loser plays next.")
    replaced_matches = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Matches this pairing replaced (a forfeit's or reissue's answer only).",
    )


class BracketRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    match_length = serializers.IntegerField()
    status = serializers.CharField(help_text="pending, playing or complete.")
    pairings = PairingSerializer(many=True)


class BracketStageSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=StageKind.choices)
    name = serializers.CharField()
    group = serializers.IntegerField(allow_null=True, help_text="A round-robin group's number.")
    rounds = BracketRoundSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    """Every stage, round and pairing of the event."""

    tournament = serializers.CharField()
    format = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    champion = serializers.IntegerField(allow_null=True, help_text="The champion's entry id.")
    stages = BracketStageSerializer(many=True)


class PlaceSerializer(serializers.Serializer):
    """A decided finishing place of an elimination event and the players sharing it."""

    place = serializers.CharField(help_text='The place\'s label: "1", "3-4", "Consolation 1".')
    block = serializers.CharField(help_text="The bracket it was decided in.")
    players = EntrantSerializer(many=True)


class TieBreakValuesSerializer(serializers.Serializer):
    """A row's tie-break values, by tie-break (only the event's tie-breaks appear)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {tie_break.value: serializers.FloatField(required=False) for tie_break in TieBreak}


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    place = serializers.CharField(
        allow_null=True, help_text="Elimination: the finishing place; null while in play."
    )
    player = EntrantSerializer()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    forfeit_wins = serializers.IntegerField()
    forfeit_losses = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    note = serializers.CharField(allow_null=True, help_text='"forfeit" or null.')
    tie_breaks = TieBreakValuesSerializer()


class StandingsSerializer(serializers.Serializer):
    """Standings from the results: places for elimination, tie-breaks otherwise."""

    tournament = serializers.CharField()
    tie_breaks = serializers.ListField(child=serializers.CharField())
    winner = EntrantSerializer(allow_null=True)
    places = PlaceSerializer(many=True)
    standings = StandingSerializer(many=True)


class DropMapFeedSerializer(serializers.Serializer):
    """Which rounds of a stage feed another, as asked and as wired."""

    stage = serializers.CharField(help_text="The stage fed.")
    from_stage = serializers.CharField()
    asked = serializers.ListField(child=serializers.IntegerField(), help_text="Rounds asked for.")
    rounds = serializers.ListField(child=serializers.IntegerField(), help_text="Rounds wired.")
    note = serializers.CharField(help_text="One sentence for the director.")


class DropSerializer(serializers.Serializer):
    """Where the loser of one match goes (nowhere: out)."""

    match = serializers.CharField()
    stage = serializers.CharField()
    round = serializers.IntegerField()
    to_match = serializers.CharField(allow_null=True, help_text="Null: the loser is out.")
    to_stage = serializers.CharField(allow_null=True)
    to_round = serializers.IntegerField(allow_null=True)
    to_side = serializers.IntegerField(allow_null=True)


class DropMapSerializer(serializers.Serializer):
    """Where every loser goes, and how many matches could be early rematches."""

    entries = serializers.IntegerField()
    matches = serializers.IntegerField()
    possible_rematches = serializers.IntegerField()
    possible_rematch_matches = serializers.ListField(child=serializers.CharField())
    feeds = DropMapFeedSerializer(many=True)
    drops = DropSerializer(many=True)
