"""What every event-money write shares: the director check, the one write helper
(:func:`event_money_write`: lock, authorize, version, balance, bump) and the input
checks several use cases repeat (amounts, percentages, payout tables, pools, entries)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from typing import Any, TypeVar

from django.db import transaction

from core import access, locking
from core.actors import Actor
from core.errors import N_
from games.rules.errors import ConflictError, RuleViolation
from money import rules
from money.models import EventMoney, Pool
from money.selectors import build_ledger, club_money, payouts_started
from tournaments.models import Entry, Tournament

T = TypeVar("T")


def require_director(actor: Actor, tournament: Tournament) -> None:
    access.require_director(
        actor, tournament.club, detail="Only the club's directors manage an event's money."
    )


def directors_only(service: Callable[..., T]) -> Callable[..., T]:
    """Refuse a stranger (403) before the service reads or checks anything of the input,
    so nobody learns from a 400 what they may not change; :func:`event_money_write`
    checks again under the lock."""

    @functools.wraps(service)
    def guarded(*, actor: Actor, tournament: Tournament, **kwargs: Any) -> T:
        require_director(actor, tournament)
        return service(actor=actor, tournament=tournament, **kwargs)

    return guarded


@contextlib.contextmanager
def event_money_write(
    *, actor: Actor, tournament: Tournament, expected_version: int | None
) -> Iterator[EventMoney]:
    """The one way event money is written: lock → authorize → version → (the caller's
    change, in the ``with`` block) → the ledger still balances → bump.

    One transaction: an exception in the block, or a ledger that no longer balances,
    rolls everything back. The input is checked before the block, so a bad field is a
    400 even when the version is stale; a stranger is refused under the lock again.
    """
    with transaction.atomic():
        event, _ = EventMoney.objects.get_or_create(tournament=tournament)
        event = locking.lock_row(EventMoney.objects.all(), event.pk, noun="event money", field=None)
        require_director(actor, tournament)
        locking.check_version(event, expected_version, noun="event money")
        yield event
        build_ledger(tournament, event, club_money(tournament))  # raises if it cannot balance
        locking.bump(event)


def refuse_after_payouts(event: EventMoney, field: str) -> None:
    """What decides who is paid what (the prize order, a payout table, a pool's money)
    is fixed once the first prize is handed over: changing it then would change what
    people were already paid, so it is refused in words, naming ``field``."""
    if payouts_started(event):
        raise ConflictError(
            "payouts_started",
            N_(
                "Prizes are being paid out: the prize order and the payout tables can no "
                "longer change."
            ),
            field,
        )


def cents_field(value: Any, field: str) -> Decimal:
    return rules.from_cents(rules.to_cents(value, field=field))


def table_field(table: Sequence[Any] | str, field: str = "table") -> list[str]:
    if isinstance(table, str):
        if table not in rules.PRESETS:
            raise RuleViolation(
                "unknown_preset",
                N_(
                    "Unknown payout preset %(table)r: use one of %(join)s.",
                    table=table,
                    join=", ".join(rules.PRESETS),
                ),
                field,
            )
        table = rules.PRESETS[table][1]
    values = []
    for i, value in enumerate(table):
        if isinstance(value, str):
            try:
                value = Decimal(value)
            except ArithmeticError:
                raise RuleViolation(
                    "invalid_percent", N_("A percentage is a number."), f"{field}[{i}]"
                ) from None
        values.append(value)
    rules.check_table(values, field=field)
    # fixed-point, never exponent: 100 is stored "100", not "1E+2"
    return [format(Decimal(v).normalize(), "f") for v in values]


def percent_field(value: Any, field: str) -> Decimal:
    rules.to_percent(value, field=field)
    return Decimal(value)


def pool_by_key(event: EventMoney, key: str) -> Pool:
    pool = event.pools.filter(key=key).first()
    if pool is None:
        raise RuleViolation("pool_not_found", N_("The event has no pool %(key)r.", key=key), "pool")
    return pool


def entries_by_id(tournament: Tournament, ids: Sequence[int], field: str) -> list[Entry]:
    found = {e.pk: e for e in Entry.objects.filter(tournament=tournament, pk__in=list(ids))}
    missing = [i for i in ids if i not in found]
    if missing:
        raise RuleViolation(
            "entry_not_found", N_("No entry %(value)s in this event.", value=missing[0]), field
        )
    return [found[i] for i in dict.fromkeys(ids)]
