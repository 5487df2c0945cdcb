"""The federation bodies' exports registry: each export declared once (pure, no Django).

An export (``FederationExport``: the body and the ranking that receives it) is one
:class:`FederationBody`: how its file and summary are built from a finished event,
what it refuses in the director's choices before anything is read, and what its
mail says beyond the common lines. The declarations are
:mod:`tournaments.federation.catalog`, registered by ``tournaments/wiring.py``;
``services.build_export`` and ``services.send_export`` ask :func:`body` instead of
comparing the key. ``tests/tournaments/federation/test_bodies.py`` fails when an export
has no declaration or a declaration lacks a part.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


def _no_check(options: Any) -> None:
    """The export reads none of the director's choices."""


def _no_lines(built: Any) -> list[str]:
    """Nothing beyond the common lines."""
    return []


@dataclass(frozen=True)
class FederationBody:
    """One export. ``build(tournament, info, options)`` returns the ``services.Export``
    (file and summary); ``check_options(options)`` refuses a bad choice (400 naming the
    field) before the event is read; ``mail_lines(export)`` are the mail's own lines, in
    English (the bodies read English)."""

    key: str
    build: Callable[[Any, Any, Any], Any]
    check_options: Callable[[Any], None] = _no_check
    mail_lines: Callable[[Any], list[str]] = _no_lines


_BODIES: dict[str, FederationBody] = {}


def register(bodies: Sequence[FederationBody]) -> None:
    """Declare the exports (``tournaments/wiring.py``, once)."""
    for declared in bodies:
        if declared.key in _BODIES:
            raise ValueError(f"federation export {declared.key!r} is registered twice")
        _BODIES[declared.key] = declared


def bodies() -> tuple[FederationBody, ...]:
    return tuple(_BODIES.values())


def body(key: str) -> FederationBody:
    """The declaration of the export ``key`` (a ``FederationExport`` value)."""
    return _BODIES[key]
