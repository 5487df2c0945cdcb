"""Everything ``money`` plugs into ``core``, in one place (``MoneyConfig.ready`` calls
:func:`register`): the money pages in the club's time zone and the club page's link.
``tests/core/wiring.txt`` lists every registration.
"""

from __future__ import annotations

from . import club_zones, panels


def register() -> None:
    club_zones.register()
    panels.register()  # the club page's link to its points table
