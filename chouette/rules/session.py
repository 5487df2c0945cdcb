"""Replaying a whole chouette session from its records.

Source: ``docs/rules.md``, "The chouette" (a correction re-derives everything downstream
rather than patching it). A session is its house rules, its opening lineup and the list
of what happened in order: games, newcomers joining, players leaving. From that
alone this module derives, for every game, the lineup at its start, the payouts,
the running ledger and the lineup after; so after a corrected game the Django layer
replays the list and stores what comes out, instead of patching later games.

A violation in any record is re-raised with the event's index in ``field``
(``events[4].members[1].cube``) and the game number in the message.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from core.errors import N_
from games.rules.errors import RuleViolation

from .house_rules import ChouetteRules
from .ledger import Ledger
from .order import Lineup
from .payouts import score_game
from .records import GameRecord, GameScore
from .rotation import lineup_after
from .types import Player


@dataclass(frozen=True, slots=True)
class Join:
    """A newcomer takes a seat between games, at the bottom of the team."""

    player: Player


@dataclass(frozen=True, slots=True)
class Leave:
    """A player leaves between games (see :meth:`Lineup.leave` for who moves up)."""

    player: Player


SessionEvent = GameRecord | Join | Leave


@dataclass(frozen=True, slots=True)
class GameReplay:
    """Everything derived for one game of the session."""

    number: int  # 1-based game number
    event_index: int  # index of the game's record in the event list
    lineup_before: Lineup
    score: GameScore
    payouts: Mapping[Player, int]
    totals: Mapping[Player, int]  # running totals after this game
    lineup_after: Lineup


@dataclass(frozen=True, slots=True)
class SessionReplay:
    """A replayed session: every game, the lineup now (the next game's) and the totals."""

    games: tuple[GameReplay, ...]
    lineup: Lineup
    totals: Mapping[Player, int]
    ledger: Ledger


def next_game(rules: ChouetteRules, lineup: Lineup, record: GameRecord) -> tuple[GameScore, Lineup]:
    """Score one game and rotate: the score and the lineup for the following game."""
    score = score_game(rules, lineup, record)
    return score, lineup_after(lineup, score)


def _locate(error: RuleViolation, index: int, game: int | None) -> RuleViolation:
    where = f"events[{index}]" + (f".{error.field}" if error.field else "")
    prefix = f"Game {game}: " if game is not None else f"Event {index + 1}: "
    located = RuleViolation(error.code, prefix + error.message, field=where)
    return located


def replay_session(
    rules: ChouetteRules, lineup: Lineup, events: Iterable[SessionEvent] | Sequence[SessionEvent]
) -> SessionReplay:
    """Derive every game's lineup, payouts and running totals from the records."""
    ledger = Ledger(lineup.players)
    games: list[GameReplay] = []
    current = lineup
    for index, event in enumerate(events):
        try:
            if isinstance(event, Join):
                current = current.join(event.player)
                ledger.add_player(event.player)
                continue
            if isinstance(event, Leave):
                current = current.leave(event.player)
                continue
            if not isinstance(event, GameRecord):
                raise RuleViolation(
                    "invalid_event",
                    N_("%(event)r is not a game, a join or a leave.", event=event),
                    field=None,
                )
        except RuleViolation as error:
            raise _locate(error, index, None) from error
        number = len(games) + 1
        try:
            score, after = next_game(rules, current, event)
        except RuleViolation as error:
            raise _locate(error, index, number) from error
        row = ledger.record(score.payouts)
        games.append(
            GameReplay(
                number=number,
                event_index=index,
                lineup_before=current,
                score=score,
                payouts=row.payouts,
                totals=row.totals,
                lineup_after=after,
            )
        )
        current = after
    return SessionReplay(
        games=tuple(games),
        lineup=current,
        totals=MappingProxyType(dict(ledger.totals)),
        ledger=ledger,
    )
