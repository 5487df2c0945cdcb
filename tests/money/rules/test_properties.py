"""Properties: for any fees, rakes, tables, splits, side pools and Calcutta shares,
every ledger balances to the cent and every rounding remainder is accounted for."""

from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from core.settlement import minimum_transfers
from money.rules import (
    HOUSE,
    CalcuttaSpec,
    PoolSpec,
    Remainder,
    Sale,
    distribute,
    event_ledger,
    settle,
    settlement_balances,
    split_exactly,
)

PEOPLE = [f"p{i}" for i in range(9)]  # with the backers and the house: 13 parties
BACKERS = ["x", "y", "z"]


@st.composite
def tables(draw):
    """Percentages with up to one decimal that sum to exactly 100."""
    n = draw(st.integers(1, 8))
    cuts = sorted(draw(st.lists(st.integers(0, 1000), min_size=n - 1, max_size=n - 1)))
    bounds = [0, *cuts, 1000]
    return tuple(Decimal(bounds[i + 1] - bounds[i]) / 10 for i in range(n))


@st.composite
def places(draw, people=PEOPLE):
    """The people in a random order, cut into shared places of 1-4."""
    order = draw(st.permutations(people))
    groups = []
    i = 0
    while i < len(order):
        size = draw(st.integers(1, 4))
        groups.append(list(order[i : i + size]))
        i += size
    return groups


@st.composite
def pools(draw, key, side=False):
    entrants = draw(st.lists(st.sampled_from(PEOPLE), unique=True, min_size=0 if side else 1))
    buy_ins = tuple(
        (p, draw(st.integers(0, 5000)))
        for p in draw(st.lists(st.sampled_from(PEOPLE), unique=True, max_size=3))
    )
    return PoolSpec(
        key=key,
        fee=draw(st.integers(0, 20000)),
        entrants=tuple(entrants),
        table=draw(tables()),
        added=draw(st.integers(0, 50000)),
        rake_percent=Fraction(draw(st.integers(0, 1000)), 10),
        rake_fixed=draw(st.integers(0, 3000)),
        unit=draw(st.sampled_from([1, 5, 10, 100, 500])),
        remainder=draw(st.sampled_from(list(Remainder))),
        side=side,
        buy_ins=buy_ins,
    )


@st.composite
def calcuttas(draw):
    members = list(PEOPLE)
    lots: dict[str, list[str]] = {}
    i = 0
    while i < len(members):
        size = draw(st.integers(1, 3))
        lots[f"lot{len(lots)}"] = members[i : i + size]
        i += size
    sales = []
    for key, players in lots.items():
        if not draw(st.booleans()):
            continue
        buyers = draw(
            st.lists(st.sampled_from(BACKERS + PEOPLE), unique=True, min_size=1, max_size=3)
        )
        weights = [draw(st.integers(1, 7)) for _ in buyers]
        shares = [Fraction(w, sum(weights)) for w in weights]
        buy_backs: tuple[tuple[str, Fraction], ...] = ()
        if draw(st.booleans()):
            buy_backs = ((players[0], Fraction(draw(st.integers(1, 50)), 100)),)
        sales.append(
            Sale(
                lot=key,
                price=draw(st.integers(1, 100000)),
                buyers=tuple(zip(buyers, shares, strict=True)),
                buy_backs=buy_backs,
            )
        )
    return CalcuttaSpec(
        lots=lots,
        sales=sales,
        table=draw(tables()),
        rake_percent=Fraction(draw(st.integers(0, 300)), 10),
        rake_fixed=draw(st.integers(0, 1000)),
        unit=draw(st.sampled_from([1, 100, 500])),
        remainder=draw(st.sampled_from(list(Remainder))),
    )


@given(
    net=st.integers(0, 10**7),
    table=tables(),
    order=places(),
    unit=st.sampled_from([1, 5, 25, 100, 1000]),
    remainder=st.sampled_from(list(Remainder)),
    split=st.lists(st.sampled_from(PEOPLE), unique=True, min_size=2, max_size=4) | st.none(),
)
def test_distribution_pays_the_whole_pool(net, table, order, unit, remainder, split):
    result = distribute(
        net, order, table, unit=unit, remainder=remainder, splits=[split] if split else []
    )
    assert result.paid + result.house_remainder == net
    assert result.remainder >= 0
    # every payment but the one that took the remainder is a multiple of the unit
    takers = 1 if remainder is Remainder.FIRST and result.remainder else 0
    off_unit = [p for p in result.payments if p.amount % unit]
    assert len(off_unit) <= takers
    # the remainder is less than one unit per person paid
    assert result.remainder < unit * max(1, len(result.payments))
    # partners in a shared place (or a split) get the same, but for the remainder
    for p in result.payments:
        for q in result.payments:
            if p.group == q.group:
                assert abs(p.amount - q.amount) <= result.remainder


@given(
    main=pools("main"),
    side=pools("side", side=True),
    consolation=pools("consolation"),
    order=places(),
    finished=st.booleans(),
    registration=st.dictionaries(st.sampled_from(PEOPLE), st.integers(0, 2000)),
    calcutta=calcuttas() | st.none(),
    paid=st.dictionaries(st.sampled_from(PEOPLE + BACKERS), st.integers(0, 50000)),
)
@settings(max_examples=150, deadline=None)
def test_every_ledger_balances_to_the_cent(
    main, side, consolation, order, finished, registration, calcutta, paid
):
    ledger = event_ledger(
        pools=[main, side, consolation],
        places=order if finished else None,
        registration=registration,
        calcutta=calcutta,
    )
    # money in equals money out plus rake, pool by pool and overall
    for pool in ledger.pools:
        assert sum(line.amount for line in ledger.lines if line.pool == pool) == 0
    assert sum(ledger.net().values()) == 0
    money_in = -sum(line.amount for line in ledger.lines if line.amount < 0)
    money_out = sum(line.amount for line in ledger.lines if line.amount > 0)
    assert money_in == money_out
    for pool_spec in (main, side, consolation):
        kinds = ledger.pool_totals(pool_spec.key)
        paid_out = kinds.get("payout", 0) + kinds.get("held", 0) + kinds.get("remainder", 0)
        assert pool_spec.gross == paid_out + kinds.get("rake", 0)
    # a side pool pays only its entrants (and those who bought in)
    eligible = set(side.entrants) | {p for p, _ in side.buy_ins}
    assert {
        line.party for line in ledger.lines if line.pool == "side" and line.kind == "payout"
    } <= eligible
    # the settlement squares everyone
    balances = settlement_balances(ledger, paid)
    after = dict(balances)
    for payer, payee, amount in settle(ledger, paid):
        assert amount > 0
        after[payer] += amount
        after[payee] -= amount
    assert all(value == 0 for value in after.values())


@settings(deadline=None)
@given(calcutta=calcuttas(), order=places())
def test_calcutta_winnings_are_the_pool_less_rake(calcutta, order):
    ledger = event_ledger(pools=[], places=order, calcutta=calcutta)
    lines = [line for line in ledger.lines if line.pool == "calcutta"]
    bids = -sum(line.amount for line in lines if line.kind == "bid")
    assert bids == sum(sale.price for sale in calcutta.sales)
    won = sum(line.amount for line in lines if line.kind == "winnings")
    kept = sum(line.amount for line in lines if line.kind in ("rake", "remainder"))
    assert bids == won + kept
    assert HOUSE not in {line.party for line in lines if line.kind == "winnings"}


@given(st.integers(0, 10**8), st.lists(st.integers(1, 1000), min_size=1, max_size=10))
def test_split_exactly_is_exact_and_fair(total, weights):
    parts = split_exactly(total, [Fraction(w) for w in weights])
    assert sum(parts) == total
    whole = sum(weights)
    for part, weight in zip(parts, weights, strict=True):
        assert abs(Fraction(part) - Fraction(total * weight, whole)) < 1


@given(st.dictionaries(st.sampled_from(PEOPLE), st.integers(-(10**6), 10**6), max_size=10))
def test_shared_settlement_squares_any_balances(values):
    values = dict(values)
    values["house"] = -sum(values.values())
    after = dict(values)
    transfers = minimum_transfers(values)
    for payer, payee, amount in transfers:
        after[payer] += amount
        after[payee] -= amount
    assert all(v == 0 for v in after.values())
    assert len(transfers) <= max(0, len([v for v in values.values() if v]) - 1)
