"""``advance_result``: one new result settled locally gives the whole derivation's state.

The database moves players on after a result by re-settling only the slots the result
reaches (``bracket_advance.advance_bracket``), so the local rule must agree with
``derive_bracket_state`` everywhere: byes and empty sides (walkovers onwards), a
progressive consolation, a last chance, a double elimination's grand final and reset.
Played in a random order, every step's local changes applied to the state before equal
the full derivation after.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.bracket_engine import MatchStatus, advance_result, derive_bracket_state
from tournaments.formats.double_elimination import build_double_elimination
from tournaments.formats.elimination import build_single_elimination


def _graph(kind: int, entries: int):
    if kind == 0:
        return build_single_elimination(entries)
    if kind == 1:
        return build_single_elimination(entries, consolation_from=(1, 2) if entries > 4 else (1,))
    if kind == 2 and entries >= 8:
        return build_single_elimination(entries, consolation_from=(1, 2), last_chance_from=(1,))
    return build_double_elimination(entries)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=0, max_value=3),
    st.integers(min_value=2, max_value=40),
    st.integers(min_value=0, max_value=10**6),
)
def test_local_advancement_matches_the_whole_derivation(kind, entries, seed):
    graph = _graph(kind, entries)
    order = list(range(100, 100 + entries))
    rng = random.Random(seed)
    winners: dict[str, int] = {}
    state = derive_bracket_state(graph, order, winners)
    while True:
        ready = state.ready()
        if not ready:
            break
        slot = rng.choice(ready)
        winner = rng.choice([slot.player_a, slot.player_b])
        changes = advance_result(graph, order, state.matches.__getitem__, slot.match.key, winner)
        winners[slot.match.key] = winner
        after = derive_bracket_state(graph, order, winners)
        assert changes[slot.match.key].status == MatchStatus.PLAYED
        assert {**state.matches, **changes} == after.matches
        assert all(state.matches[k] != s for k, s in changes.items())
        state = after
    assert state.finished
