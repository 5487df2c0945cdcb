"""Payments people hand over (or owe), and buy-backs into a pool after a knock-out."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Q

from core.actors import Actor
from core.errors import N_
from games.models import Player
from games.rules.errors import ConflictError, RuleViolation
from games.services import tenancy
from money.models import BuyBack, Payment, PaymentMethod
from money.rules import to_cents
from money.selectors import money_view
from tournaments.models import (
    Entry,
    EntryStatus,
    Pairing,
    PairingStatus,
    StageKind,
    Tournament,
    TournamentStatus,
)

from .common import cents_field, directors_only, entries_by_id, event_money_write, pool_by_key


@directors_only
def record_payment(
    *,
    actor: Actor,
    tournament: Tournament,
    player_id: int,
    amount: Decimal,
    method: str,
    note: str = "",
    expected_version: int | None = None,
) -> Payment:
    """Money a person handed over (cash, transfer), or a mark that they owe it."""
    if method not in PaymentMethod.values:
        raise RuleViolation(
            "invalid_method", N_("Paid by cash, transfer, or marked owing."), "method"
        )
    value = cents_field(amount, "amount")
    if method != PaymentMethod.OWING and value <= 0:
        raise RuleViolation("invalid_amount", N_("A payment is above zero."), "amount")
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise RuleViolation("player_not_found", N_("No such player."), "player")
    tenancy.require_member(club=tournament.club, player=player)

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        return Payment.objects.create(
            event=event,
            player=player,
            amount=value,
            method=method,
            note=note[:200],
            recorded_by=actor.user,
        )


@directors_only
def record_payout(
    *,
    actor: Actor,
    tournament: Tournament,
    player_id: int,
    amount: Decimal,
    method: str,
    note: str = "",
    expected_version: int | None = None,
) -> Payment:
    """A prize handed to a player (cash or transfer): the other way from a payment, so it
    is kept as a payment of minus the amount and the player's balance comes down by it.

    Only once the event is finished (the places, so the prizes, are known then) and never
    more than the event owes the player, so a slip of the finger cannot pay twice."""
    if method not in (PaymentMethod.CASH, PaymentMethod.TRANSFER):
        raise RuleViolation("invalid_method", N_("Paid out in cash or by transfer."), "method")
    value = cents_field(amount, "amount")
    if value <= 0:
        raise RuleViolation("invalid_amount", N_("A payout is above zero."), "amount")
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise RuleViolation("player_not_found", N_("No such player."), "player")
    tenancy.require_member(club=tournament.club, player=player)
    if tournament.status != TournamentStatus.FINISHED:
        raise ConflictError(
            "payout_before_finish",
            N_("Prizes are paid out once the event is finished: its places decide them."),
            "amount",
        )
    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        owed = next((p.balance for p in money_view(tournament).people if p.player == player), 0)
        if to_cents(value, field="amount") > owed:
            raise RuleViolation(
                "payout_above_balance",
                N_(
                    "The event owes %(name)s %(owed)s: pay out at most that.",
                    name=player.display_name,
                    owed=f"{Decimal(max(owed, 0)) / 100:.2f}",
                ),
                "amount",
            )
        return Payment.objects.create(
            event=event,
            player=player,
            amount=-value,
            method=method,
            note=note[:200] or "prize",
            recorded_by=actor.user,
        )


@directors_only
def undo_payment(
    *,
    actor: Actor,
    tournament: Tournament,
    payment_id: int,
    expected_version: int | None = None,
) -> Payment:
    """Take back a payment recorded by mistake (the wrong player, twice): the row goes,
    its history stays (who recorded it, who took it back, when). A prize paid out is
    not undone here: it is money that left the club's hands."""
    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        payment = event.payments.select_related("player").filter(pk=payment_id).first()
        if payment is None:
            raise RuleViolation(
                "payment_not_found", N_("No such payment in this event."), "payment"
            )
        if payment.amount < 0:
            raise ConflictError(
                "payout_not_undone",
                N_("A prize paid out is not undone here: record what was handed back."),
                "payment",
            )
        payment.delete()
        return payment


def knocked_out_in(tournament: Tournament, entry: Entry) -> int | None:
    """The main-bracket round the entry lost in (None: not knocked out of the main)."""
    rounds = (
        Pairing.objects.filter(
            Q(entry1=entry) | Q(entry2=entry),
            tournament=tournament,
            status=PairingStatus.PLAYED,
            round__stage__kind__in=(StageKind.MAIN, StageKind.WINNERS),
            stale=False,
        )
        .exclude(winner=entry)
        .values_list("round__number", flat=True)
    )
    return min(rounds, default=None)


@directors_only
def record_buy_back(
    *,
    actor: Actor,
    tournament: Tournament,
    key: str,
    entry_id: int,
    expected_version: int | None = None,
) -> BuyBack:
    """A player knocked out of the main by the pool's deadline round buys into it."""
    entry = entries_by_id(tournament, [entry_id], "entry")[0]
    if entry.status != EntryStatus.ACTIVE:
        raise RuleViolation("entry_withdrawn", N_("A withdrawn entry cannot buy back."), "entry")
    out = knocked_out_in(tournament, entry)

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        pool = pool_by_key(event, key)
        if pool.buy_back_fee is None or pool.buy_back_until_round is None:
            raise RuleViolation(
                "no_buy_backs", N_("%(name)s takes no buy-backs.", name=pool.name), "pool"
            )
        if out is None:
            raise RuleViolation(
                "not_knocked_out",
                N_("Only a player knocked out of the main bracket buys back."),
                "entry",
            )
        if out > pool.buy_back_until_round:
            raise RuleViolation(
                "buy_back_closed",
                N_(
                    "Buy-backs close after round %(buy_back_until_round)s; this player "
                    "went out in round %(out)s.",
                    buy_back_until_round=pool.buy_back_until_round,
                    out=out,
                ),
                "entry",
            )
        if pool.buy_backs.filter(entry=entry).exists():
            raise ConflictError(
                "already_bought_back", N_("This player bought into the pool already."), "entry"
            )
        return BuyBack.objects.create(
            pool=pool, entry=entry, amount=pool.buy_back_fee, out_in_round=out
        )
