"""A player as the exports name them: the id keeps two namesakes apart, the name is shown."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Person:
    id: int
    name: str


def place_labels(places: list[list[Person]]) -> list[tuple[int, str, Person]]:
    """Every placed person with their place and its label, best first.

    ``places`` are groups of tied people, best first: a group of two starting at rank 3
    is "3–4" for both, and the next group starts at rank 5 (the standard competition
    ranking the bodies read: two semi-final losers are both third, nobody is fourth).
    """
    rows: list[tuple[int, str, Person]] = []
    rank = 1
    for group in places:
        members = sorted(group)
        if not members:
            continue
        last = rank + len(members) - 1
        label = str(rank) if last == rank else f"{rank}-{last}"
        rows.extend((rank, label, person) for person in members)
        rank = last + 1
    return rows


def who_played(places: list[list[Person]], present: Collection[int]) -> list[list[Person]]:
    """The places with only the people who took part (``present``: their ids), tied
    groups kept, emptied groups gone.

    The bodies rank and count the players of the event (issue 41): a no-show dropped
    before the draw, a player the waitlist replaced, a withdrawn player who never sat
    down took no part, and listing them at the bottom of the WBGF order, or in the ABT
    attendance that sets the points handed out, credits an event with players it did
    not have. (A player of the draw who lost a match by forfeit is an entrant: the
    caller counts the draw as present.)
    """
    kept = [[person for person in group if person.id in present] for group in places]
    return [group for group in kept if group]
