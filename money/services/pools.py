"""Pools (main, side, with buy-backs), who is in them, who they pay, and agreed splits."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from core.actors import Actor
from core.errors import N_
from core.text import require_single_line
from games.rules.errors import ConflictError, RuleViolation
from money import rules
from money.models import EventMoney, PaidBy, Pool, Remainder
from tournaments.models import Tournament

from .common import (
    cents_field,
    directors_only,
    entries_by_id,
    event_money_write,
    percent_field,
    pool_by_key,
    refuse_after_payouts,
    table_field,
)

PAYOUT_FIELDS = ("table", "paid_by", "fee", "added", "rake_percent", "rake_fixed", "remainder")
"""A pool's fields that decide what it pays whom: fixed once prizes are paid out."""


@directors_only
def save_pool(
    *,
    actor: Actor,
    tournament: Tournament,
    key: str,
    name: str,
    side: bool = False,
    paid_by: str = PaidBy.EVENT,
    fee: Decimal = Decimal(0),
    added: Decimal = Decimal(0),
    rake_percent: Decimal = Decimal(0),
    rake_fixed: Decimal = Decimal(0),
    table: Sequence[Any] | str = "winner_takes_all",
    remainder: str = Remainder.FIRST,
    buy_back_fee: Decimal | None = None,
    buy_back_until_round: int | None = None,
    expected_version: int | None = None,
) -> Pool:
    """Create or change the pool ``key`` (the main pool: ``side=False``, every entry pays).

    A preset that names whose places it pays (:data:`money.rules.PRESET_PAID_BY`) pays
    them when ``paid_by`` is left at the event's places. Once a prize is paid out, what
    decides the payouts is refused (naming the first field that would change)."""
    if not key or len(key) > 40 or not key.replace("-", "").replace("_", "").isalnum():
        raise RuleViolation("invalid_key", N_("A pool key is letters, digits, - and _."), "key")
    if key in (rules.CALCUTTA, "registration"):
        raise RuleViolation("pool_key_taken", N_("%(key)r is reserved.", key=key), "key")
    if not require_single_line(name, field="name").strip():
        raise RuleViolation("name_required", N_("A pool has a name."), "name")
    if paid_by not in PaidBy.values:
        raise RuleViolation(
            "invalid_paid_by",
            N_("A pool is paid by %(join)s.", join=", ".join(PaidBy.values)),
            "paid_by",
        )
    if remainder not in Remainder.values:
        raise RuleViolation(
            "invalid_remainder", N_("The remainder goes to 'first' or 'house'."), "remainder"
        )
    if isinstance(table, str) and paid_by == PaidBy.EVENT:
        paid_by = rules.PRESET_PAID_BY.get(table, paid_by)
    values = {
        "name": name.strip()[:80],
        "side": side,
        "paid_by": paid_by,
        "fee": cents_field(fee, "fee"),
        "added": cents_field(added, "added"),
        "rake_percent": percent_field(rake_percent, "rake_percent"),
        "rake_fixed": cents_field(rake_fixed, "rake_fixed"),
        "table": table_field(table),
        "remainder": remainder,
        "buy_back_fee": None if buy_back_fee is None else cents_field(buy_back_fee, "buy_back_fee"),
        "buy_back_until_round": buy_back_until_round,
    }
    if (buy_back_fee is None) != (buy_back_until_round is None):
        raise RuleViolation(
            "buy_back_incomplete",
            N_("A buy-back needs both its fee and the last round it is open after."),
            "buy_back_until_round",
        )
    if buy_back_until_round is not None and buy_back_until_round < 1:
        raise RuleViolation("invalid_round", N_("Rounds count from 1."), "buy_back_until_round")

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        if (
            not side
            and event.pools.filter(side=False).exclude(key=key).exists()
            and buy_back_fee is None
        ):
            raise ConflictError(
                "main_pool_exists",
                N_("The event has a main pool already: add a side pool, or a pool with buy-backs."),
                "side",
            )
        before = event.pools.filter(key=key).first()
        if before is None:
            refuse_after_payouts(event, "key")
        else:
            changed = [
                f for f in PAYOUT_FIELDS if _stored(getattr(before, f)) != _stored(values[f])
            ]
            if changed:
                refuse_after_payouts(event, changed[0])
        pool, _ = Pool.objects.update_or_create(
            event=event, key=key, defaults={**values, "order": event.pools.count()}
        )
        return pool


def _stored(value: Any) -> Any:
    """A value as compared with what is stored (amounts by value: 20 is 20.00)."""
    if isinstance(value, Decimal):
        return value.normalize()
    if isinstance(value, list):
        return [Decimal(str(v)).normalize() for v in value]
    return value


@directors_only
def delete_pool(
    *, actor: Actor, tournament: Tournament, key: str, expected_version: int | None = None
) -> None:
    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        pool = pool_by_key(event, key)
        refuse_after_payouts(event, "key")
        if pool.buy_backs.exists():
            raise ConflictError(
                "pool_has_buy_backs", N_("Players bought into this pool: it stays."), "key"
            )
        pool.delete()


@directors_only
def set_side_pool_entrants(
    *,
    actor: Actor,
    tournament: Tournament,
    key: str,
    entry_ids: Sequence[int],
    expected_version: int | None = None,
) -> Pool:
    """Who is in a side pool (each pays its fee)."""

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        pool = pool_by_key(event, key)
        if not pool.side:
            raise RuleViolation("not_a_side_pool", N_("Every entry is in the main pool."), "pool")
        pool.entrants.set(entries_by_id(tournament, entry_ids, "entries"))
        return pool


@directors_only
def set_award_order(
    *,
    actor: Actor,
    tournament: Tournament,
    key: str,
    groups: Sequence[Sequence[int]] | None,
    expected_version: int | None = None,
) -> Pool:
    """The director's decision on who a pool pays, best first (None: by the places)."""

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        pool = pool_by_key(event, key)
        if groups is None:
            pool.award_order = None
        else:
            flat = [e for group in groups for e in group]
            entries_by_id(tournament, flat, "award_order")
            if len(set(flat)) != len(flat):
                raise RuleViolation(
                    "place_listed_twice", N_("Each entry is listed once."), "award_order"
                )
            pool.award_order = [list(group) for group in groups if group]
        pool.save()
        return pool


@directors_only
def record_split(
    *,
    actor: Actor,
    tournament: Tournament,
    entry_ids: Sequence[int],
    expected_version: int | None = None,
) -> EventMoney:
    """Players who agreed to split what their places pay (equally); recorded by the director."""
    if len(set(entry_ids)) < 2:
        raise RuleViolation(
            "split_too_small", N_("A split is between two or more players."), "entries"
        )

    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        entries_by_id(tournament, entry_ids, "entries")
        taken = {e for group in event.splits for e in group}
        if taken & set(entry_ids):
            raise RuleViolation(
                "split_listed_twice", N_("A player is in another split already."), "entries"
            )
        event.splits = [*event.splits, sorted(set(entry_ids))]
        event.save()
        return event


@directors_only
def clear_splits(
    *, actor: Actor, tournament: Tournament, expected_version: int | None = None
) -> EventMoney:
    with event_money_write(
        actor=actor, tournament=tournament, expected_version=expected_version
    ) as event:
        event.splits = []
        event.save()
        return event
