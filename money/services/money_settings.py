"""The club's money settings (currency, payout unit, what the public sees) and an
event's registration fee."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from core.actors import Actor
from core.errors import N_
from games.rules.errors import RuleViolation
from money.models import ClubMoney, EventMoney
from tournaments.models import Tournament

from .common import cents_field, directors_only, event_money_write, require_director


@directors_only
def save_club_money(
    *,
    actor: Actor,
    tournament: Tournament,
    currency: str,
    payout_unit: Decimal,
    publish_payouts: bool,
    publish_calcutta: bool,
) -> ClubMoney:
    """The club's currency, smallest unit paid out and what the public sees."""
    require_director(actor, tournament)
    if not (len(currency) == 3 and currency.isalpha()):
        raise RuleViolation(
            "invalid_currency", N_("A currency is a three-letter code such as EUR."), "currency"
        )
    unit = cents_field(payout_unit, "payout_unit")
    if unit <= 0:
        raise RuleViolation(
            "invalid_unit", N_("The payout unit is at least one cent."), "payout_unit"
        )
    with transaction.atomic():
        club, _ = ClubMoney.objects.select_for_update().get_or_create(club_id=tournament.club_id)
        club.currency = currency.upper()
        club.payout_unit = unit
        club.publish_payouts = publish_payouts
        club.publish_calcutta = publish_calcutta
        club.save()
        return club


@directors_only
def set_registration_fee(
    *,
    actor: Actor,
    tournament: Tournament,
    registration_fee: Decimal,
    expected_version: int | None = None,
) -> EventMoney:
    """The registration fee: paid by every entry, kept by the club, in no pool."""
    fee = cents_field(registration_fee, "registration_fee")

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        event.registration_fee = fee
        event.save()
        return event
