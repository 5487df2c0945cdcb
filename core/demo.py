"""The demo seeders ``manage.py seed_demo`` runs: each app adds its own demo content.

An app registers its seeder from its ``wiring.py`` by dotted path (imported only
when the command runs, so a server never loads demo code); ``seed_demo`` creates the
demo club, its director and players, then calls every seeder in registration order
(``INSTALLED_APPS`` order: the matches before the tournament and the chouette) as
``seed(club=..., director=..., stdout=...)``. Seeders must be idempotent: the
command runs on every ``make run``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.module_loading import import_string

_seeders: dict[str, str] = {}


def register_demo_seeder(name: str, path: str) -> None:
    """Register (or replace) the seeder called ``name``: the dotted path of a function."""
    _seeders[name] = path


def demo_seeders() -> list[tuple[str, Callable[..., Any]]]:
    """The registered seeders, imported, in registration order."""
    return [(name, import_string(path)) for name, path in _seeders.items()]
