"""An elimination event as a graph of matches, for the database layer to mirror.

``docs/rules.md``, "Tournaments" (formats: single and double elimination, progressive consolation,
last chance; drop maps) and ``docs/club-formats.md``
(Milwaukee's main + consolation flights, Portland's play-ins and consolation byes).

Every match names where each of its two sides comes from: a seed, the winner of another
match, the loser of another match, or a bye. That is all the database layer needs to
create its pairing rows up front and to move winners and losers on as results arrive;
a corrected result re-derives everything downstream because nothing but the sources is
stored (see :mod:`tournaments.formats.bracket_engine`).

A match whose side turns out empty (a bye, or the loser of a match that was itself a
bye) is not played: the other side goes through. Byes are never matches.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from core.errors import N_

from .errors import FormatError


class Stage(StrEnum):
    """Which bracket of the event a match belongs to."""

    MAIN = "main"
    CONSOLATION = "consolation"
    LAST_CHANCE = "last_chance"
    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"


@dataclass(frozen=True, slots=True)
class Seed:
    """The entry seeded at this 1-based position (a seed above the entry count is a bye)."""

    seed: int


@dataclass(frozen=True, slots=True)
class WinnerOf:
    """Whoever wins match ``match`` (or walks over it)."""

    match: str


@dataclass(frozen=True, slots=True)
class LoserOf:
    """Whoever loses match ``match``; empty if that match was a walkover."""

    match: str


@dataclass(frozen=True, slots=True)
class Bye:
    """No one: the other side goes through without playing."""


Source = Seed | WinnerOf | LoserOf | Bye


@dataclass(frozen=True, slots=True)
class Match:
    """One match slot of the event.

    ``round`` is 1-based within its stage, ``slot`` is the 0-based position within the
    round, top to bottom, as printed. ``reset_of`` marks a grand-final reset: it is
    played only if the winner of that match came from its side B (the losers' bracket
    champion won the first final); otherwise the first final's winner is champion.
    """

    key: str
    stage: Stage
    round: int
    slot: int
    side_a: Source
    side_b: Source
    reset_of: str | None = None

    @property
    def sides(self) -> tuple[Source, Source]:
        return (self.side_a, self.side_b)


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a match's winner or loser goes: ``side`` is 0 (side A) or 1 (side B)."""

    match: str
    side: int


@dataclass(frozen=True, slots=True)
class Feed:
    """Which rounds of ``from_stage`` send their losers into ``stage``.

    ``asked`` is what the director configured; ``rounds`` is what the format built. They
    differ when a round asked for can hold no match (every slot a bye or a walkover):
    its losers would be nobody, so the format counts only rounds that can hold a match,
    and takes later ones when too few players would arrive (see
    :func:`tournaments.formats.elimination.build_single_elimination`).
    """

    stage: Stage
    from_stage: Stage
    asked: tuple[int, ...]
    rounds: tuple[int, ...]


@dataclass(frozen=True)
class BracketGraph:
    """The whole event: matches in an order where every source precedes its users.

    ``stage_winners`` maps each stage to the source of that stage's winner (the
    champion of the event is ``stage_winners[champion_stage]``).
    """

    entries: int
    size: int
    matches: tuple[Match, ...]
    stage_winners: dict[Stage, Source]
    champion_stage: Stage
    feeds: tuple[Feed, ...] = ()
    _by_key: dict[str, Match] = field(init=False, repr=False, compare=False)
    _winner_to: dict[str, Destination] = field(init=False, repr=False, compare=False)
    _loser_to: dict[str, Destination] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_key: dict[str, Match] = {}
        winner_to: dict[str, Destination] = {}
        loser_to: dict[str, Destination] = {}
        for match in self.matches:
            if match.key in by_key:
                raise FormatError(
                    "duplicate_match", N_("Match %(key)s appears twice.", key=match.key)
                )
            for side, source in enumerate(match.sides):
                if isinstance(source, WinnerOf | LoserOf):
                    if source.match not in by_key:
                        raise FormatError(
                            "match_order",
                            N_(
                                "%(key)s uses %(match)s before it exists.",
                                key=match.key,
                                match=source.match,
                            ),
                        )
                    targets = winner_to if isinstance(source, WinnerOf) else loser_to
                    if source.match in targets:
                        raise FormatError(
                            "source_used_twice", N_("%(source)r feeds two matches.", source=source)
                        )
                    targets[source.match] = Destination(match.key, side)
            by_key[match.key] = match
        object.__setattr__(self, "_by_key", by_key)
        object.__setattr__(self, "_winner_to", winner_to)
        object.__setattr__(self, "_loser_to", loser_to)

    def match(self, key: str) -> Match:
        """The match called ``key``."""
        return self._by_key[key]

    def winner_destination(self, key: str) -> Destination | None:
        """Where the winner of ``key`` plays next; ``None`` if it wins its stage."""
        return self._winner_to.get(key)

    def loser_destination(self, key: str) -> Destination | None:
        """Where the loser of ``key`` plays next; ``None`` if the loser is out."""
        return self._loser_to.get(key)

    def stage_matches(self, stage: Stage) -> list[Match]:
        """The matches of one stage, round by round, top to bottom."""
        return [m for m in self.matches if m.stage == stage]

    def rounds(self, stage: Stage) -> list[list[Match]]:
        """The matches of one stage grouped by round (index 0 is round 1)."""
        grouped: dict[int, list[Match]] = {}
        for match in self.stage_matches(stage):
            grouped.setdefault(match.round, []).append(match)
        return [sorted(grouped[r], key=lambda m: m.slot) for r in sorted(grouped)]

    @property
    def stages(self) -> list[Stage]:
        """The stages present, in play order."""
        seen: dict[Stage, None] = {}
        for match in self.matches:
            seen.setdefault(match.stage)
        return list(seen)

    def __iter__(self) -> Iterator[Match]:
        return iter(self.matches)

    def __len__(self) -> int:
        return len(self.matches)


def playable_matches(matches: Iterable[Match], entries: int) -> dict[str, bool]:
    """For every match, whether two players can ever meet in it, whatever the results.

    Byes are fixed by the entry count, so a slot fed only by byes and walkovers is known
    to be empty before a ball is struck: a ``LoserOf`` a match that cannot be played is
    nobody. ``matches`` must be in topological order (as a :class:`BracketGraph` holds
    them). Withdrawals are forfeits (a recorded loser), so they do not change this.
    """
    playable: dict[str, bool] = {}
    occupied: dict[str, bool] = {}  # can a winner come out of this match?

    def can_hold(source: Source) -> bool:
        if isinstance(source, Seed):
            return source.seed <= entries
        if isinstance(source, Bye):
            return False
        if isinstance(source, WinnerOf):
            return occupied[source.match]
        return playable[source.match]

    for match in matches:
        a, b = can_hold(match.side_a), can_hold(match.side_b)
        playable[match.key] = a and b
        occupied[match.key] = a or b
    return playable


def match_key(stage: Stage, round_number: int, slot: int) -> str:
    """The stable key of a match, e.g. ``main-r1-m3`` (slot 2): readable in logs and URLs."""
    return f"{stage.value}-r{round_number}-m{slot + 1}"
