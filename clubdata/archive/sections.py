"""What a club archive holds: one section per kind of row, in the order they are written.

Each :class:`Section` names the model, the club's rows of it, and how its references
are written. A reference to another row of the archive is that row's position in its
section (1 for the first), never a database id: ``"player1": 3`` is the third row of
``players``. The rows of a section are written in primary-key order, so an import
(which inserts them in the same order) and an export of the import give the same file.

Fields are the model's own columns, by name, except: the primary key (never written);
the link to the club (implied: the archive is one club's); and links to user accounts
(``created_by``, ``recorded_by``, ...), which stay on the site they were made on.
JSON columns that hold ids (a bracket's seed order, a chouette's lineup, the money
splits) are written with references in place of the ids (``json_refs``).

The sections' order is the order of creation on import: every section refers only to
sections before it, except the JSON references, which are settled at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models

from chouette import models as chouette
from games import models as games
from money import models as money
from tournaments import models as tournaments

#: The shapes of ids a JSON column may hold (``Section.json_refs``).
IDS = "ids"  # a list of ids: [12, 14, null]
ID_GROUPS = "id_groups"  # a list of lists of ids: [[12, 14], [9]]
ID_KEYS = "id_keys"  # an object keyed by ids: {"12": 5, "14": 3}
ID = "id"  # one id in an integer column (a rating list's last applied match)


@dataclass(frozen=True)
class Section:
    """One kind of row in the archive (see the module)."""

    name: str
    model: type[models.Model]
    rows: Callable[[games.Club], models.QuerySet[Any]]
    refs: Mapping[str, str] = field(default_factory=dict)
    """Foreign keys to rows of the archive: field name -> section."""
    club_field: str | None = None
    """The field that links the row to the club (implied, not written)."""
    json_refs: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Columns holding ids: field name -> (shape, section)."""
    many: Mapping[str, str] = field(default_factory=dict)
    """Many-to-many fields to rows of the archive: field name -> section."""
    single: bool = False
    """At most one row per club (written as an object or null, not a list)."""
    below_zero: tuple[str, ...] = ()
    """Amounts the app itself writes below their model's ``MinValueValidator(0)``: read
    with the column's type and digits but not that minimum (issue 41: a prize paid out
    is a payment of minus the amount, ``money.services.payments.record_payout``, so a
    club that had paid its prizes could not be imported)."""

    def columns(self) -> list[models.Field[Any, Any]]:
        """The model's columns written as values (not references, not dropped)."""
        return [
            f for f in self.model._meta.concrete_fields if not f.primary_key and not f.is_relation
        ]

    def dropped(self) -> list[str]:
        """Links to user accounts: set to null on import."""
        user = get_user_model()
        return [
            f.name
            for f in self.model._meta.concrete_fields
            if f.is_relation and f.related_model is user
        ]


def _club(model: type[models.Model], path: str = "club") -> Callable[..., Any]:
    return lambda club: model._default_manager.filter(**{path: club}).order_by("pk")


P = "players"

SECTIONS: tuple[Section, ...] = (
    Section("players", games.Player, lambda club: games.Player.objects.none()),
    Section("memberships", games.Membership, _club(games.Membership), {"player": P}, "club"),
    Section(
        "matches",
        games.Match,
        _club(games.Match),
        {"player1": P, "player2": P, "winner": P, "awaiting": P},
        "club",
    ),
    Section(
        "games",
        games.Game,
        _club(games.Game, "match__club"),
        {"match": "matches", "winner": P, "entered_by": P},
    ),
    Section(
        "disputes",
        games.Dispute,
        _club(games.Dispute, "match__club"),
        {"match": "matches", "raised_by": P},
    ),
    Section(
        "clocks", games.MatchClock, _club(games.MatchClock, "match__club"), {"match": "matches"}
    ),
    Section(
        "clock_turns",
        games.ClockTurn,
        _club(games.ClockTurn, "clock__match__club"),
        {"clock": "clocks", "reported_by": P},
    ),
    Section(
        "rating_lists",
        games.RatingList,
        _club(games.RatingList),
        club_field="club",
        json_refs={"applied_match_id": (ID, "matches")},
    ),
    Section(
        "ratings",
        games.Rating,
        _club(games.Rating, "rating_list__club"),
        {"rating_list": "rating_lists", "player": P},
    ),
    Section(
        "rating_changes",
        games.RatingChange,
        _club(games.RatingChange, "rating_list__club"),
        {"rating_list": "rating_lists", "player": P, "match": "matches", "opponent": P},
    ),
    Section(
        "events",
        tournaments.Tournament,
        _club(tournaments.Tournament),
        club_field="club",
        json_refs={"bracket_order": (IDS, "entries")},
    ),
    Section(
        "entries",
        tournaments.Entry,
        _club(tournaments.Entry, "tournament__club"),
        {"tournament": "events", "player": P},
    ),
    Section(
        "stages",
        tournaments.Stage,
        _club(tournaments.Stage, "tournament__club"),
        {"tournament": "events"},
    ),
    Section(
        "rounds",
        tournaments.Round,
        _club(tournaments.Round, "stage__tournament__club"),
        {"stage": "stages"},
    ),
    Section(
        "pairings",
        tournaments.Pairing,
        _club(tournaments.Pairing, "tournament__club"),
        {
            "tournament": "events",
            "round": "rounds",
            "entry1": "entries",
            "entry2": "entries",
            "match": "matches",
            "winner": "entries",
        },
        json_refs={"replaced_matches": (IDS, "matches")},
    ),
    Section(
        "round_calls",
        tournaments.RoundCall,
        _club(tournaments.RoundCall, "round__stage__tournament__club"),
        {"round": "rounds"},
    ),
    Section(
        "late_penalties",
        tournaments.LatePenalty,
        _club(tournaments.LatePenalty, "pairing__tournament__club"),
        {
            "pairing": "pairings",
            "match": "matches",
            "late_player": P,
            "awarded_to": P,
            "game": "games",
        },
    ),
    Section(
        "chouettes",
        chouette.Session,
        _club(chouette.Session),
        club_field="club",
        json_refs={
            "opening_order": (IDS, P),
            "lineup": (IDS, P),
            "opening_rolls": (ID_KEYS, P),
        },
    ),
    Section(
        "chouette_seats",
        chouette.Seat,
        _club(chouette.Seat, "session__club"),
        {"session": "chouettes", "player": P},
    ),
    Section(
        "chouette_events",
        chouette.SessionEvent,
        _club(chouette.SessionEvent, "session__club"),
        {"session": "chouettes", "player": P},
    ),
    Section(
        "chouette_games",
        chouette.ChouetteGame,
        _club(chouette.ChouetteGame, "session__club"),
        {
            "session": "chouettes",
            "event": "chouette_events",
            "given_partner": P,
            "box": P,
            "partner": P,
            "captain": P,
            "board_captain": P,
        },
        json_refs={"team_order": (IDS, P)},
    ),
    Section(
        "chouette_members",
        chouette.MemberResult,
        _club(chouette.MemberResult, "game__session__club"),
        {"game": "chouette_games", "player": P},
    ),
    Section("club_money", money.ClubMoney, _club(money.ClubMoney), club_field="club", single=True),
    Section(
        "points_tables", money.ClubPointsTable, _club(money.ClubPointsTable), club_field="club"
    ),
    Section(
        "event_money",
        money.EventMoney,
        _club(money.EventMoney, "tournament__club"),
        {"tournament": "events"},
        json_refs={"splits": (ID_GROUPS, "entries")},
    ),
    Section(
        "pools",
        money.Pool,
        _club(money.Pool, "event__tournament__club"),
        {"event": "event_money"},
        json_refs={"award_order": (ID_GROUPS, "entries")},
        many={"entrants": "entries"},
    ),
    Section(
        "buy_backs",
        money.BuyBack,
        _club(money.BuyBack, "pool__event__tournament__club"),
        {"pool": "pools", "entry": "entries"},
    ),
    Section(
        "payments",
        money.Payment,
        _club(money.Payment, "event__tournament__club"),
        {"event": "event_money", "player": P},
        below_zero=("amount",),
    ),
    Section(
        "calcuttas",
        money.Calcutta,
        _club(money.Calcutta, "event__tournament__club"),
        {"event": "event_money"},
    ),
    Section(
        "lots",
        money.Lot,
        _club(money.Lot, "calcutta__event__tournament__club"),
        {"calcutta": "calcuttas"},
        many={"entries": "entries"},
    ),
    Section(
        "lot_shares",
        money.LotShare,
        _club(money.LotShare, "lot__calcutta__event__tournament__club"),
        {"lot": "lots", "player": P},
    ),
    Section(
        "master_points",
        money.EventMasterPoints,
        _club(money.EventMasterPoints, "tournament__club"),
        {"tournament": "events", "club_table": "points_tables"},
    ),
)

BY_NAME: dict[str, Section] = {section.name: section for section in SECTIONS}

#: The club's own columns written in ``club`` (its directors are accounts: not written).
CLUB_COLUMNS = (
    "name",
    "slug",
    "description",
    "rating_initial",
    "rating_boost",
    "match_equity_table",
    "time_zone",
    "language",
    "created_at",
)


def check_sections() -> None:
    """Every foreign key of every section is a reference, the club link or an account
    link; a model that gains a link nobody placed fails here (``tests``), not in a file."""
    for section in SECTIONS:
        placed = {*section.refs, *section.dropped(), section.club_field}
        for f in section.model._meta.concrete_fields:
            if f.is_relation and f.name not in placed:
                raise AssertionError(
                    f"{section.name}.{f.name} is a link the archive does not place"
                )
        for name in (*section.refs.values(), *(s for _, s in section.json_refs.values())):
            if name not in BY_NAME:
                raise AssertionError(f"{section.name} refers to unknown section {name}")
