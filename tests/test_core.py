"""The shared pieces in ``core``: what counts as a result, and ``If-Match``."""

from __future__ import annotations

import pytest

from core.errors import StaleVersionError
from core.listeners import Outcome, ResultChange, announce_result_change, listeners_replaced
from core.locking import parse_if_match


def outcome(status: str, winner: int | None = None, score=(0, 0)) -> Outcome:
    return Outcome(status=status, winner_id=winner, score=score)


@pytest.mark.parametrize(
    ("before", "after", "changed"),
    [
        (outcome("scheduled"), outcome("in_progress", score=(1, 0)), False),  # a first game
        (outcome("in_progress", score=(1, 0)), outcome("in_progress", score=(2, 0)), False),
        (outcome("in_progress", score=(1, 0)), outcome("scheduled"), False),  # undone
        (outcome("in_progress", score=(4, 0)), outcome("finished", 7, (5, 0)), True),
        (outcome("finished", 7, (5, 0)), outcome("finished", 7, (5, 3)), True),  # corrected
        (outcome("finished", 7, (5, 0)), outcome("finished", 7, (5, 0)), False),
        (outcome("finished", 7, (5, 0)), outcome("in_progress", score=(4, 0)), True),
        (outcome("scheduled"), outcome("void"), True),
        (outcome("scheduled"), outcome("forfeit", 8), True),
    ],
)
def test_what_counts_as_a_result_change(before, after, changed):
    assert after.differs_from(before) is changed


def test_listeners_run_only_for_a_result_change():
    heard: list[ResultChange] = []
    with listeners_replaced(**{"tournaments.bracket": None, "test": heard.append}):
        first_game = ResultChange(1, None, outcome("scheduled"), outcome("in_progress"))
        finished = ResultChange(1, None, outcome("in_progress"), outcome("finished", 7, (5, 0)))
        assert announce_result_change(first_game) is False
        assert announce_result_change(finished) is True
    assert heard == [finished]


@pytest.mark.parametrize(
    ("header", "version"), [(None, None), ("", None), ("*", None), ('"3"', 3), ('W/"4"', 4)]
)
def test_if_match_values(header, version):
    assert parse_if_match(header, noun="match") == version


def test_a_malformed_if_match_names_the_header():
    with pytest.raises(StaleVersionError) as caught:
        parse_if_match('"three"', noun="tournament")
    assert caught.value.code == "if_match_invalid"
    assert caught.value.field == "If-Match"
    assert "tournament's ETag" in caught.value.message
