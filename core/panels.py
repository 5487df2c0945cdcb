"""Page panels: what an app shows on a page another app owns.

The club page lists the club's events and chouettes, the match page links back to
the round a match belongs to, the home page shows a player's events: ``games`` owns
those pages but knows nothing of ``tournaments`` or ``chouette``. So a page names
*slots*, and apps register *panels* for them in their ``wiring.py``: a
template and a context provider. The page renders ``{% panels "slot" arg ... %}``
(``core/templatetags/panels.py``): each registered panel of the slot, in order,
rendered with what its provider returns; a provider returning None shows nothing.

Slots and the arguments their providers receive (after the request):

``club.actions``        (club, is_director): buttons next to "Rating list".
``club.above_players``  (club,): sections above the club's players (the events; for
                        its directors, the follow-ups that gave up, ``core.followups``).
``club.below_players``  (club,): sections below them (the open chouettes).
``match.head``          (match,): above the score in the match's header (its event;
                        the rules of its variant, from ``analysis``).
``match.where``         (match,): after the club's name on the home page's match cards
                        (a page showing many calls :func:`prefetch` first, so the
                        panels cost one query for all the matches, not one each).
``home.side``           (player,): cards beside the player's match on the home page.
``match.analysis``      (match,): below the match's games (its analysis summary).
``player.history``      (player,): below the player's rating (the PR history chart).
``club.settings``       (club,): below the club settings form (directors only: the
                        club's data, export and import).

Registering under a name a second time replaces the first panel (``ready()`` may run
twice in tests), as :mod:`core.listeners` does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Provider = Callable[..., Mapping[str, Any] | None]
"""``provider(request, *args)``: the panel template's context, or None to show nothing."""

Prefetcher = Callable[[Sequence[Any]], None]
"""``prefetcher(objects)``: load in one query what the provider will need for each of
``objects`` and keep it on them, so a list of N cards costs the same as one."""


@dataclass(frozen=True)
class Panel:
    name: str
    template: str
    provider: Provider
    order: int = 100
    prefetcher: Prefetcher | None = None


_slots: dict[str, dict[str, Panel]] = {}


def register_panel(
    slot: str,
    name: str,
    *,
    template: str,
    provider: Provider,
    order: int = 100,
    prefetcher: Prefetcher | None = None,
) -> None:
    """Register (or replace) the panel called ``name`` in ``slot``; called from an
    app's ``wiring.py``."""
    _slots.setdefault(slot, {})[name] = Panel(name, template, provider, order, prefetcher)


def prefetch(slot: str, objects: Sequence[Any]) -> None:
    """Let the slot's panels load at once what they will show for each of ``objects``
    (a page about to render the slot once per object calls this first)."""
    if not objects:
        return
    for panel in panels_of(slot):
        if panel.prefetcher is not None:
            panel.prefetcher(objects)


def panels_of(slot: str) -> list[Panel]:
    """The slot's panels, by ``order`` then registration."""
    return sorted(_slots.get(slot, {}).values(), key=lambda panel: panel.order)


def slots() -> dict[str, list[str]]:
    """Every slot with a panel and its panels' names (for tests and the curious)."""
    return {slot: [panel.name for panel in panels_of(slot)] for slot in sorted(_slots)}
