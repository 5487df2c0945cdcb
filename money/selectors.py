"""Reads of event money: the ledger derived from what is stored, places from the bracket.

:func:`money_view` is the one read every page, endpoint and CSV uses: it loads the
event's money rows, turns them into :mod:`money.rules` specs (player ids as the
parties), takes the finishing places from ``tournaments.selectors.standings_table``
once the event is finished, and builds the ledger (which checks itself: it balances or
it raises). The services call the same builder before every write, so a write that
would unbalance the ledger is refused before anything is stored.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from django.db.models import QuerySet
from django.utils.translation import gettext

from games.models import Club, Player
from money import rules
from money.models import (
    Calcutta,
    ClubMoney,
    ClubPointsTable,
    EventMasterPoints,
    EventMoney,
    PaymentMethod,
    Pool,
)
from tournaments.models import Entry, EntryStatus, Tournament, TournamentStatus
from tournaments.selectors import standings_table

HOUSE_LABEL = "Club"


def club_money(tournament: Tournament) -> ClubMoney:
    """The club's money settings (defaults until a director saves them)."""
    found = ClubMoney.objects.filter(club_id=tournament.club_id).first()
    return found or ClubMoney(club_id=tournament.club_id)


def event_money(tournament: Tournament) -> EventMoney | None:
    return EventMoney.objects.filter(tournament=tournament).first()


def finishing_places(tournament: Tournament) -> dict[str, list[list[int]]] | None:
    """The event's places as groups of player ids, best first; None until it is finished.

    ``"event"``: every place in the event's prize order (elimination) or the standings
    ranks (Swiss, round robin; tied ranks are groups). For elimination events also one
    list per bracket (``"main"``, ``"consolation"``, ``"last_chance"``), and the
    combined lists a pool may be paid by (``"main_consolation"``: main 1–2, then
    consolation 1–2, :data:`money.rules.COMBINED_PLACES`).
    """
    if tournament.status != TournamentStatus.FINISHED:
        return None
    table = standings_table(tournament)
    result: dict[str, list[list[int]]] = {
        "event": [],
        "main": [],
        "consolation": [],
        "last_chance": [],
    }
    if tournament.is_elimination and table.places:
        for place in table.places:
            group = [entry.player_id for entry in place.entries]
            result["event"].append(group)
            result.setdefault(place.block, []).append(group)
        brackets = {block: result[block] for block in ("main", "consolation", "last_chance")}
        for name, steps in rules.COMBINED_PLACES.items():
            result[name] = cast("list[list[int]]", rules.combine_places(brackets, steps))
        return result
    groups: dict[int, list[int]] = {}
    for standing in table.rows:
        groups.setdefault(standing.row.rank, []).append(standing.entry.player_id)
    result["event"] = [groups[rank] for rank in sorted(groups)]
    result["main"] = result["event"]
    for name in rules.COMBINED_PLACES:
        result[name] = result["event"]  # no brackets: the standings' places
    return result


def _cents(amount: Decimal | None) -> int:
    return rules.to_cents(amount or Decimal(0), field="amount")


def _unit(club: ClubMoney) -> int:
    return max(1, _cents(club.payout_unit))


def pool_spec(
    pool: Pool, *, entries: dict[int, int], active: list[int], unit: int
) -> rules.PoolSpec:
    """A stored pool as the rules see it (``entries``: entry id -> player id)."""
    entrants = tuple(entries[e.pk] for e in pool.entrants.all()) if pool.side else tuple(active)
    award = (
        tuple(tuple(entries[e] for e in group if e in entries) for group in pool.award_order)
        if pool.award_order is not None
        else None
    )
    return rules.PoolSpec(
        key=pool.key,
        fee=_cents(pool.fee),
        entrants=entrants,
        table=tuple(Decimal(str(p)) for p in pool.table),
        added=_cents(pool.added),
        rake_percent=Fraction(pool.rake_percent),
        rake_fixed=_cents(pool.rake_fixed),
        unit=unit,
        remainder=rules.Remainder(pool.remainder),
        side=pool.side or pool.buy_back_fee is not None,
        buy_ins=tuple((entries[b.entry_id], _cents(b.amount)) for b in pool.buy_backs.all()),
        award_order=award,
        splits=(),
    )


def calcutta_spec(calcutta: Calcutta, *, entries: dict[int, int], unit: int) -> rules.CalcuttaSpec:
    lots: dict[str, list[int]] = {}
    sales: list[rules.Sale] = []
    for lot in calcutta.lots.all():
        key = str(lot.pk)
        lots[key] = [entries[e.pk] for e in lot.entries.all()]
        if lot.price is None:
            continue
        shares = list(lot.shares.all())
        sales.append(
            rules.Sale(
                lot=key,
                price=_cents(lot.price),
                buyers=tuple(
                    (s.player_id, Fraction(s.percent) / 100) for s in shares if not s.buy_back
                ),
                buy_backs=tuple(
                    (s.player_id, Fraction(s.percent) / 100) for s in shares if s.buy_back
                ),
            )
        )
    return rules.CalcuttaSpec(
        lots=lots,
        sales=sales,
        table=tuple(Decimal(str(p)) for p in calcutta.table) or (Decimal(100),),
        rake_percent=Fraction(calcutta.rake_percent),
        rake_fixed=_cents(calcutta.rake_fixed),
        unit=unit,
        remainder=rules.Remainder(calcutta.remainder),
    )


def pool_names(pools: list[Pool]) -> dict[str, str]:
    """Pool key -> the name pages show (the Calcutta and registration included)."""
    names = {p.key: p.name for p in pools}
    # built by the code, not typed: in the reader's language (docs/languages.md)
    names.update({rules.CALCUTTA: gettext("Calcutta"), "registration": gettext("Registration")})
    return names


@dataclass
class PersonMoney:
    """One person's money in the event: what they put in, won, paid, and still owe."""

    player: Player | None  # None: the club
    lines: list[rules.Line] = field(default_factory=list)
    paid: int = 0
    owing_marked: bool = False
    pool_names: dict[str, str] = field(default_factory=dict)

    @property
    def grouped(self) -> list[tuple[str, str, int, int]]:
        """The lines summed by pool and kind: (pool name, kind, amount, how many lines)."""
        sums: dict[tuple[str, str], list[int]] = {}
        for line in self.lines:
            entry = sums.setdefault((line.pool, line.kind), [0, 0])
            entry[0] += line.amount
            entry[1] += 1
        return [
            (self.pool_names.get(pool, pool), kind, total, count)
            for (pool, kind), (total, count) in sums.items()
        ]

    @property
    def name(self) -> str:
        return self.player.display_name if self.player else HOUSE_LABEL

    @property
    def net(self) -> int:
        return sum(line.amount for line in self.lines)

    @property
    def balance(self) -> int:
        """What the event still owes them (negative: what they still owe)."""
        return self.net + self.paid


@dataclass
class MoneyView:
    tournament: Tournament
    club: ClubMoney
    event: EventMoney | None
    ledger: rules.EventLedger
    pools: list[Pool]
    calcutta: Calcutta | None
    players: dict[int, Player]
    people: list[PersonMoney]
    transfers: list[tuple[str, str, int]]
    finished: bool

    @property
    def currency(self) -> str:
        return self.club.currency

    def pool_name(self, key: str) -> str:
        return pool_names(self.pools).get(key, key)

    def party_name(self, key: str, party: object) -> str:
        """A payee's name: a player, or a Calcutta lot's label."""
        if key == rules.CALCUTTA and self.calcutta is not None:
            labels = {str(lot.pk): lot.label for lot in self.calcutta.lots.all()}
            return labels.get(str(party), str(party))
        player = self.players.get(party)  # type: ignore[call-overload]
        return player.display_name if player else HOUSE_LABEL

    def payout_rows(
        self, key: str, distribution: rules.Distribution | None
    ) -> list[dict[str, object]]:
        if distribution is None:
            return []
        return [
            {
                "position": p.position,
                "shared": len(p.group),
                "name": self.party_name(key, p.person),
                "amount": p.amount,
            }
            for p in distribution.payments
        ]

    def pool_summary(self) -> list[dict[str, Any]]:
        """Per pool: money in, rake, paid out, remainder, held (cents)."""
        rows = []
        for key in self.ledger.pools:
            kinds = self.ledger.pool_totals(key)
            money_in = -sum(
                line.amount for line in self.ledger.lines if line.pool == key and line.amount < 0
            )
            distribution = self.ledger.distributions.get(key)
            parts = [
                ("rake", kinds.get("rake", 0)),
                ("paid", kinds.get("payout", 0) + kinds.get("winnings", 0)),
                ("remainder", kinds.get("remainder", 0)),
                ("held", kinds.get("held", 0)),
            ]
            if key == "registration":
                parts = [("rake", kinds.get("registration", 0) + money_in)]
            bar, x = [], 0.0
            for part, value in parts:
                width = 100.0 * value / money_in if money_in else 0.0
                if width > 0:
                    bar.append({"part": part, "x": round(x, 2), "width": round(width, 2)})
                x += width
            rows.append(
                {
                    "key": key,
                    "name": self.pool_name(key),
                    "money_in": money_in,
                    "rake": kinds.get("rake", 0),
                    "paid_out": kinds.get("payout", 0) + kinds.get("winnings", 0),
                    "remainder": kinds.get("remainder", 0),
                    "held": kinds.get("held", 0),
                    "distribution": distribution,
                    "payouts": self.payout_rows(key, distribution),
                    "bar": bar,
                }
            )
        return rows


def build_ledger(
    tournament: Tournament, event: EventMoney | None, club: ClubMoney
) -> tuple[rules.EventLedger, list[Pool], Calcutta | None, dict[int, int]]:
    """The ledger from the stored rows (raises a RuleViolation if they cannot balance)."""
    entry_rows = list(
        Entry.objects.filter(tournament=tournament).values_list("pk", "player_id", "status")
    )
    entries = {pk: player for pk, player, _ in entry_rows}
    active = [player for _, player, status in entry_rows if status == EntryStatus.ACTIVE]
    if event is None:
        return rules.event_ledger(pools=[], places=None), [], None, entries
    unit = _unit(club)
    pools = list(event.pools.prefetch_related("entrants", "buy_backs"))
    all_places = finishing_places(tournament)
    splits = tuple(tuple(entries[e] for e in group if e in entries) for group in event.splits)
    specs = []
    for pool in pools:
        spec = pool_spec(pool, entries=entries, active=active, unit=unit)
        places = all_places.get(pool.paid_by, []) if all_places is not None else None
        if splits and places is not None:
            held = {p for group in rules.pool_places(spec, places) for p in group}
            own = tuple(s for s in (tuple(p for p in g if p in held) for g in splits) if len(s) > 1)
            spec = replace(spec, splits=own)
        specs.append((spec, places))
    registration_fee = _cents(event.registration_fee)
    calcutta = (
        Calcutta.objects.filter(event=event)
        .prefetch_related("lots__entries", "lots__shares")
        .first()
    )
    ledger = rules.event_ledger(
        pools=[spec for spec, _ in specs],
        pool_places={spec.key: places for spec, places in specs if places is not None},
        places=all_places["event"] if all_places is not None else None,
        registration=dict.fromkeys(active, registration_fee),
        calcutta=calcutta_spec(calcutta, entries=entries, unit=unit) if calcutta else None,
    )
    return ledger, pools, calcutta, entries


def money_view(tournament: Tournament) -> MoneyView:
    """Everything the money pages, the API and the CSV show, derived from the rows."""
    club = club_money(tournament)
    event = event_money(tournament)
    ledger, pools, calcutta, _ = build_ledger(tournament, event, club)
    paid: dict[Hashable, int] = defaultdict(int)
    owing: set[int] = set()
    if event is not None:
        for payment in event.payments.all():
            if payment.method == PaymentMethod.OWING:
                owing.add(payment.player_id)
            else:
                # a prize paid out is a payment of minus its amount (record_payout)
                paid[payment.player_id] += rules.to_cents(
                    payment.amount, field="amount", allow_negative=True
                )
    parties = {line.party for line in ledger.lines} | set(paid)
    ids = [p for p in parties if p is not rules.HOUSE]
    players = Player.objects.in_bulk(ids)
    by_party: dict[object, PersonMoney] = {}
    for party in parties:
        by_party[party] = PersonMoney(
            player=None if party is rules.HOUSE else players[party],
            paid=paid.get(party, 0) if party is not rules.HOUSE else -sum(paid.values()),
            owing_marked=party in owing,
        )
    for line in ledger.lines:
        by_party[line.party].lines.append(line)
    names = pool_names(pools)
    for person in by_party.values():
        person.pool_names = names
    people = sorted(by_party.values(), key=lambda p: (p.player is None, p.name.lower()))

    def name(party: object) -> str:
        return HOUSE_LABEL if party is rules.HOUSE else players[party].display_name

    transfers = [
        (name(payer), name(payee), amount) for payer, payee, amount in rules.settle(ledger, paid)
    ]
    return MoneyView(
        tournament=tournament,
        club=club,
        event=event,
        ledger=ledger,
        pools=pools,
        calcutta=calcutta,
        players=players,
        people=people,
        transfers=transfers,
        finished=tournament.status == TournamentStatus.FINISHED,
    )


# --- what the money pages list beside the ledger --------------------------------------


def payouts_started(event: EventMoney | None) -> bool:
    """Has a prize been handed over? (a payout is kept as a payment of minus its
    amount); from then on the prize order and the payout tables are fixed."""
    return event is not None and event.payments.filter(amount__lt=0).exists()


def prize_order_words(tournament: Tournament) -> str:
    """The event's prize order in words ("main places, consolation 1–2, ...")."""
    from tournaments.formats.places import describe_prize_order

    return describe_prize_order(tournament.prize_order)


def door_payments(tournament: Tournament, player_id: int | None = None) -> dict[int, list[Any]]:
    """Each player's payments in the event (or only ``player_id``'s), oldest first
    (player id -> payments): what the door page marks as paid and offers to undo."""
    found: dict[int, list[Any]] = defaultdict(list)
    event = event_money(tournament)
    if event is not None:
        payments = event.payments.order_by("recorded_at", "pk")
        if player_id is not None:
            payments = payments.filter(player_id=player_id)
        for payment in payments:
            found[payment.player_id].append(payment)
    return found


def player_money(tournament: Tournament, player_id: int) -> tuple[int, int]:
    """One player's (paid, balance) in cents, as :func:`money_view` has them, reading the
    ledger and only their payments: what the door page's row shows after each tap
    (one row re-rendered, not the whole event's people)."""
    event = event_money(tournament)
    ledger, _, _, _ = build_ledger(tournament, event, club_money(tournament))
    net = sum(line.amount for line in ledger.lines if line.party == player_id)
    paid = 0
    if event is not None:
        for amount in (
            event.payments.filter(player_id=player_id)
            .exclude(method=PaymentMethod.OWING)
            .values_list("amount", flat=True)
        ):
            paid += rules.to_cents(amount, field="amount", allow_negative=True)
    return paid, net + paid


def event_entries(tournament: Tournament) -> QuerySet[Entry]:
    """The event's entries with their players, in seed order (the pages' player lists)."""
    return (
        Entry.objects.filter(tournament=tournament).select_related("player").order_by("seed", "pk")
    )


def entry_names(tournament: Tournament) -> dict[int, str]:
    """Each entry's player name, by entry id."""
    return dict(
        Entry.objects.filter(tournament=tournament).values_list("pk", "player__display_name")
    )


def club_players(club: Club) -> QuerySet[Player]:
    """The club's players by name (who may buy a Calcutta lot)."""
    return Player.objects.filter(clubs=club).order_by("display_name")


def player_names(player_ids: Iterable[int]) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "display_name"))


def event_master_points_setting(tournament: Tournament) -> EventMasterPoints | None:
    """The event's master-points setting, if a director chose one."""
    return EventMasterPoints.objects.filter(tournament=tournament).first()


def club_points_tables(club: Club) -> list[ClubPointsTable]:
    """Every version of the club's points table, newest first."""
    return list(ClubPointsTable.objects.filter(club=club).order_by("-version"))


def event_by_slug(slug: str) -> Tournament:
    """The event a money page is about, with its club (404 when there is none)."""
    from django.shortcuts import get_object_or_404

    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def club_by_slug(slug: str) -> Club:
    """The club a master-points page is about (404 when there is none)."""
    from django.shortcuts import get_object_or_404

    return get_object_or_404(Club, slug=slug)
