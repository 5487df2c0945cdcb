"""Finishing places of an elimination event, in the order its prizes go.

Elimination events rank by where a player finished, not by match wins: a consolation
winner with four wins still stands below the main runner-up with three. Each player
finishes in exactly one stage, the stage of their last match: the winner of it, or a
loser of one of its rounds whose loss sent them nowhere. Within a *block* of stages
(``main`` is the main bracket; in double elimination the grand final, then the
losers' bracket), the block's winner is 1 and the losers of a round share a place
range after everyone who went out later: with a 24-player main bracket and a
consolation fed by its first two rounds, the quarter-final losers are "5–8".

The order of the blocks is the event's *prize order*: a list of tokens ``block`` or
``block:N`` (only the first N places of that block at that point, the rest after
every token). The default is :data:`DEFAULT_PRIZE_ORDER`: the main places, then the
consolation winner and runner-up, then the last chance's winner and runner-up; places
not named follow block by block. Players still playing head their block without a
place; entries that are not in the bracket come last.

Pure: derived from a :class:`~tournaments.formats.bracket_engine.BracketState` and its
graph, nothing stored.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from core.errors import N_, listing

from .bracket_engine import BracketState, MatchState, MatchStatus
from .bracket_graph import BracketGraph, Stage, playable_matches
from .errors import FormatError

E = TypeVar("E", bound=Hashable)

MAIN = "main"
CONSOLATION = "consolation"
LAST_CHANCE = "last_chance"
BLOCKS = (MAIN, CONSOLATION, LAST_CHANCE)
"""The blocks a prize order can name, in the order unnamed places follow."""

DEFAULT_PRIZE_ORDER: tuple[str, ...] = (MAIN, f"{CONSOLATION}:2", f"{LAST_CHANCE}:2")
"""Main places, consolation winner and runner-up, last chance winner and runner-up."""

_BLOCK_STAGES: dict[str, tuple[Stage, ...]] = {
    MAIN: (Stage.GRAND_FINAL, Stage.LOSERS, Stage.WINNERS, Stage.MAIN),
    CONSOLATION: (Stage.CONSOLATION,),
    LAST_CHANCE: (Stage.LAST_CHANCE,),
}
_BLOCK_LABELS = {MAIN: "", CONSOLATION: "Consolation ", LAST_CHANCE: "Last chance "}
_PLAYED = (MatchStatus.PLAYED, MatchStatus.READY)


@dataclass(frozen=True, slots=True)
class PrizeToken:
    """One step of a prize order: a block, and how many of its places (None: all)."""

    block: str
    places: int | None = None


def parse_prize_order(tokens: Sequence[str]) -> list[PrizeToken]:
    """Read ``["main", "consolation:2", ...]``; a clear error names the bad token.

    A block may appear more than once only with a count each time it is not the last
    (``["main:2", "consolation:1", "main"]`` is main 1–2, consolation 1, the rest of
    main), and counts must grow, so no place is listed twice.
    """
    parsed: list[PrizeToken] = []
    last_count: dict[str, int | None] = {}
    for token in tokens:
        if not isinstance(token, str):
            raise FormatError("bad_prize_order", N_("Each prize step is a string."), "prize_order")
        block, _, count = token.partition(":")
        if block not in BLOCKS:
            raise FormatError(
                "bad_prize_order",
                N_(
                    "Unknown prize step %(token)r: use %(join)s, optionally ':N'.",
                    token=token,
                    join=", ".join(BLOCKS),
                ),
                "prize_order",
            )
        places: int | None = None
        if count:
            if not count.isdigit() or not 1 <= int(count) <= 4096:
                raise FormatError(
                    "bad_prize_order",
                    N_(
                        "In %(token)r the number of places must be a whole number from 1.",
                        token=token,
                    ),
                    "prize_order",
                )
            places = int(count)
        if block in last_count:
            before = last_count[block]
            if before is None or (places is not None and places <= before):
                raise FormatError(
                    "bad_prize_order",
                    N_(
                        "%(token)r lists places of %(block)s already listed.",
                        token=token,
                        block=block,
                    ),
                    "prize_order",
                )
        last_count[block] = places
        parsed.append(PrizeToken(block, places))
    return parsed


def describe_prize_order(tokens: Sequence[str]) -> str:
    """The prize order in words, for pages: "main places, consolation 1–2, ...", a
    ``Text`` the page shows in its language (it was English inside German sentences)."""
    names = {MAIN: N_("main"), CONSOLATION: N_("consolation"), LAST_CHANCE: N_("last chance")}
    words = []
    for token in parse_prize_order(tokens or DEFAULT_PRIZE_ORDER):
        name = names[token.block]
        if token.places is None:
            words.append(N_("%(stage)s places", stage=name))
        else:
            places = "1" if token.places == 1 else f"1–{token.places}"
            words.append(N_("%(stage)s %(places)s", stage=name, places=places))
    return N_("%(order)s, then the other places", order=listing(words))


@dataclass(frozen=True)
class Place(Generic[E]):
    """A finishing place shared by ``entries``: ``first``–``last`` within ``block``.

    ``label`` is what pages print ("1", "3–4", "Consolation 1"); ``position`` is the
    1-based overall position of the first of them in the event's order.
    """

    label: str
    block: str
    first: int
    last: int
    entries: tuple[E, ...]
    position: int


@dataclass(frozen=True)
class Places(Generic[E]):
    """The event's order: places (decided), players still in play, entries not drawn."""

    places: tuple[Place[E], ...]
    order: tuple[E, ...]  # every entry, best first
    place_of: dict[E, Place[E]]
    winner: E | None

    def label(self, entry: E) -> str | None:
        place = self.place_of.get(entry)
        return place.label if place else None


def _label(block: str, first: int, last: int) -> str:
    span = str(first) if first == last else f"{first}–{last}"
    return f"{_BLOCK_LABELS[block]}{span}"


def elimination_places(
    graph: BracketGraph,
    state: BracketState[E],
    entries: Sequence[E],
    prize_order: Sequence[str] = DEFAULT_PRIZE_ORDER,
) -> Places[E]:
    """Every entry's finishing place from the bracket as played so far.

    ``entries`` are all the event's entries (best seed first); those not in the bracket
    (withdrawn before the draw) come last without a place. A place range counts the
    matches still to be played, so a quarter-final loser reads "5–8" while the
    semi-finals are on.
    """
    tokens = parse_prize_order(prize_order)
    stage_block = {stage: block for block, stages in _BLOCK_STAGES.items() for stage in stages}
    playable = playable_matches(graph.matches, graph.entries)
    last: dict[E, MatchState[E]] = {}
    for match_state in state.matches.values():  # topological order
        for player in (match_state.player_a, match_state.player_b):
            if player is not None:
                last[player] = match_state

    winners: dict[str, E] = {}
    for block, stages in _BLOCK_STAGES.items():
        head_stage = next((s for s in stages if s in graph.stage_winners), None)
        if head_stage is not None:
            winner = state.champion if block == MAIN else state.stage_winners.get(head_stage)
            if winner is not None:
                winners[block] = winner

    # out[block][(stage index, round)] -> players out there; active[block] -> still in
    out: dict[str, dict[tuple[int, int], list[E]]] = {b: {} for b in BLOCKS}
    active: dict[str, list[E]] = {b: [] for b in BLOCKS}
    crowned = set(winners.values())
    for player, where in last.items():
        if player in crowned:
            continue
        block = stage_block[where.match.stage]
        if where.status == MatchStatus.PLAYED and where.loser == player:
            depth = _BLOCK_STAGES[block].index(where.match.stage)
            out[block].setdefault((depth, where.match.round), []).append(player)
        else:
            active[block].append(player)

    # how many players go out in each (stage index, round) of a block: one per match
    # that is or will be played and whose loser goes nowhere
    eliminating: dict[str, dict[tuple[int, int], int]] = {b: {} for b in BLOCKS}

    def count(block_stage: Stage, round_number: int) -> None:
        block = stage_block[block_stage]
        where = (_BLOCK_STAGES[block].index(block_stage), round_number)
        eliminating[block][where] = eliminating[block].get(where, 0) + 1

    for key, match_state in state.matches.items():
        match = match_state.match
        if match.reset_of and match_state.status == MatchStatus.NOT_NEEDED:
            # no reset: the first final's loser is the runner-up
            first_final = state.matches[match.reset_of].match
            count(first_final.stage, first_final.round)
            continue
        will_play = match_state.status in _PLAYED or (
            match_state.status == MatchStatus.WAITING and playable[key]
        )
        if will_play and graph.loser_destination(key) is None:
            count(match.stage, match.round)

    seed = {e: i for i, e in enumerate(entries)}
    groups: dict[str, list[tuple[int, int, list[E]]]] = {b: [] for b in BLOCKS}
    for block in BLOCKS:
        if block in winners:
            groups[block].append((1, 1, [winners[block]]))
        above = 1
        for at in sorted(set(eliminating[block]) | set(out[block]), key=_deepest_first):
            size = max(eliminating[block].get(at, 0), len(out[block].get(at, [])))
            players = sorted(out[block].get(at, []), key=seed.__getitem__)
            if players:
                groups[block].append((above + 1, above + size, players))
            above += size

    ordered: list[tuple[str, int | None, int | None, list[E]]] = []
    taken: dict[str, int] = dict.fromkeys(BLOCKS, 0)  # groups of each block already listed
    headed: set[str] = set()  # blocks whose players still in play are listed

    def head(block: str) -> None:
        if block not in headed and active[block]:
            ordered.append((block, None, None, sorted(active[block], key=seed.__getitem__)))
        headed.add(block)

    for token in tokens:
        head(token.block)
        block_groups = groups[token.block]
        while taken[token.block] < len(block_groups):
            first, last_place, players = block_groups[taken[token.block]]
            if token.places is not None and first > token.places:
                break
            ordered.append((token.block, first, last_place, players))
            taken[token.block] += 1
    for block in BLOCKS:
        head(block)
        for first, last_place, players in groups[block][taken[block] :]:
            ordered.append((block, first, last_place, players))

    places: list[Place[E]] = []
    place_of: dict[E, Place[E]] = {}
    order: list[E] = []
    for block, first_place, final_place, players in ordered:
        if first_place is not None and final_place is not None:
            place = Place(
                label=_label(block, first_place, final_place),
                block=block,
                first=first_place,
                last=final_place,
                entries=tuple(players),
                position=len(order) + 1,
            )
            places.append(place)
            place_of.update(dict.fromkeys(players, place))
        order.extend(players)
    placed = set(order)
    order.extend(e for e in entries if e not in placed)
    return Places(
        places=tuple(places),
        order=tuple(order),
        place_of=place_of,
        winner=state.champion,
    )


def _deepest_first(where: tuple[int, int]) -> tuple[int, int]:
    """Grand final before losers' bracket; within a stage, later rounds first."""
    depth, round_number = where
    return (depth, -round_number)


@dataclass(frozen=True, slots=True)
class PlaceBucket:
    """A finishing place of a *finished* event: ``size`` players share ``label``.

    ``position`` is the 1-based overall position of its first player in the event's
    order (the prize order), as :class:`Place` has it once the event is over.
    """

    label: str
    block: str
    first: int
    last: int
    position: int

    @property
    def size(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class PlaceLayout:
    """Where each way of finishing lands once the event is over, in prize order.

    The places of a finished bracket depend only on its graph (byes are fixed by the
    entry count), never on who won: ``eliminated_at[(stage, round)]`` is the index of
    the place of a player who lost there and went nowhere, ``block_winner[block]`` the
    index of that block's winner. Used by the event odds
    (:mod:`tournaments.formats.odds`) to count finishing places without re-deriving
    :func:`elimination_places` for every simulated event.
    """

    buckets: tuple[PlaceBucket, ...]
    eliminated_at: dict[tuple[Stage, int], int]
    block_winner: dict[str, int]


def place_layout(
    graph: BracketGraph, prize_order: Sequence[str] = DEFAULT_PRIZE_ORDER
) -> PlaceLayout:
    """The places of ``graph`` once finished, ordered as :func:`elimination_places` orders them.

    A grand-final reset is counted once: its loser (or, when it is not needed, the first
    final's loser) is the runner-up, as in :func:`elimination_places`.
    """
    tokens = parse_prize_order(prize_order or DEFAULT_PRIZE_ORDER)
    stage_block = {stage: block for block, stages in _BLOCK_STAGES.items() for stage in stages}
    playable = playable_matches(graph.matches, graph.entries)
    counts: dict[str, dict[tuple[int, int], int]] = {b: {} for b in BLOCKS}
    stage_of: dict[tuple[str, tuple[int, int]], Stage] = {}
    for match in graph.matches:
        if playable[match.key] and graph.loser_destination(match.key) is None:
            block = stage_block[match.stage]
            where = (_BLOCK_STAGES[block].index(match.stage), match.round)
            counts[block][where] = counts[block].get(where, 0) + 1
            stage_of[(block, where)] = match.stage
    # what a group places: its block's winner (the block's name) or who lost at (stage, round)
    groups: dict[str, list[tuple[int, int, str | tuple[Stage, int]]]] = {b: [] for b in BLOCKS}
    for block, stages in _BLOCK_STAGES.items():
        head = next((s for s in stages if s in graph.stage_winners), None)
        if head is not None:
            groups[block].append((1, 1, block))
        above = 1
        for where in sorted(counts[block], key=_deepest_first):
            size = counts[block][where]
            groups[block].append((above + 1, above + size, (stage_of[(block, where)], where[1])))
            above += size
    ordered: list[tuple[str, int, int, str | tuple[Stage, int]]] = []
    taken = dict.fromkeys(BLOCKS, 0)
    for token in tokens:
        block_groups = groups[token.block]
        while taken[token.block] < len(block_groups):
            first, last, what = block_groups[taken[token.block]]
            if token.places is not None and first > token.places:
                break
            ordered.append((token.block, first, last, what))
            taken[token.block] += 1
    for block in BLOCKS:
        for first, last, what in groups[block][taken[block] :]:
            ordered.append((block, first, last, what))
    buckets: list[PlaceBucket] = []
    eliminated_at: dict[tuple[Stage, int], int] = {}
    block_winner: dict[str, int] = {}
    position = 1
    for index, (block, first, last, what) in enumerate(ordered):
        buckets.append(PlaceBucket(_label(block, first, last), block, first, last, position))
        position += last - first + 1
        if isinstance(what, str):
            block_winner[what] = index
        else:
            eliminated_at[what] = index
    return PlaceLayout(tuple(buckets), eliminated_at, block_winner)
