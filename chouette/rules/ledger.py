"""The running ledger of a chouette session, in points.

Source: ``docs/rules.md``, "Ledger and settlement" ("Every game and every running total
sums to zero"). The box scores separately with each member (Thorne 1930, *Chouette*:
"the man in the box ... plays against all the others"), so every game moves
points between players and creates none: a ledger that does not sum to zero is a bug,
and it is refused rather than stored.

A player who leaves keeps their total (they still settle at the end); a newcomer
starts at zero. Totals keep the order in which players first appear, so the
Django layer can show them in seating order without sorting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from core.settlement import check_zero_sum

from .types import Player


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One game in the ledger: its payouts and everyone's running totals after it."""

    game: int  # 1-based game number in the session
    payouts: Mapping[Player, int]
    totals: Mapping[Player, int]


class Ledger:
    """Per-game payouts and running totals; appending refuses anything not zero-sum."""

    def __init__(self, players: Iterable[Player] = ()) -> None:
        self._totals: dict[Player, int] = dict.fromkeys(players, 0)
        self._rows: list[LedgerRow] = []

    @classmethod
    def from_games(
        cls, games: Iterable[Mapping[Player, int]], players: Iterable[Player] = ()
    ) -> Ledger:
        ledger = cls(players)
        for payouts in games:
            ledger.record(payouts)
        return ledger

    def add_player(self, player: Player) -> None:
        """Show a player (a newcomer) with a zero total before their first game."""
        self._totals.setdefault(player, 0)

    def record(self, payouts: Mapping[Player, int]) -> LedgerRow:
        """Append one game's payouts (refused unless they sum to zero)."""
        check_zero_sum(payouts.values(), field=f"games[{len(self._rows)}]")
        for player, points in payouts.items():
            self._totals[player] = self._totals.get(player, 0) + points
        row = LedgerRow(
            game=len(self._rows) + 1,
            payouts=MappingProxyType(dict(payouts)),
            totals=MappingProxyType(dict(self._totals)),
        )
        self._rows.append(row)
        return row

    @property
    def rows(self) -> tuple[LedgerRow, ...]:
        return tuple(self._rows)

    @property
    def totals(self) -> Mapping[Player, int]:
        """Everyone's points so far (sums to zero)."""
        return MappingProxyType(dict(self._totals))
