"""The paper score card of a match: what the single card and a round's cards print.

One card per match: the table, the players, the length, one numbered line per game
(filled in from the record once games are entered: who won, the cube, the points)
and blank lines enough for the rest of the match, then the final result and the
signatures. A finished match's card shows each game's winner and the final score.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.models import Game, Match, MatchStatus

#: Blank lines on a card for an unlimited session, and at most on any card (one page).
UNLIMITED_LINES = 15
MAX_LINES = 21


def lines_for(length: int) -> int:
    """Game lines a card offers: enough for a match of one-point games (2n - 1, the
    longest a match to ``n`` can run without a gammon or a cube), at least 5, at most
    ``MAX_LINES`` so a card stays one printed page."""
    if length <= 0:
        return UNLIMITED_LINES
    return max(5, min(2 * length - 1, MAX_LINES))


@dataclass(frozen=True)
class Card:
    """A match with its games, ready for ``games/_card.html``."""

    match: Match
    games: list[Game]
    blanks: range
    title: str = ""
    decided: bool = False  # finished or forfeited: the result line is printed


def card_for(match: Match, games: list[Game], title: str = "") -> Card:
    """The card of ``match`` (its ``games`` in order, with their winners loaded)."""
    blanks = range(
        0 if match.status == MatchStatus.FINISHED else max(0, lines_for(match.length) - len(games))
    )
    decided = (
        match.status in (MatchStatus.FINISHED, MatchStatus.FORFEIT) and match.winner_id is not None
    )
    return Card(match=match, games=games, blanks=blanks, title=title, decided=decided)
