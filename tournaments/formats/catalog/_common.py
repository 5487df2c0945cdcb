"""What several formats' declarations share: the knockout help text, feed orders."""

from __future__ import annotations

from ..elimination import DEFAULT_FEED_ORDERS, FeedOrder

FROM_THE_END = (
    "Quarter-finals, semi-finals and final count from the end, so they fit any number "
    "of players; a round given by number comes first."
)


def feed_orders(names: tuple[str, ...]) -> tuple[FeedOrder, ...]:
    """The drop-in orders by name; none given: the default (avoids early rematches)."""
    return tuple(FeedOrder(o) for o in names) or DEFAULT_FEED_ORDERS
