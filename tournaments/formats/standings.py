"""Standings computed from results, ordered by configurable tie-breaks.

``docs/rules.md``, "Standings": ordered by configurable tie-breaks (match wins, then
for Swiss Buchholz / median Buchholz / head-to-head / points difference), computed, not
stored; "Late entries, withdrawals, forfeits, corrections": forfeits let the opponent
advance and the standings say so.
``docs/club-formats.md``: clubs differ on whether a bye
counts as a match win (Milwaukee: it does not), so that is an option.

As in Tabbycat's ``standings/metrics.py`` each tie-break is one small annotator; the
order of tie-breaks is configuration; nothing is stored, so a corrected result simply
gives new standings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, TypeVar

from core.errors import N_

from .errors import FormatError

E = TypeVar("E", bound=Hashable)


class TieBreak(StrEnum):
    """The metrics standings can be ordered by, higher is better for each."""

    MATCH_WINS = "match_wins"
    BUCHHOLZ = "buchholz"  # sum of the opponents' match wins
    MEDIAN_BUCHHOLZ = "median_buchholz"  # the same without the best and worst opponent
    HEAD_TO_HEAD = "head_to_head"  # wins against the others still tied
    POINTS_DIFFERENCE = "points_difference"  # match points won minus lost
    # WBIF's "Win + Skill" (hundredths): per match 1 for a win plus a skill part from
    # both players' PR (gnubg's analysis); as the first tie-break it is the score
    WIN_SKILL = "win_skill"


SWISS_TIE_BREAKS: tuple[TieBreak, ...] = (
    TieBreak.MATCH_WINS,
    TieBreak.BUCHHOLZ,
    TieBreak.MEDIAN_BUCHHOLZ,
    TieBreak.HEAD_TO_HEAD,
    TieBreak.POINTS_DIFFERENCE,
)
ROUND_ROBIN_TIE_BREAKS: tuple[TieBreak, ...] = (
    TieBreak.MATCH_WINS,
    TieBreak.HEAD_TO_HEAD,
    TieBreak.POINTS_DIFFERENCE,
)


@dataclass(frozen=True, slots=True)
class MatchResult(Generic[E]):
    """A finished match (or a bye). ``points_*`` are the match points each side scored.

    A bye has ``player_b=None`` and ``bye=True``; ``winner`` is then ``player_a``. A
    forfeit is a win for ``winner`` that was not played out.
    """

    player_a: E
    player_b: E | None
    winner: E
    points_a: int = 0
    points_b: int = 0
    bye: bool = False
    forfeit: bool = False
    pr_a: float | None = None  # the players' PR in this match, when it was analysed
    pr_b: float | None = None

    def __post_init__(self) -> None:
        if self.bye != (self.player_b is None):
            raise FormatError("bad_bye", N_("A bye has exactly one player."), "player_b")
        if self.winner not in (self.player_a, self.player_b):
            raise FormatError("winner_not_in_match", N_("The winner must be one of the players."))


@dataclass(frozen=True)
class StandingRow(Generic[E]):
    """One line of the standings: the rank (shared when fully tied) and every value."""

    player: E
    rank: int
    values: dict[TieBreak, int]
    played: int
    wins: int
    losses: int
    byes: int
    forfeit_wins: int
    forfeit_losses: int
    opponents: tuple[E, ...] = field(default=())


def win_and_skill(won: bool, my_pr: float | None, their_pr: float | None) -> float:
    """WBIF's "Win + Skill" score of one match for one player.

    1 for a win, plus the skill part: 1 when the player's PR is lower (better) than the
    opponent's by at least 1, 0 when higher by at least 1, else 0.5 + (their PR - my
    PR) / 2. A match nobody analysed gives the neutral 0.5.
    """
    if my_pr is None or their_pr is None:
        skill = 0.5
    else:
        difference = their_pr - my_pr
        skill = 1.0 if difference >= 1 else 0.0 if difference <= -1 else 0.5 + difference / 2
    return (1.0 if won else 0.0) + skill


def compute_standings(
    players: Sequence[E],
    results: Iterable[MatchResult[E]],
    tie_breaks: Sequence[TieBreak] = SWISS_TIE_BREAKS,
    *,
    bye_is_win: bool = True,
) -> list[StandingRow[E]]:
    """Standings of ``players`` from ``results``, ordered by ``tie_breaks`` in turn.

    Players tied on every tie-break share a rank and keep the order given (seed order).
    Head-to-head (see :func:`_head_to_head`) counts wins against the players level with
    you on match wins; at its place in the tie-break list it separates only players the
    earlier tie-breaks left level.
    """
    if len(set(tie_breaks)) != len(tie_breaks):
        raise FormatError("duplicate_tie_break", N_("A tie-break is listed twice."), "tie_breaks")
    known = set(players)
    wins: dict[E, int] = dict.fromkeys(players, 0)
    losses: dict[E, int] = dict.fromkeys(players, 0)
    byes: dict[E, int] = dict.fromkeys(players, 0)
    forfeit_wins: dict[E, int] = dict.fromkeys(players, 0)
    forfeit_losses: dict[E, int] = dict.fromkeys(players, 0)
    points: dict[E, int] = dict.fromkeys(players, 0)
    opponents: dict[E, list[E]] = {p: [] for p in players}
    beat: dict[E, list[E]] = defaultdict(list)
    win_skill: dict[E, float] = dict.fromkeys(players, 0.0)
    for result in results:
        for player in (result.player_a, result.player_b):
            if player is not None and player not in known:
                raise FormatError(
                    "unknown_player", N_("%(player)r is not in these standings.", player=player)
                )
        if result.bye:
            byes[result.player_a] += 1
            if bye_is_win:
                wins[result.player_a] += 1
                win_skill[result.player_a] += win_and_skill(True, None, None)
            continue
        assert result.player_b is not None
        loser = result.player_b if result.winner == result.player_a else result.player_a
        wins[result.winner] += 1
        losses[loser] += 1
        beat[result.winner].append(loser)
        if result.forfeit:
            forfeit_wins[result.winner] += 1
            forfeit_losses[loser] += 1
        win_skill[result.player_a] += win_and_skill(
            result.winner == result.player_a, result.pr_a, result.pr_b
        )
        win_skill[result.player_b] += win_and_skill(
            result.winner == result.player_b, result.pr_b, result.pr_a
        )
        points[result.player_a] += result.points_a - result.points_b
        points[result.player_b] += result.points_b - result.points_a
        opponents[result.player_a].append(result.player_b)
        opponents[result.player_b].append(result.player_a)

    def buchholz(player: E) -> int:
        return sum(wins[o] for o in opponents[player])

    def median_buchholz(player: E) -> int:
        scores = sorted(wins[o] for o in opponents[player])
        return sum(scores[1:-1]) if len(scores) >= 3 else sum(scores)

    head_to_head = _head_to_head(players, wins, beat)
    static: dict[TieBreak, Callable[[E], int]] = {
        TieBreak.MATCH_WINS: wins.__getitem__,
        TieBreak.BUCHHOLZ: buchholz,
        TieBreak.MEDIAN_BUCHHOLZ: median_buchholz,
        TieBreak.POINTS_DIFFERENCE: points.__getitem__,
        TieBreak.WIN_SKILL: lambda p: round(100 * win_skill[p]),
    }
    values: dict[E, dict[TieBreak, int]] = {p: {} for p in players}
    keys: dict[E, tuple[int, ...]] = {p: () for p in players}
    for tie_break in tie_breaks:
        if tie_break == TieBreak.HEAD_TO_HEAD:
            for p in players:
                values[p][tie_break] = head_to_head[p]
        else:
            for p in players:
                values[p][tie_break] = static[tie_break](p)
        for p in players:
            keys[p] = (*keys[p], values[p][tie_break])

    seed = {p: i for i, p in enumerate(players)}
    ordered = sorted(players, key=lambda p: (tuple(-v for v in keys[p]), seed[p]))
    rows: list[StandingRow[E]] = []
    for index, p in enumerate(ordered):
        rank = rows[-1].rank if rows and keys[rows[-1].player] == keys[p] else index + 1
        rows.append(
            StandingRow(
                player=p,
                rank=rank,
                values=values[p],
                played=len(opponents[p]),
                wins=wins[p],
                losses=losses[p],
                byes=byes[p],
                forfeit_wins=forfeit_wins[p],
                forfeit_losses=forfeit_losses[p],
                opponents=tuple(opponents[p]),
            )
        )
    return rows


def _head_to_head(players: Sequence[E], wins: dict[E, int], beat: dict[E, list[E]]) -> dict[E, int]:
    """Wins against the players tied with you on match wins, where that decides something.

    "Tied" is the score group a director sees (same match wins), not the group still
    level after Buchholz: in a Swiss, players level on wins, Buchholz *and* median
    Buchholz have almost never met, so counting only among them gave a column of zeros
    that never decided anything (issue 13). Only games between members of the group
    count. A group in which the games decide nothing (nobody met, or everyone won as
    often as everyone else, as in a cycle) gets 0 throughout, so the column shows a
    number only where head-to-head separates players.
    """
    groups: dict[int, list[E]] = defaultdict(list)
    for p in players:
        groups[wins[p]].append(p)
    result: dict[E, int] = dict.fromkeys(players, 0)
    for group in groups.values():
        members = set(group)
        counts = {p: sum(1 for o in beat[p] if o in members and o != p) for p in group}
        if len(set(counts.values())) > 1:
            result.update(counts)
    return result
