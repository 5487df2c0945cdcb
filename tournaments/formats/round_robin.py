"""Round robin: Berger tables for one or more groups, snake-seeded, with a playoff.

``docs/rules.md``, "Tournaments" (round robin in one or more groups, Berger tables, an optional
playoff) and ``docs/club-formats.md`` (Bangkok plays
round robins in one or two groups with 5- or 7-point matches).

Berger's tables are the circle method: the last player stays put, the others turn one
place each round; with an odd number a "dummy" takes the last place and whoever meets
it has the bye. Everyone meets everyone exactly once, and sides (who sits where,
who is listed first on the score sheet) alternate so nobody is "home" more than once
more than "away".
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from core.errors import N_

from .bracket_graph import BracketGraph
from .elimination import build_single_elimination
from .errors import FormatError

E = TypeVar("E", bound=Hashable)


@dataclass(frozen=True)
class RoundRobinRound(Generic[E]):
    """One round of a group: pairs (side A first) and the player with the bye, if any."""

    number: int
    pairs: tuple[tuple[E, E], ...]
    bye: E | None


def berger_rounds(players: Sequence[E]) -> list[RoundRobinRound[E]]:
    """The full schedule of one group, in Berger order; ``players`` by seed.

    ``n`` players play ``n − 1`` rounds (``n`` rounds when ``n`` is odd, one bye each).
    """
    if len(set(players)) != len(players):
        raise FormatError("duplicate_player", N_("A player appears twice in the group."), "players")
    if len(players) < 2:
        raise FormatError("too_few_players", N_("A round robin needs at least two players."))
    seats: list[E | None] = list(players)
    if len(seats) % 2:
        seats.append(None)  # the dummy: meeting it is the bye
    n = len(seats)
    fixed = seats[-1]
    circle = seats[:-1]
    rounds: list[RoundRobinRound[E]] = []
    for r in range(n - 1):
        pairs: list[tuple[E, E]] = []
        bye: E | None = None
        head = circle[r % (n - 1)]
        first = (fixed, head) if r % 2 else (head, fixed)
        candidates = [first]
        for k in range(1, n // 2):
            candidates.append((circle[(r + k) % (n - 1)], circle[(r - k) % (n - 1)]))
        for a, b in candidates:
            if a is None or b is None:
                bye = b if a is None else a
            else:
                pairs.append((a, b))
        rounds.append(RoundRobinRound(number=r + 1, pairs=tuple(pairs), bye=bye))
    return rounds


def snake_groups(players: Sequence[E], groups: int) -> list[list[E]]:
    """Split seeded ``players`` into ``groups`` by snake: 1..g, then g..1, and so on.

    Snake seeding evens out the groups' strength: group 1 gets seeds 1, 2g, 2g+1, ...
    """
    if groups < 1:
        raise FormatError("bad_group_count", N_("There must be at least one group."), "groups")
    if len(players) < 2 * groups:
        raise FormatError(
            "groups_too_small", N_("Each group needs at least two players."), "groups"
        )
    result: list[list[E]] = [[] for _ in range(groups)]
    for index, player in enumerate(players):
        lap, place = divmod(index, groups)
        result[place if lap % 2 == 0 else groups - 1 - place].append(player)
    return result


def group_schedules(groups: Sequence[Sequence[E]]) -> list[list[RoundRobinRound[E]]]:
    """Berger schedules for each group, in group order."""
    return [berger_rounds(group) for group in groups]


def playoff_seeding(group_standings: Sequence[Sequence[E]], qualifiers: int = 1) -> list[E]:
    """Seed order for the playoff: all group winners (group order), then all seconds, ...

    With the standard bracket order, group A's winner meets the last group's runner-up,
    never its own group's, when two qualify from each group.
    """
    order: list[E] = []
    for place in range(qualifiers):
        for standing in group_standings:
            if place >= len(standing):
                raise FormatError("group_too_small", N_("A group has too few players to qualify."))
            order.append(standing[place])
    return order


def build_playoff(qualifying: int) -> BracketGraph:
    """A single-elimination playoff for ``qualifying`` players (seeded by playoff_seeding)."""
    return build_single_elimination(qualifying)
