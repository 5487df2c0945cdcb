"""The shared pieces in ``core``: what counts as a result, and ``If-Match``."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from core import panels as core_panels
from core.demo import demo_seeders
from core.errors import StaleVersionError
from core.listeners import Outcome, ResultChange, announce_result_change, listeners_replaced
from core.locking import parse_if_match
from core.panels import register_panel, slots


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
    with listeners_replaced(
        **{"tournaments.bracket": None, "tournaments.follow_up": None, "test": heard.append}
    ):
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


def test_the_apps_fill_the_registries_games_pages_and_seed_demo_read():
    """What the club, match and home pages show of the other apps, and what
    ``seed_demo`` seeds, is registered by those apps (games names neither)."""
    assert slots() == {
        "club.above_players": ["core.gave_up", "tournaments.events"],
        "club.actions": ["money.master_points", "tournaments.new"],
        "club.below_players": ["chouette.open_sessions"],
        "club.settings": ["clubdata.club_data"],
        "home.side": ["tournaments.calls", "chouette.my_seat", "tournaments.player_events"],
        "match.analysis": ["analysis.summary"],
        "match.head": ["tournaments.event_link", "analysis.variant_rules"],
        "match.where": ["tournaments.event_link"],
        "player.history": ["tournaments.past_results", "analysis.pr_chart"],
    }
    assert [name for name, _seed in demo_seeders()] == ["games", "tournaments", "chouette"]


def test_a_panel_whose_provider_returns_none_shows_nothing(rf):
    from django.template import Context, Template

    page = Template('{% load panels %}[{% panels "test.slot" thing %}]')
    request = rf.get("/")
    try:
        register_panel(
            "test.slot",
            "shown",
            template="tournaments/_club_new_tournament.html",
            provider=lambda request, thing: {"club": thing} if thing.slug else None,
        )
        shown = page.render(Context({"request": request, "thing": SimpleNamespace(slug="x")}))
        hidden = page.render(Context({"request": request, "thing": SimpleNamespace(slug="")}))
    finally:
        core_panels._slots.pop("test.slot")
    assert 'href="/tournaments/new/x/"' in shown
    assert hidden == "[]"


@pytest.mark.parametrize(
    "name", ["handle_event", "sweep_events", "run_job", "sweep_queued_jobs", "sweep_stalled_jobs"]
)
def test_the_tasks_have_their_core_names_only(name):
    """Registered at start-up (``CoreConfig.ready``: the outbox and the jobs send them by
    name); the old ``games.tasks.*`` aliases are retired (core migration 0003)."""
    from config.celery import app

    assert f"core.tasks.{name}" in app.tasks
    assert f"games.tasks.{name}" not in app.tasks
    for entry in app.conf.beat_schedule.values():
        assert not entry["task"].startswith("games.tasks."), entry


def test_games_templates_name_no_other_app():
    """``games`` templates render what the other apps register (core.panels); they load
    none of their tags and reverse none of their URLs (import-linter cannot read
    templates, so this reads them)."""
    root = Path(__file__).resolve().parents[2] / "templates" / "games"
    named = re.compile(r"\{[%{][^%}]*\b(tournament|chouette)[^%}]*[%}]\}", re.IGNORECASE)
    found = {
        f"{path.relative_to(root)}: {match.group(0)}"
        for path in root.rglob("*.html")
        for match in named.finditer(path.read_text())
    }
    assert found == set()
