"""Everything ``money`` plugs into ``core``, in one place (``MoneyConfig.ready`` calls
:func:`register`): the money pages in the club's time zone, the club page's link, the
buy-in the federation exports read and the prize order fixed once prizes are paid.
``tests/core/wiring.txt`` lists every registration.
"""

from __future__ import annotations

from . import club_zones, federation_buy_in, option_guards, panels


def register() -> None:
    club_zones.register()
    panels.register()  # the club page's link to its points table
    federation_buy_in.register()  # the buy-in the WBGF export checks
    option_guards.register()  # the prize order is fixed once prizes are paid
