"""Seeding: the order of entries and where they sit in a 2^k bracket.

Implements ``docs/rules.md``, "Seeding and byes": by rating, manual, or random draw; in a 2^k
bracket seeds meet in the standard order (1–16, 8–9, ...) so that seeds 1 and 2 can only
meet in the final; byes (2^k − entries of them) go to the top seeds and are spread so
that no two byes ever meet. See also ``docs/club-formats.md``
(Portland: 10 players in a 16-slot bracket with 6 byes).

A *seed* here is a 1-based position in the seeding order; a seed greater than the
number of entries is a bye. Entry ids are whatever the caller uses (database ids,
names); they must be hashable and, for rating ties, sortable.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TypeVar

from core.errors import N_

from .errors import FormatError

E = TypeVar("E", bound=Hashable)


def bracket_size(entries: int) -> int:
    """The smallest power of two holding ``entries`` (at least 2): the bracket's slot count."""
    if entries < 2:
        raise FormatError("too_few_entries", N_("A bracket needs at least two entries."), "entries")
    return 1 << (entries - 1).bit_length()


def bye_count(entries: int) -> int:
    """How many byes a bracket of ``entries`` has: 2^k − entries."""
    return bracket_size(entries) - entries


def standard_seed_order(size: int) -> list[int]:
    """Seeds in bracket slot order, top to bottom, for a bracket of ``size`` = 2^k slots.

    Slots ``2i`` and ``2i+1`` meet in round 1. Built recursively: each seed ``s`` of the
    half-size order is paired with ``size + 1 - s``, and every second pair is flipped so
    the better seed of a pair alternates between top and bottom. For 16 this gives
    1–16, 9–8, 5–12, 13–4, 3–14, 11–6, 7–10, 15–2: seeds 1 and 2 are in opposite halves,
    1–4 in different quarters, and so on, so the top seeds can only meet late.
    """
    if size < 1 or size & (size - 1):
        raise FormatError("size_not_power_of_two", N_("A bracket has 2^k slots."), "size")
    order = [1]
    while len(order) < size:
        double = 2 * len(order) + 1
        nxt: list[int] = []
        for index, seed in enumerate(order):
            pair = (seed, double - seed) if index % 2 == 0 else (double - seed, seed)
            nxt.extend(pair)
        order = nxt
    return order


def first_round_pairs(entries: int) -> list[tuple[int, int | None]]:
    """Round-1 pairs of seeds in bracket order; ``None`` is a bye.

    The better seed comes first. Because each pair holds one seed from the top half of
    the bracket and one from the bottom half, and byes are the bottom
    ``2^k − entries`` (< 2^(k−1)) phantom seeds, two byes never meet and every bye goes
    to one of the top seeds, spread the way the seeds themselves are spread.
    """
    size = bracket_size(entries)
    order = standard_seed_order(size)
    pairs: list[tuple[int, int | None]] = []
    for index in range(0, size, 2):
        better, worse = sorted(order[index : index + 2])
        pairs.append((better, worse if worse <= entries else None))
    return pairs


def seeds_with_byes(entries: int) -> list[int]:
    """The seeds that get a round-1 bye: always the top ``2^k − entries``."""
    return [better for better, worse in first_round_pairs(entries) if worse is None]


def seed_by_rating(ratings: Sequence[tuple[E, float]]) -> list[E]:
    """Entries ordered best rating first; equal ratings keep a stable, deterministic order.

    Ties are broken by the entry id (ascending), so the same input always gives the same
    draw whatever order the database returned the rows in.
    """
    _check_unique([entry for entry, _ in ratings])
    return [entry for entry, _ in sorted(ratings, key=lambda item: (-item[1], item[0]))]


def seed_manually(order: Sequence[E]) -> list[E]:
    """The director's own order, checked for duplicates (a duplicate would be a bug)."""
    _check_unique(order)
    return list(order)


def seed_by_random_draw(entries: Sequence[E], rng: random.Random | int) -> list[E]:
    """A random draw, reproducible from ``rng`` (a ``random.Random`` or an int seed).

    The input is sorted first when possible so the draw depends only on the set of
    entries and the seed, not on the order the rows arrived in.
    """
    _check_unique(entries)
    generator = rng if isinstance(rng, random.Random) else random.Random(rng)
    try:
        pool = sorted(entries)  # type: ignore[type-var]
    except TypeError:
        pool = list(entries)
    generator.shuffle(pool)
    return pool


def _check_unique(entries: Sequence[Hashable]) -> None:
    if len(set(entries)) != len(entries):
        raise FormatError(
            "duplicate_entry", N_("An entry appears twice in the seeding."), "entries"
        )
