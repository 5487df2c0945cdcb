"""What the playing room sees: slot labels, table numbers, the matches in play, a
round's score cards and the big screen's change marker.

Reads only, on top of :mod:`tournaments.selectors`; each costs a fixed number of
queries whatever the event's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Sum
from django.utils.translation import gettext as _

from games.cards import Card, card_for
from games.models import Match
from games.selectors import matches_queryset
from games.selectors_chances import Chances, winning_chances
from tournaments.formats.labels import short_label, slot_label
from tournaments.models import PairingStatus, Round, Tournament

from . import selectors
from .selectors_odds import odds_marker as latest_odds_marker


def pairing_labels(view: selectors.BracketView, *, short: bool = False) -> dict[int, str]:
    """Each pairing's human label ("Consolation, round 1, match 2"), by pairing id; with
    ``short``, its short label ("C1-2")."""
    labels: dict[int, str] = {}
    for stage in view.stages:
        rounds = view.rounds[stage.pk]
        for round_ in rounds:
            pairings = view.pairings.get(round_.pk, [])
            for p in pairings:
                if short:
                    labels[p.pk] = short_label(
                        stage_kind=stage.kind,
                        round_number=round_.number,
                        slot=p.slot,
                        group=stage.group,
                    )
                    continue
                labels[p.pk] = slot_label(
                    stage_kind=stage.kind,
                    round_number=round_.number,
                    slot=p.slot,
                    rounds_in_stage=len(rounds),
                    matches_in_round=len(pairings),
                    group=stage.group,
                    bye=p.status == PairingStatus.BYE and p.entry2_id is None,
                )
    return labels


def match_tables(tournament: Tournament) -> dict[int, int | None]:
    """The table of each of the event's matches, by match id (one query)."""
    return dict(
        Match.objects.filter(tournament_pairing__tournament=tournament).values_list("pk", "table")
    )


@dataclass(frozen=True)
class RoomMatch:
    """A pairing as the room shows it: label, table, the two entries."""

    row: selectors.PairingRow
    label: str
    table: int | None
    one: selectors.EntryRow | None
    two: selectors.EntryRow | None
    round_id: int
    short: str = ""  # "M1-3": the big screen's match column (``formats.labels.short_label``)


def _table_order(m: RoomMatch) -> int:
    """By table; a match without a table goes last."""
    return m.table if m.table is not None else 10**6


def matches_in_play(view: selectors.BracketView) -> list[RoomMatch]:
    """The pairings ready to play with their match, by table (then board order)."""
    labels = pairing_labels(view)
    shorts = pairing_labels(view, short=True)
    tables = match_tables(view.tournament)
    playing = [
        RoomMatch(
            row=p,
            label=labels.get(p.pk, p.key),
            table=tables.get(p.match_id) if p.match_id else None,
            one=view.entries.get(p.entry1_id) if p.entry1_id else None,
            two=view.entries.get(p.entry2_id) if p.entry2_id else None,
            round_id=p.round_id,
            short=shorts.get(p.pk, p.key),
        )
        for rows in view.pairings.values()
        for p in rows
        if p.status == PairingStatus.READY and p.match_id
    ]
    return sorted(playing, key=_table_order)  # stable: board order among equal tables


def chances_in_play(playing: list[RoomMatch]) -> dict[int, Chances | None]:
    """Each match in play's winning chances, by match id (docs/chances.md).

    Three queries at most, whatever the number of matches: the matches with their
    clubs, the players' ratings, and the Crawford games of those at match point.
    """
    ids = [p.row.match_id for p in playing if p.row.match_id]
    if not ids:
        return {}
    return winning_chances(matches_queryset().filter(pk__in=ids))


def rounds_in_play(view: selectors.BracketView) -> list[tuple[Round, str]]:
    """The rounds with a match ready to play, each with its name, for the card links."""
    ready = {
        p.round_id
        for rows in view.pairings.values()
        for p in rows
        if p.status == PairingStatus.READY and p.match_id
    }
    found = []
    for stage in view.stages:
        for round_ in view.rounds[stage.pk]:
            if round_.pk in ready:
                found.append((round_, round_name(round_, stage)))
    return found


def every_round(view: selectors.BracketView) -> list[tuple[Round, str]]:
    """Every round drawn so far, each with its name (the dashboard's clock settings:
    a director may set the final's policy before its match is ready)."""
    return [
        (round_, round_name(round_, stage))
        for stage in view.stages
        for round_ in view.rounds[stage.pk]
    ]


def round_name(round_: Round, stage: object) -> str:
    """ "Main, round 2", "Swiss, round 3", "Group 2, round 1", in the page's language
    (the stage names are translated; the round word must be too)."""
    return _("%(stage)s, round %(number)s") % {"stage": stage, "number": round_.number}


def round_cards(tournament: Tournament, round_id: int) -> tuple[Round, list[Card]] | None:
    """A round and the score card of each of its matches, by table (None: no such
    round in this event). Byes and walkovers have no match and no card."""
    round_ = (
        Round.objects.filter(pk=round_id, stage__tournament=tournament)
        .select_related("stage")
        .first()
    )
    if round_ is None:
        return None
    view = selectors.bracket_view(tournament)
    labels = pairing_labels(view)
    rows = [p for p in view.pairings.get(round_.pk, []) if p.match_id]
    matches = (
        Match.objects.filter(pk__in=[p.match_id for p in rows])
        .select_related("club", "player1", "player2", "winner")
        .prefetch_related("games__winner")
        .in_bulk()
    )
    cards = [card_for(matches[p.match_id], list(matches[p.match_id].games.all()), labels[p.pk])
             for p in rows]  # fmt: skip
    cards.sort(key=lambda c: c.match.table if c.match.table is not None else 10**6)
    return round_, cards


def screen_marker(tournament: Tournament, *, odds_marker: str | None = None) -> str:
    """Changes whenever anything the big screen shows changes: the event's version
    (results, pairings, entries) and its matches' versions (a game entered, a table
    moved; versions only grow, so their sum and count move with every write), and the
    odds (a snapshot computed a few seconds after a result; ``odds_marker`` when the
    caller has read it already)."""
    totals = Match.objects.filter(tournament_pairing__tournament=tournament).aggregate(
        versions=Sum("version"), matches=Count("id")
    )
    return (
        f"{tournament.version}.{totals['versions'] or 0}.{totals['matches']}"
        f".{odds_marker if odds_marker is not None else latest_odds_marker(tournament)}"
    )
