"""Swiss pairing by minimum-cost perfect matching over penalties.

``docs/rules.md``, "Swiss pairing": a fixed number of rounds, or "out after k losses"; pair
within score groups, floating the fewest players; never a rematch when one can be
avoided; odd numbers give one bye, to the lowest-ranked player without one; optimal
pairing by minimum-cost perfect matching over penalties (score difference, rematch,
repeated byes). ``docs/club-formats.md`` notes clubs
differ on whether a bye is a win; here a bye counts as a match win (the caller adds it
to ``wins``).

Following the Tabbycat model (``draw/generator/graph.py``): a pure generator over plain
player records and a penalty function, solved as a maximum-weight matching (Edmonds'
blossom in rustworkx, about 45x faster here than networkx's, which the tests keep as a
cross-check: ``solver="networkx"``). The
penalty is one integer whose tiers never trade against each other, highest first:

1. rematches (pairs who have met before);
2. repeated byes (a bye to a player who already had one);
3. the bye's rank (the lowest-ranked player without a bye gets it);
4. the score gap squared, summed over pairs: a pair within a score group costs 0, a
   float to the next group 1, a float two groups down 4, so the fewest players leave
   their group and those who must go to the nearest one (an odd group floats one
   player down, as in Dutch Swiss, rather than one player jumping two groups);
5. the within-group "slide" (1 meets the middle of the group, as in Dutch Swiss; a
   floater meets the top of the group below), which only orders equal pairings.

Big events: a complete graph on 1,024 players has ~520k edges, too many for the
blossom in pure Python. The matching is solved on a sparse graph (each player's
neighbours in ranking order, its slide partners, and the best few candidates for the
bye) and
widened, up to the full graph, whenever the sparse answer is not a perfect matching,
holds a rematch, gives the bye to the wrong player, or has a larger score gap than the
score groups force (:func:`min_score_gap`, a lower bound that is met whenever each odd
group floats one player to the next group).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from core.errors import N_

from .errors import FormatError

E = TypeVar("E", bound=Hashable)

SOLVERS = ("rustworkx", "networkx")
"""The matching libraries :func:`pair_swiss_round` can use; both give optimal matchings."""


@dataclass(frozen=True, slots=True)
class SwissPlayer(Generic[E]):
    """A player's record before a round: what the pairing needs and nothing more.

    ``wins`` counts match wins including byes; ``opponents`` are the ids already met;
    ``byes`` how many byes the player has had; ``losses`` decides elimination in an
    "out after k losses" event.
    """

    id: E
    wins: int
    losses: int = 0
    opponents: frozenset[E] = field(default_factory=frozenset)
    byes: int = 0


@dataclass(frozen=True, slots=True)
class PenaltyBreakdown:
    """The tiers of a pairing's penalty, for reports and the director's preview."""

    rematches: int = 0
    repeated_byes: int = 0
    bye_rank: int = 0  # players ranked below the bye with no more byes (0 = rightful)
    floats: int = 0  # pairs across score groups (reported; priced through score_gap)
    score_gap: int = 0  # sum of squared score differences
    slide: int = 0


@dataclass(frozen=True)
class SwissPairing(Generic[E]):
    """One round's pairing: pairs in board order (better-ranked player first), the bye."""

    pairs: tuple[tuple[E, E], ...]
    bye: E | None
    penalty: int
    breakdown: PenaltyBreakdown
    edges: int  # edges in the matching graph actually solved
    widenings: int  # how many times the sparse graph had to be widened


def active_players(
    players: Iterable[SwissPlayer[E]], max_losses: int | None
) -> list[SwissPlayer[E]]:
    """The players still in: all of them, or those with fewer than ``max_losses`` losses."""
    return [p for p in players if max_losses is None or p.losses < max_losses]


def swiss_is_finished(
    rounds_played: int,
    players: Sequence[SwissPlayer[E]],
    *,
    rounds: int | None = None,
    max_losses: int | None = None,
) -> bool:
    """A fixed-rounds event ends after ``rounds``; a k-losses event when one player is left."""
    if rounds is not None and rounds_played >= rounds:
        return True
    if max_losses is not None:
        return len(active_players(players, max_losses)) <= 1
    return rounds is None and rounds_played > 0 and len(players) < 2


class _Penalty:
    """Integer penalty of pairs and byes for one round, tiers scaled so none trade."""

    def __init__(self, players: Sequence[SwissPlayer[E]]) -> None:
        self.players = players
        n = len(players)
        self.n = n
        wins = [p.wins for p in players]
        spread = (max(wins) - min(wins)) if wins else 0
        # position within the score group and the group's size, for the slide
        self.position: list[int] = []
        self.group_size: list[int] = []
        start = 0
        while start < n:
            end = start
            while end < n and wins[end] == wins[start]:
                end += 1
            for index in range(start, end):
                self.position.append(index - start)
                self.group_size.append(end - start)
            start = end
        # bye rank: players ranked below with no more byes (0 for the rightful bye)
        self.bye_rank = [0] * n
        below: dict[int, int] = {}
        for index in range(n - 1, -1, -1):
            own = players[index].byes
            self.bye_rank[index] = sum(c for b, c in below.items() if b <= own)
            below[own] = below.get(own, 0) + 1
        most_byes = max((p.byes for p in players), default=0)
        half = n // 2 + 1
        self.w_slide = 1
        self.w_gap = 2 * n * n + 1
        self.w_bye_rank = self.w_gap * (half * spread * spread + 1)
        self.w_repeat_bye = self.w_bye_rank * (n + 1)
        self.w_rematch = self.w_repeat_bye * (most_byes + 1)
        self.ceiling = self.w_rematch * (half + 1)  # above any total penalty

    def pair_parts(self, i: int, j: int) -> PenaltyBreakdown:
        """The parts of pairing the players ranked ``i`` < ``j``."""
        a, b = self.players[i], self.players[j]
        gap = a.wins - b.wins
        if gap == 0:
            slide = abs(abs(self.position[i] - self.position[j]) - self.group_size[i] // 2)
        else:
            # the upper player should be from the bottom of its group, the lower from the top
            slide = (self.group_size[i] - 1 - self.position[i]) + self.position[j]
        return PenaltyBreakdown(
            rematches=1 if b.id in a.opponents or a.id in b.opponents else 0,
            floats=1 if gap else 0,
            score_gap=gap * gap,
            slide=slide,
        )

    def bye_parts(self, i: int) -> PenaltyBreakdown:
        return PenaltyBreakdown(repeated_byes=self.players[i].byes, bye_rank=self.bye_rank[i])

    def total(self, parts: PenaltyBreakdown) -> int:
        return (
            parts.rematches * self.w_rematch
            + parts.repeated_byes * self.w_repeat_bye
            + parts.bye_rank * self.w_bye_rank
            + parts.score_gap * self.w_gap
            + parts.slide * self.w_slide
        )

    def pair(self, i: int, j: int) -> int:
        return self.total(self.pair_parts(i, j))

    def bye(self, i: int) -> int:
        return self.total(self.bye_parts(i))


def rank_for_pairing(players: Sequence[SwissPlayer[E]]) -> list[SwissPlayer[E]]:
    """The players by wins, best first, keeping the caller's order (its tie-breaks) within."""
    return sorted(players, key=lambda p: -p.wins)


def pairing_penalty(
    players: Sequence[SwissPlayer[E]], pairs: Iterable[tuple[E, E]], bye: E | None
) -> tuple[int, PenaltyBreakdown]:
    """The penalty of any pairing of ``players`` (same ranking rules as the pairer).

    Used to report a pairing's cost and, in tests, to compare with brute force.
    """
    ranked = rank_for_pairing(players)
    penalty = _Penalty(ranked)
    index = {p.id: i for i, p in enumerate(ranked)}
    parts = [penalty.pair_parts(*sorted((index[a], index[b]))) for a, b in pairs]
    if bye is not None:
        parts.append(penalty.bye_parts(index[bye]))
    total = _sum_parts(parts)
    return penalty.total(total), total


def _sum_parts(parts: Iterable[PenaltyBreakdown]) -> PenaltyBreakdown:
    sums = [0] * 6
    for part in parts:
        for k, value in enumerate(
            (
                part.rematches,
                part.repeated_byes,
                part.bye_rank,
                part.floats,
                part.score_gap,
                part.slide,
            )
        ):
            sums[k] += value
    return PenaltyBreakdown(*sums)


def min_score_gap(players: Sequence[SwissPlayer[E]], bye: E | None = None) -> int:
    """A lower bound on the pairing's summed squared score gaps.

    Every boundary between score groups with an odd number of players above it must be
    crossed by at least one pair, and a pair crossing boundaries with gaps g1, g2, ...
    costs (g1 + g2 + ...)^2 >= g1^2 + g2^2 + ...: so the sum of the squared gaps of the
    odd boundaries is a lower bound. ``players`` in ranking order; the ``bye`` (if any)
    is left out first.
    """
    ranked = [p for p in rank_for_pairing(players) if p.id != bye]
    bound = 0
    for index, player in enumerate(ranked[:-1]):
        gap = player.wins - ranked[index + 1].wins
        if gap and (index + 1) % 2:
            bound += gap * gap
    return bound


def pair_swiss_round(
    players: Sequence[SwissPlayer[E]],
    *,
    max_losses: int | None = None,
    neighbours: int = 12,
    full_graph: bool = False,
    solver: str = "rustworkx",
) -> SwissPairing[E]:
    """Pair one Swiss round optimally; ``players`` in ranking order, best first.

    Players out of an "out after k losses" event are left out. ``neighbours`` sets how
    many players on each side in ranking order (and around the slide partner) get an
    edge in the sparse graph; ``full_graph`` solves the complete graph instead (small
    events, and the reference the benchmark checks the sparse graph against).
    ``solver`` picks the matching library (see :data:`SOLVERS`).
    """
    if solver not in SOLVERS:
        raise FormatError(
            "unknown_solver", N_("The solver is one of %(join)s.", join=", ".join(SOLVERS))
        )
    ranked = rank_for_pairing(active_players(players, max_losses))
    ids = [p.id for p in ranked]
    if len(set(ids)) != len(ids):
        raise FormatError("duplicate_player", N_("A player appears twice in the round."), "players")
    n = len(ranked)
    if n < 2:
        raise FormatError("too_few_players", N_("A Swiss round needs at least two players."))
    penalty = _Penalty(ranked)
    with_bye = n % 2 == 1
    best_bye = min((penalty.bye(i), i) for i in range(n))[1] if with_bye else None
    width = n if full_graph else neighbours
    widenings = 0
    while True:
        edges = _matching_edges(penalty, width, with_bye)
        mate = _solve_matching(n + 1 if with_bye else n, edges, solver)
        result = _read_matching(penalty, ranked, mate, len(edges), widenings)
        complete = len(result.pairs) == n // 2 and (result.bye is not None) == with_bye
        # Optimal in the top tiers for certain: no rematch, the best possible bye, and
        # no larger score gaps than the score groups force. Otherwise widen the graph.
        good = (
            complete
            and result.breakdown.rematches == 0
            and result.bye == (None if best_bye is None else ranked[best_bye].id)
            and result.breakdown.score_gap <= min_score_gap(ranked, result.bye)
        )
        if good or width >= n:
            if not complete:
                raise FormatError("no_pairing", N_("No pairing exists for these players."))
            return result
        width = min(n, width * 4)
        widenings += 1


def _matching_edges(penalty: _Penalty, width: int, with_bye: bool) -> dict[tuple[int, int], int]:
    """The sparse (or, at ``width >= n``, complete) graph as ``{(i, j): weight}``, i < j.

    Weights are ``ceiling − penalty`` (so a maximum-weight matching of maximum
    cardinality is a minimum-penalty perfect matching); node ``n`` is the bye.
    """
    n = penalty.n
    ceiling = penalty.ceiling
    edges: dict[tuple[int, int], int] = {}

    def add(i: int, j: int) -> None:
        if i != j and 0 <= j < n:
            key = (i, j) if i < j else (j, i)
            if key not in edges:
                edges[key] = ceiling - penalty.pair(*key)

    for i in range(n):
        for j in range(i + 1, min(n, i + width + 1)):
            add(i, j)
        if width < n:
            # the slide partner and its neighbours within the score group
            group_start = i - penalty.position[i]
            partner = group_start + penalty.position[i] + penalty.group_size[i] // 2
            for j in range(partner - width // 2, partner + width // 2 + 1):
                if group_start <= j < group_start + penalty.group_size[i]:
                    add(i, j)
    if with_bye:
        # the bye only to the best candidates (fewest byes, lowest ranked) until widened
        candidates = sorted(range(n), key=penalty.bye)[: max(2, width) if width < n else n]
        for i in candidates:
            edges[(i, n)] = ceiling - penalty.bye(i)
    return edges


def _solve_matching(
    nodes: int, edges: dict[tuple[int, int], int], solver: str
) -> set[tuple[int, int]]:
    """A maximum-cardinality, maximum-weight matching of the graph, as index pairs."""
    if solver == "networkx":
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(range(nodes))
        graph.add_weighted_edges_from((i, j, w) for (i, j), w in edges.items())
        return {(int(u), int(v)) for u, v in nx.max_weight_matching(graph, maxcardinality=True)}
    import rustworkx as rx

    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(nodes))
    graph.add_edges_from([(i, j, w) for (i, j), w in edges.items()])
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    return {(int(u), int(v)) for u, v in mate}


def _read_matching(
    penalty: _Penalty,
    ranked: Sequence[SwissPlayer[E]],
    mate: set[tuple[int, int]],
    edges: int,
    widenings: int,
) -> SwissPairing[E]:
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    parts: list[PenaltyBreakdown] = []
    for u, v in mate:
        i, j = (u, v) if u < v else (v, u)
        if j == penalty.n:  # the bye's node
            bye = i
            parts.append(penalty.bye_parts(i))
            continue
        pairs.append((i, j))
        parts.append(penalty.pair_parts(i, j))
    pairs.sort()
    total = _sum_parts(parts)
    return SwissPairing(
        pairs=tuple((ranked[i].id, ranked[j].id) for i, j in pairs),
        bye=None if bye is None else ranked[bye].id,
        penalty=penalty.total(total),
        breakdown=total,
        edges=edges,
        widenings=widenings,
    )
