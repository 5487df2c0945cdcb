"""Property tests: zero-sum ledgers, rotation keeps every seat, settlement is optimal."""

from collections.abc import Hashable
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.rules import (
    BoxRetention,
    ChouetteRules,
    GameRecord,
    Join,
    Leave,
    Lineup,
    MemberRecord,
    PartnerChoice,
    minimum_transfers,
    partner_for_game,
    replay_session,
    rotate,
    settle,
)
from chouette.rules import Side as S
from games.rules.errors import RuleViolation
from games.rules.money import MoneyRules
from games.rules.types import Level

RULES = [
    ChouetteRules(),
    ChouetteRules(box_retention=BoxRetention.NET_WIN),
    ChouetteRules(partner_threshold=5),
    ChouetteRules(partner_threshold=4, partner_choice=PartnerChoice.GIVEN, captain_takeover=True),
    ChouetteRules(money=MoneyRules(jacoby=False, backgammon_value=4), allow_starting_cube=True),
    ChouetteRules(money=MoneyRules(philadelphia=True), captain_takeover=True),
    ChouetteRules.thorne_1930(),
]


@st.composite
def game_for(draw, rules: ChouetteRules, lineup: Lineup, *, box_always_wins: bool = False):
    """A record for the next game: valid by construction in most cases."""
    partner = None
    threshold = rules.partner_threshold
    if threshold is not None and len(lineup.players) >= threshold:
        if rules.partner_choice == "given":
            partner = draw(st.sampled_from(lineup.team[1:]))
        else:
            partner = lineup.team[-1]
    team = [p for p in lineup.team if p != partner]
    single = rules.cubes == "single"
    single_cube = draw(st.sampled_from([1, 2, 4, 8]))
    records = []
    for player in team:
        drops = [None, None, S.TEAM] if box_always_wins else [None, None, S.TEAM, S.BOX]
        drop = draw(st.sampled_from(drops))
        if single:
            cube = single_cube if drop is None else draw(st.sampled_from([1, 2, 4]))
            if drop is S.BOX:
                drop = S.TEAM
        else:
            cube = draw(st.sampled_from([1, 2, 4, 8]))
        stake = draw(st.sampled_from([1, 2, 4])) if rules.allow_starting_cube else 1
        taken_over = drop is S.TEAM and rules.captain_takeover and draw(st.booleans())
        records.append(
            MemberRecord(player, cube=cube, drop=drop, stake=stake, taken_over=taken_over)
        )
    if single:
        in_cube = [r.cube for r in records if r.drop is None]
        if in_cube:
            records = [
                r
                if r.drop is None
                else MemberRecord(
                    r.player,
                    cube=min(r.cube, in_cube[0] // 2 or 1),
                    drop=r.drop,
                    stake=r.stake,
                    taken_over=r.taken_over,
                )
                for r in records
            ]
    still_in = any(r.drop is None for r in records)
    winner = S.BOX if box_always_wins else draw(st.sampled_from([S.BOX, S.TEAM]))
    level = draw(st.sampled_from(list(Level))) if still_in else Level.SINGLE
    return GameRecord(
        tuple(draw(st.permutations(records))),
        winner=winner if still_in else None,
        level=level,
        partner=partner if rules.partner_choice == "given" else None,
    )


@st.composite
def sessions(draw, *, box_always_wins: bool = False):
    rules = draw(st.sampled_from(RULES))
    size = draw(st.integers(3, 7))
    lineup = Lineup.from_order(range(size))
    events: list[Join | Leave | GameRecord] = []
    current = lineup
    newcomer = size
    for _ in range(draw(st.integers(1, 12))):
        action = draw(st.sampled_from(["game", "game", "game", "join", "leave"]))
        if action == "join" and not box_always_wins:
            events.append(Join(newcomer))
            current = current.join(newcomer)
            newcomer += 1
        elif action == "leave" and len(current.players) > 3 and not box_always_wins:
            leaving = draw(st.sampled_from(current.players))
            events.append(Leave(leaving))
            current = current.leave(leaving)
        else:
            record = draw(game_for(rules, current, box_always_wins=box_always_wins))
            events.append(record)
            try:
                current = replay_session(rules, current, [record]).lineup
            except RuleViolation:
                events.pop()
    return rules, lineup, events


@settings(max_examples=300, deadline=None)
@given(sessions())
def test_ledgers_always_sum_to_zero_and_rotation_keeps_every_seat(session):
    rules, lineup, events = session
    replay = replay_session(rules, lineup, events)
    for game in replay.games:
        assert sum(game.payouts.values()) == 0
        assert sum(game.totals.values()) == 0
        before, after = game.lineup_before, game.lineup_after
        assert sorted(before.players) == sorted(after.players)  # type: ignore[type-var]  # Hashable players; ints here
        assert len(set(after.players)) == len(after.players)
        seated = {game.score.box, *game.score.team}
        if game.score.partner is not None:
            seated.add(game.score.partner)
        assert seated == set(before.players)
        assert set(game.payouts) == seated
    assert sum(replay.totals.values()) == 0


@settings(max_examples=150, deadline=None)
@given(sessions(box_always_wins=True))
def test_a_box_that_never_loses_stays_box(session):
    rules, lineup, events = session
    replay = replay_session(rules, lineup, events)
    assert all(game.lineup_after.box == lineup.box for game in replay.games)
    assert replay.lineup.box == lineup.box


@given(
    st.lists(st.integers(0, 20), min_size=2, max_size=9, unique=True),
    st.data(),
)
def test_rotation_keeps_every_player_exactly_once(players, data):
    lineup = Lineup.from_order(players)
    captain = data.draw(st.sampled_from(lineup.team))
    index = lineup.team.index(captain)
    dropped = (
        data.draw(st.lists(st.sampled_from(lineup.team[:index]), unique=True)) if index else []
    )
    winner = data.draw(st.sampled_from([S.BOX, S.TEAM]))
    keeps = winner is S.BOX and data.draw(st.booleans())
    after = rotate(
        lineup,
        board_captain=captain,
        board_winner=winner,
        box_keeps=keeps,
        dropped_before_captain=[p for p in lineup.team if p in dropped],
    )
    assert sorted(after.players) == sorted(lineup.players)  # type: ignore[type-var]  # Hashable players; ints here
    assert (after.box == lineup.box) is keeps
    if not keeps and winner is S.TEAM:
        assert after.box == captain and after.team[-1] == lineup.box


@given(st.integers(4, 9), st.data())
def test_bottom_partner_is_never_the_captain(size, data):
    lineup = Lineup.from_order(range(size))
    partner = partner_for_game(ChouetteRules(partner_threshold=4), lineup, None)
    assert partner == lineup.team[-1] != lineup.captain


def brute_force_transfers(balances: list[int]) -> int:
    """The classic exact search for the fewest transfers (independent of the DP)."""
    debts = [b for b in balances if b]

    def search(start: int) -> int:
        while start < len(debts) and debts[start] == 0:
            start += 1
        if start == len(debts):
            return 0
        best = len(debts)
        for other in range(start + 1, len(debts)):
            if debts[other] * debts[start] < 0:
                debts[other] += debts[start]
                best = min(best, 1 + search(start + 1))
                debts[other] -= debts[start]
        return best

    return search(0)


balances_strategy = st.lists(st.integers(-12, 12), min_size=1, max_size=8).map(
    lambda values: [*values, -sum(values)]
)


def _square(balances: dict, transfers) -> dict:
    left = dict(balances)
    for payer, payee, amount in transfers:
        assert amount > 0 and payer != payee
        left[payer] += amount
        left[payee] -= amount
    return left


@settings(max_examples=300, deadline=None)
@given(balances_strategy)
def test_settlement_is_exact_and_optimal(values):
    balances: dict[Hashable, int] = dict(enumerate(values))
    transfers = minimum_transfers(balances)
    assert all(v == 0 for v in _square(balances, transfers).values())
    nonzero = sum(1 for v in values if v)
    assert len(transfers) <= max(nonzero - 1, 0)
    assert len(transfers) <= len(values) - 1
    assert len(transfers) == brute_force_transfers(values)


@settings(max_examples=100, deadline=None)
@given(balances_strategy, st.integers(1, 3))
def test_greedy_fallback_squares_everyone(values, limit):
    balances: dict[Hashable, int] = dict(enumerate(values))
    transfers = minimum_transfers(balances, exact_limit=limit)
    assert all(v == 0 for v in _square(balances, transfers).values())
    assert len(transfers) <= max(sum(1 for v in values if v) - 1, 0)


@settings(max_examples=100, deadline=None)
@given(balances_strategy, st.sampled_from(["0.01", "0.25", "1", "1.00", "5.50", "100"]))
def test_money_transfers_square_to_the_cent(values, stake):
    totals: dict[Hashable, int] = dict(enumerate(values))
    stake = Decimal(stake)
    left = {p: Decimal(points) * stake for p, points in totals.items()}
    for transfer in settle(totals, stake):
        assert transfer.amount == transfer.amount.quantize(Decimal("0.01"))
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    assert all(v == 0 for v in left.values())
