"""The buy-in the WBGF export checks, read from the event's money (docs/federations.md).

What an entrant pays to play: the registration fee plus the fees of the main (not side)
pools, in the club's currency. None when the club recorded no money for the event (no
``EventMoney``), so the check says "no fee recorded" rather than a made-up zero.
Registered with ``tournaments.federation.buy_in`` from :class:`money.apps.MoneyConfig`.
"""

from __future__ import annotations

from decimal import Decimal

from money.models import ClubMoney, EventMoney, Pool
from tournaments.federation.buy_in import register_buy_in
from tournaments.models import Tournament


def buy_in(tournament: Tournament) -> tuple[Decimal, str] | None:
    event = EventMoney.objects.filter(tournament=tournament).first()
    if event is None:
        return None
    pools = Pool.objects.filter(event=event, side=False).values_list("fee", flat=True)
    amount = event.registration_fee + sum(pools, Decimal(0))
    currency = (
        ClubMoney.objects.filter(club_id=tournament.club_id)
        .values_list("currency", flat=True)
        .first()
        or "EUR"
    )
    return amount, currency


def register() -> None:
    register_buy_in(buy_in)
