"""Reads of the chouette app: the sheet of a session in a fixed number of queries.

The sheet is built from what the services stored (every game's derived seats and
points), so a read never replays the session; the ledger's zero sum is still checked
on the way out by ``chouette.rules.Ledger``.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from decimal import Decimal
from typing import cast

from django.db.models import Prefetch, QuerySet

from games.models import Club, Player

from .models import ChouetteGame, MemberResult, Seat, Session, SessionStatus
from .rules import Ledger, LedgerRow, PartnerChoice, Transfer, money_totals, settle


def sessions_queryset() -> QuerySet[Session]:
    return Session.objects.select_related("club")


def open_sessions_of(club: Club) -> QuerySet[Session]:
    return sessions_queryset().filter(club=club, status=SessionStatus.OPEN)


@dataclass(frozen=True)
class NextGame:
    """Who sits where for the next game."""

    box: Player
    captain: Player
    team: tuple[Player, ...]  # the line, captain first (the partner keeps a place in it)
    partner: Player | None
    partner_to_name: bool  # the house names the partner each game and the table is large enough


@dataclass(frozen=True)
class LedgerEntry:
    game: ChouetteGame
    row: LedgerRow


@dataclass(frozen=True)
class Sheet:
    """Everything the live sheet, the ledger and the settlement show."""

    session: Session
    seats: tuple[Seat, ...]
    players: dict[int, Player]
    games: tuple[ChouetteGame, ...]
    ledger: tuple[LedgerEntry, ...]
    totals: dict[int, int]
    money: dict[int, Decimal]
    transfers: tuple[Transfer, ...]
    next: NextGame

    @property
    def seated(self) -> tuple[Seat, ...]:
        return tuple(seat for seat in self.seats if seat.left_at is None)

    @property
    def last_game(self) -> ChouetteGame | None:
        return self.games[-1] if self.games else None


def game_payouts(game: ChouetteGame) -> dict[int, int]:
    """One stored game's payouts: the box, the partner and every member."""
    payouts = {game.box_id: game.box_points}
    if game.partner_id is not None:
        payouts[game.partner_id] = game.partner_points
    for member in game.members.all():
        payouts[member.player_id] = member.points
    return payouts


def _next_game(session: Session, players: dict[int, Player]) -> NextGame:
    lineup = [players[pk] for pk in session.lineup]
    box, team = lineup[0], tuple(lineup[1:])
    threshold = session.partner_threshold
    large = threshold is not None and len(lineup) >= threshold
    partner = team[-1] if large and session.partner_choice == PartnerChoice.BOTTOM else None
    return NextGame(
        box=box,
        captain=team[0],
        team=team,
        partner=partner,
        partner_to_name=large and session.partner_choice == PartnerChoice.GIVEN,
    )


def session_sheet(session_or_id: Session | int) -> Sheet:
    """The sheet of a session: four queries whatever the number of games and players."""
    pk = session_or_id.pk if isinstance(session_or_id, Session) else session_or_id
    session = sessions_queryset().get(pk=pk)
    seats = tuple(session.seats.select_related("player").order_by("join_order"))
    players = {seat.player_id: seat.player for seat in seats}
    games = tuple(
        session.games.order_by("number").prefetch_related(
            Prefetch("members", queryset=MemberResult.objects.order_by("line"))
        )
    )
    for game in games:  # every player of a game has a seat: no query per name
        for name in ("box", "partner", "captain", "board_captain"):
            pk_value = getattr(game, f"{name}_id")
            if pk_value is not None:
                setattr(game, name, players[pk_value])
        for member in game.members.all():
            member.player = players[member.player_id]
    ledger = Ledger(session.opening_order)
    entries = []
    for game in games:
        for pk_value in game_payouts(game):
            ledger.add_player(pk_value)
        # the rules' players are Hashable (a Mapping's key type is invariant)
        payouts = cast("dict[Hashable, int]", game_payouts(game))
        entries.append(LedgerEntry(game, ledger.record(payouts)))
    for seat in seats:
        ledger.add_player(seat.player_id)
    totals = dict(ledger.totals)
    return Sheet(
        session=session,
        seats=seats,
        players=players,
        games=games,
        ledger=tuple(entries),
        # the rules' players are Hashable; ours are pks
        totals=cast("dict[int, int]", totals),
        money=cast("dict[int, Decimal]", money_totals(totals, session.stake)),
        transfers=tuple(settle(totals, session.stake)),
        next=_next_game(session, players),
    )
