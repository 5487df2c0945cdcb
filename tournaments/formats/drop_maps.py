"""Drop maps: where each loser goes, and how many early rematches the wiring allows.

``docs/rules.md``, "Drop maps": where a main-round loser enters the consolation or
losers' bracket is chosen to avoid early rematches (alternate the feeding order round by
round); the director can preview the map and see the rematch count. See
``docs/club-formats.md`` for the consolation formats.

A *possible rematch* is a match whose two sides could hold two players who may already
have met: some earlier match on the way in had one of them on each side. It is counted
from the sets of seeds that can reach each side, so it is exact about who *could* meet,
whatever the results; late rounds always have some, a good wiring has none early.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import N_, Text

from .bracket_graph import BracketGraph, Bye, Feed, Seed, Source, Stage, WinnerOf

STAGE_NAMES = {
    Stage.MAIN: N_("main"),
    Stage.CONSOLATION: N_("consolation"),
    Stage.LAST_CHANCE: N_("last chance"),
    Stage.WINNERS: N_("winners' bracket"),
    Stage.LOSERS: N_("losers' bracket"),
    Stage.GRAND_FINAL: N_("grand final"),
}
"""Stages as a sentence names them ("The consolation takes the losers of...")."""


@dataclass(frozen=True, slots=True)
class Drop:
    """The loser of ``match`` plays next in ``to_match`` on ``to_side`` (0 = A, 1 = B)."""

    match: str
    stage: Stage
    round: int
    to_match: str | None  # None: the loser is out
    to_stage: Stage | None
    to_round: int | None
    to_side: int | None


@dataclass(frozen=True)
class DropMapPreview:
    """Every loser's destination and the matches where a rematch could happen."""

    drops: tuple[Drop, ...]
    possible_rematch_matches: tuple[str, ...]
    feeds: tuple[Feed, ...] = ()

    @property
    def possible_rematches(self) -> int:
        return len(self.possible_rematch_matches)


def drop_map(graph: BracketGraph) -> list[Drop]:
    """For every match, where its loser goes (or that the loser is out)."""
    drops = []
    for match in graph.matches:
        target = graph.loser_destination(match.key)
        to = graph.match(target.match) if target else None
        drops.append(
            Drop(
                match=match.key,
                stage=match.stage,
                round=match.round,
                to_match=to.key if to else None,
                to_stage=to.stage if to else None,
                to_round=to.round if to else None,
                to_side=target.side if target else None,
            )
        )
    return drops


def possible_rematches(graph: BracketGraph) -> list[str]:
    """Keys of matches whose sides could hold two players who may have met already."""
    index = {m.key: i for i, m in enumerate(graph.matches)}
    sides: list[tuple[int, int]] = []  # seed bitsets that can reach side A, side B
    ancestors: list[int] = []  # bitset of earlier matches feeding each match
    winner_set: list[int] = []
    loser_set: list[int] = []

    def seeds(source: Source) -> tuple[int, int]:
        """(seeds that can come from ``source``, ancestor matches of it)."""
        if isinstance(source, Seed):
            return (1 << source.seed if source.seed <= graph.entries else 0), 0
        if isinstance(source, Bye):
            return 0, 0
        i = index[source.match]
        reach = winner_set[i] if isinstance(source, WinnerOf) else loser_set[i]
        return reach, ancestors[i] | (1 << i)

    flagged: list[str] = []
    for match in graph.matches:
        a, anc_a = seeds(match.side_a)
        b, anc_b = seeds(match.side_b)
        if match.reset_of is not None:
            a = b = winner_set[index[match.reset_of]]
        sides.append((a, b))
        ancestors.append(anc_a | anc_b)
        winner_set.append(a | b)
        loser_set.append(a | b if a and b else 0)
        if not (a and b) or match.reset_of:  # a reset is a rematch by design
            continue
        earlier = anc_a | anc_b
        while earlier:
            low = earlier & -earlier
            e = low.bit_length() - 1
            earlier ^= low
            ea, eb = sides[e]
            if ea and eb and ((ea & a and eb & b) or (ea & b and eb & a)):
                flagged.append(match.key)
                break
    return flagged


def _round_list(rounds: tuple[int, ...]) -> Text:
    """ "1", "1 and 2", "1, 2 and 3"."""
    if len(rounds) == 1:
        return Text(str(rounds[0]))
    first = ", ".join(str(r) for r in rounds[:-1])
    return N_("%(first)s and %(last)s", first=first, last=rounds[-1])


def feed_note(feed: Feed) -> Text:
    """One sentence for the director: which rounds feed a stage, and why if not as asked.

    A :class:`~core.errors.Text`, so it reads in the director's language on the page."""
    to, from_ = STAGE_NAMES[feed.stage], STAGE_NAMES[feed.from_stage]
    rounds = _round_list(feed.rounds)
    if len(feed.rounds) == 1:
        note = N_(
            "The %(stage)s takes the losers of %(from_stage)s round %(rounds)s.",
            stage=to,
            from_stage=from_,
            rounds=rounds,
        )
    else:
        note = N_(
            "The %(stage)s takes the losers of %(from_stage)s rounds %(rounds)s.",
            stage=to,
            from_stage=from_,
            rounds=rounds,
        )
    if feed.rounds == feed.asked:
        return note
    asked = _round_list(feed.asked)
    why = (
        N_(
            "Asked: round %(asked)s; rounds that are only byes and walkovers send nobody, so "
            "the first rounds that hold matches are used (at least two players must arrive).",
            asked=asked,
        )
        if len(feed.asked) == 1
        else N_(
            "Asked: rounds %(asked)s; rounds that are only byes and walkovers send nobody, so "
            "the first rounds that hold matches are used (at least two players must arrive).",
            asked=asked,
        )
    )
    return N_("%(note)s %(why)s", note=note, why=why)


def drop_map_preview(graph: BracketGraph) -> DropMapPreview:
    """The drop map with its possible-rematch count, for the director to compare wirings."""
    return DropMapPreview(
        drops=tuple(drop_map(graph)),
        possible_rematch_matches=tuple(possible_rematches(graph)),
        feeds=graph.feeds,
    )
