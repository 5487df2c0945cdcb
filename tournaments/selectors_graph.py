"""The pure graph of an event's bracket, built from the event's stored settings.

A read that costs no query: the format's builder (``tournaments.formats``) run on the
number of entries and the wiring the director chose, cached by those settings. The
selectors (places, the champion) and the services (the draw, advancement, the odds)
both need it, so it lives here, beside the selectors, rather than in a service.
"""

from __future__ import annotations

from functools import lru_cache

from tournaments.formats import registry as format_registry
from tournaments.formats.bracket_graph import BracketGraph
from tournaments.formats.registry import GraphOptions
from tournaments.formats.round_robin import build_playoff
from tournaments.models import Tournament


@lru_cache(maxsize=64)
def _cached_graph(
    fmt: str,
    entries: int,
    consolation_from: tuple[int, ...],
    last_chance_from: tuple[int, ...],
    reset: bool,
    feed_orders: tuple[str, ...],
    last_chance_drawn: tuple[int, ...] = (),
) -> BracketGraph:
    # a format without a bracket of its own (a Swiss) answers the drop map of a
    # plain knockout, as a playoff of its entries would be
    build = format_registry.spec(fmt).graph or (lambda count, _: build_playoff(count))
    options = GraphOptions(
        consolation_from, last_chance_from, reset, feed_orders, last_chance_drawn
    )
    return build(entries, options)


def bracket_graph(tournament: Tournament, entries: int | None = None) -> BracketGraph:
    """The pure graph of the tournament's bracket (the playoff for a round robin).

    Once drawn, a bracket keeps the last-chance wiring it was drawn with
    (``drawn_last_chance_from``), so its stored slots always match the graph.
    """
    return _cached_graph(
        tournament.format,
        entries if entries is not None else len(tournament.bracket_order),
        tuple(tournament.consolation_from or ()),
        tuple(tournament.last_chance_from or ()),
        tournament.grand_final_reset,
        tuple(tournament.feed_orders or ()),
        tuple(tournament.drawn_last_chance_from or ()),
    )
