"""Playing a bracket graph: who meets whom, given the results so far.

``docs/rules.md``, "Tournaments" (byes are not matches; withdrawals and forfeits let the opponent
advance; a corrected result re-derives everything after it). See
``docs/club-formats.md`` for the club formats played.

:func:`derive_bracket_state` is the only rule: from the seeding and the recorded
winners it derives every match's players and status, in one pass over the graph's
topological order. Nothing else is stored, so the database layer can call it after any
correction and see which recorded results no longer fit (``stale``).
:func:`play_event` uses it to play a whole event with a function that picks winners
(tests, the ``simulate_event`` command).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from core.errors import N_

from .bracket_graph import BracketGraph, Bye, Match, Seed, Source, Stage, WinnerOf
from .errors import FormatError

E = TypeVar("E", bound=Hashable)


class MatchStatus(StrEnum):
    """Where a match stands."""

    WAITING = "waiting"  # a side is not known yet
    READY = "ready"  # both players known, no result yet: create/show the pairing
    PLAYED = "played"  # a result is recorded
    WALKOVER = "walkover"  # one side is empty (a bye): not a match, the other goes through
    EMPTY = "empty"  # both sides empty: nobody comes out
    NOT_NEEDED = "not_needed"  # a grand-final reset the first final made unnecessary


class _Pending:
    """Marker for a side not known yet (distinct from ``None``, an empty side)."""

    def __repr__(self) -> str:
        return "PENDING"


_PENDING = _Pending()


@dataclass(frozen=True, slots=True)
class MatchState(Generic[E]):
    """A match with its players and outcome as far as they are known.

    Players, ``winner`` and ``loser`` are ``None`` when empty or not known yet; the
    status says which. ``stale`` is a recorded winner that no longer fits this match
    (an earlier result was corrected): the match must be replayed or re-entered.
    """

    match: Match
    status: MatchStatus
    player_a: E | None = None
    player_b: E | None = None
    winner: E | None = None
    loser: E | None = None
    stale: E | None = None

    @property
    def is_match(self) -> bool:
        """True when two players meet (ready or played): byes are not matches."""
        return self.status in (MatchStatus.READY, MatchStatus.PLAYED)


@dataclass(frozen=True)
class BracketState(Generic[E]):
    """Every match's state, the stage winners found so far and the stale results."""

    matches: dict[str, MatchState[E]]
    stage_winners: dict[Stage, E | None]
    champion: E | None
    stale: tuple[str, ...]

    @property
    def finished(self) -> bool:
        return all(
            s.status not in (MatchStatus.WAITING, MatchStatus.READY) for s in self.matches.values()
        )

    def ready(self) -> list[MatchState[E]]:
        """The matches that can be played now, in bracket order."""
        return [s for s in self.matches.values() if s.status == MatchStatus.READY]

    def played(self) -> list[MatchState[E]]:
        return [s for s in self.matches.values() if s.status == MatchStatus.PLAYED]


def derive_bracket_state(
    graph: BracketGraph, entries: Sequence[E], winners: Mapping[str, E]
) -> BracketState[E]:
    """Derive every match's players and status from the seeding and recorded winners.

    ``entries[i]`` is the entry seeded ``i + 1``; ``winners`` maps match keys to the
    winning entry (a forfeit or withdrawal is recorded as a win for the opponent). A
    recorded winner who is not one of the two players now in that match is reported as
    stale and ignored, so everything downstream waits for it to be fixed.
    """
    _check_entries(graph, entries)
    walk: _Walk[E] = _Walk(entries)
    for match in graph.matches:
        walk.step(match, winners.get(match.key))
    return walk.finish(graph)


class _Walk(Generic[E]):
    """One pass over the matches in topological order, settling each in turn."""

    def __init__(self, entries: Sequence[E]) -> None:
        self.entries = entries
        self.outcome: dict[str, tuple[object, object]] = {}  # key -> (winner, loser)
        self.states: dict[str, MatchState[E]] = {}
        self.stale: list[str] = []

    def resolve(self, source: Source) -> object:
        if isinstance(source, Seed):
            return self.entries[source.seed - 1] if source.seed <= len(self.entries) else None
        if isinstance(source, Bye):
            return None
        won, lost = self.outcome[source.match]
        return won if isinstance(source, WinnerOf) else lost

    def players(self, match: Match) -> tuple[object, object]:
        return self.resolve(match.side_a), self.resolve(match.side_b)

    def step(self, match: Match, recorded: E | None) -> MatchState[E]:
        a, b = self.players(match)
        state = _match_state(match, a, b, recorded, self.states)
        if state.stale is not None:
            self.stale.append(match.key)
        self.states[match.key] = state
        self.outcome[match.key] = _outcome(state)
        return state

    def finish(self, graph: BracketGraph) -> BracketState[E]:
        stage_winners: dict[Stage, E | None] = {}
        for stage, source in graph.stage_winners.items():
            value = self.resolve(source)
            stage_winners[stage] = None if value is _PENDING else value  # type: ignore[assignment]
        return BracketState(
            matches=self.states,
            stage_winners=stage_winners,
            champion=stage_winners.get(graph.champion_stage),
            stale=tuple(self.stale),
        )


def _match_state(
    match: Match,
    a: object,
    b: object,
    recorded: E | None,
    states: Mapping[str, MatchState[E]],
) -> MatchState[E]:
    if match.reset_of is not None:
        first = states[match.reset_of]
        if first.status in (MatchStatus.WAITING, MatchStatus.READY):
            return MatchState(match, MatchStatus.WAITING)
        if not _reset_needed(match, states):
            return MatchState(match, MatchStatus.NOT_NEEDED, winner=first.winner)
    if a is None and b is None:
        return MatchState(match, MatchStatus.EMPTY)
    if a is None or b is None:
        through = b if a is None else a
        winner = None if through is _PENDING else through
        return MatchState(
            match,
            MatchStatus.WALKOVER,
            player_a=None if a is _PENDING else a,  # type: ignore[arg-type]
            player_b=None if b is _PENDING else b,  # type: ignore[arg-type]
            winner=winner,  # type: ignore[arg-type]
        )
    if a is _PENDING or b is _PENDING:
        return MatchState(
            match,
            MatchStatus.WAITING,
            player_a=None if a is _PENDING else a,  # type: ignore[arg-type]
            player_b=None if b is _PENDING else b,  # type: ignore[arg-type]
        )
    if recorded is None:
        return MatchState(match, MatchStatus.READY, a, b)  # type: ignore[arg-type]
    if recorded == a:
        return MatchState(match, MatchStatus.PLAYED, a, b, winner=a, loser=b)  # type: ignore[arg-type]
    if recorded == b:
        return MatchState(match, MatchStatus.PLAYED, a, b, winner=b, loser=a)  # type: ignore[arg-type]
    return MatchState(match, MatchStatus.READY, a, b, stale=recorded)  # type: ignore[arg-type]


def _outcome(state: MatchState[E]) -> tuple[object, object]:
    """(winner, loser) for the sources that point at this match, with the pending marker."""
    status = state.status
    if status == MatchStatus.PLAYED:
        return state.winner, state.loser
    if status == MatchStatus.EMPTY:
        return None, None
    if status in (MatchStatus.WALKOVER, MatchStatus.NOT_NEEDED):
        return (_PENDING if state.winner is None else state.winner), None
    return _PENDING, _PENDING


Decide = Callable[[Match, E, E], E]


@dataclass(frozen=True)
class EventResult(Generic[E]):
    """A finished event: the final state, the matches played in order, the champion."""

    state: BracketState[E]
    played: tuple[MatchState[E], ...]
    winners: dict[str, E]

    @property
    def champion(self) -> E | None:
        return self.state.champion


def play_event(graph: BracketGraph, entries: Sequence[E], decide: Decide[E]) -> EventResult[E]:
    """Play the event to its end, asking ``decide(match, a, b)`` for each winner.

    Matches are decided in the graph's order, which puts every source first, so one
    pass is enough; byes resolve themselves and are never passed to ``decide``.
    """
    _check_entries(graph, entries)
    winners: dict[str, E] = {}
    walk: _Walk[E] = _Walk(entries)
    for match in graph.matches:
        a, b = walk.players(match)
        if (
            a is not None
            and b is not None
            and a is not _PENDING
            and b is not _PENDING
            and _reset_needed(match, walk.states)
        ):
            winner = decide(match, a, b)  # type: ignore[arg-type]
            if winner not in (a, b):
                raise FormatError(
                    "winner_not_in_match",
                    N_("%(winner)r is not in %(key)s.", winner=winner, key=match.key),
                )
            winners[match.key] = winner
        walk.step(match, winners.get(match.key))
    state = walk.finish(graph)
    played = [s for s in state.matches.values() if s.status == MatchStatus.PLAYED]
    return EventResult(state=state, played=tuple(played), winners=winners)


def _reset_needed(match: Match, states: Mapping[str, MatchState[E]]) -> bool:
    if match.reset_of is None:
        return True
    first = states[match.reset_of]
    return first.status == MatchStatus.PLAYED and first.winner == first.player_b


def _check_entries(graph: BracketGraph, entries: Sequence[Hashable]) -> None:
    if len(entries) != graph.entries:
        raise FormatError(
            "entry_count",
            N_(
                "The bracket is for %(entries)s entries, got %(count)s.",
                entries=graph.entries,
                count=len(entries),
            ),
        )
    if len(set(entries)) != len(entries):
        raise FormatError("duplicate_entry", N_("An entry is seeded twice."), "entries")


def advance_result(
    graph: BracketGraph,
    entries: Sequence[E],
    stored: Callable[[str], MatchState[E]],
    key: str,
    winner: E,
) -> dict[str, MatchState[E]]:
    """The slots that change when match ``key`` is won by ``winner``, and their new states.

    The local form of :func:`derive_bracket_state` for a *new* result (``key`` had
    none): ``key`` itself becomes played, then every slot its winner or loser reaches
    is settled again from its two sources, and so on onwards for as long as a slot's
    outcome changes (a walkover: a side that is a bye or empty lets the other player
    straight through). ``stored(k)`` is slot ``k``'s state before this result, as the
    database holds it. The same rules as the whole derivation, on a handful of slots:
    what lets a result lock only the slots it touches instead of the whole event.
    """
    position = {m.key: index for index, m in enumerate(graph.matches)}
    new: dict[str, MatchState[E]] = {}

    def state(k: str) -> MatchState[E]:
        return new[k] if k in new else stored(k)

    def resolve(source: Source) -> object:
        if isinstance(source, Seed):
            return entries[source.seed - 1] if source.seed <= len(entries) else None
        if isinstance(source, Bye):
            return None
        won, lost = _outcome(state(source.match))
        return won if isinstance(source, WinnerOf) else lost

    class _States(Mapping[str, MatchState[E]]):  # the reset rule reads the first final
        def __getitem__(self, k: str) -> MatchState[E]:
            return state(k)

        def __iter__(self):  # type: ignore[no-untyped-def]
            return iter(position)

        def __len__(self) -> int:
            return len(position)

    states = _States()
    todo: set[str] = {key}
    resets = [m for m in graph.matches if m.reset_of is not None]
    while todo:
        current = min(todo, key=position.__getitem__)  # topological: sources first
        todo.discard(current)
        match = graph.match(current)
        before = stored(current)
        recorded = winner if current == key else before.winner
        if current != key and before.status != MatchStatus.PLAYED:
            recorded = None
        a, b = resolve(match.side_a), resolve(match.side_b)
        after = _match_state(match, a, b, recorded, states)
        if after == state(current) and current != key:
            continue
        new[current] = after
        if _outcome(after) != _outcome(before):
            for destination in (
                graph.winner_destination(current),
                graph.loser_destination(current),
            ):
                if destination is not None:
                    todo.add(destination.match)
            todo.update(m.key for m in resets if m.reset_of == current)
    return new
