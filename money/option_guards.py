"""What money fixes about an event's options: the prize order, once prizes are paid.

Why here: money pays each place by the event's prize order (``tournaments.options``
declares it, "any time" for the event itself). Once the first prize is handed over,
changing the order would change who was owed what after the cash left the table, so
money refuses it, through whichever door the change comes (the API's PATCH of the
event, its settings page, the money page's own prize-order form), with the same 409
``payouts_started`` the money page answers.
"""

from __future__ import annotations

from money.models import EventMoney
from money.services.common import refuse_after_payouts
from tournaments import options as tournament_options
from tournaments.models import Tournament


def prize_order_fixed_after_payouts(tournament: Tournament) -> None:
    event = EventMoney.objects.filter(tournament=tournament).first()
    if event is not None:
        refuse_after_payouts(event, "prize_order")


def register() -> None:
    tournament_options.register_change_guard(
        "prize_order", "money.payouts", prize_order_fixed_after_payouts
    )
