"""Everything ``chouette`` plugs into ``core``, in one place (``ChouetteConfig.ready``
calls :func:`register`): the club page's open sessions, the club's time zone on its
pages and the demo. ``tests/core/wiring.txt`` lists every registration.
"""

from __future__ import annotations

from core.demo import register_demo_seeder

from . import club_zones, panels


def register() -> None:
    panels.register()  # the club page's open sessions
    club_zones.register()
    register_demo_seeder("chouette", "chouette.demo.seed")
