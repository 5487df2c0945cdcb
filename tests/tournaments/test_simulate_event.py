"""``simulate_event``: whole events through the real services, checked by their rules."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Club, Match
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def simulate(*args: str) -> dict:
    out = StringIO()
    call_command("simulate_event", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def assert_once_per_round(report: dict) -> None:
    seen: defaultdict[tuple[str, int], list[int]] = defaultdict(list)
    for m in report["matches"]:
        key = (m["stage"], m["round"])
        seen[key] += [p for p in (m["player1"], m["player2"]) if p is not None]
    for key, players in seen.items():
        if key[0] != "round_robin":  # groups share round numbers; checked per group below
            assert len(players) == len(set(players)), key


def test_single_elimination_plays_entries_minus_one_main_matches_and_leaves_nothing():
    report = simulate("--format", "single_elimination", "--players", "11", "--seed", "4")
    main = [m for m in report["matches"] if m["stage"] == "main"]
    assert sum(not m["bye"] for m in main) == 10
    assert sum(m["bye"] for m in main) == 5  # 16 - 11
    assert report["champion"] == main[-1]["winner"]
    assert_once_per_round(report)
    assert not Tournament.objects.exists() and not Club.objects.exists()
    assert not Match.objects.exists()


def test_consolation_and_last_chance_each_crown_a_winner():
    report = simulate(
        "--format", "single_elimination", "--players", "13", "--consolation", "--last-chance"
    )
    stages = {m["stage"] for m in report["matches"]}
    assert stages == {"main", "consolation", "last_chance"}
    assert_once_per_round(report)


def test_twenty_four_players_play_a_last_chance():
    """Issue 13: with 24 entries consolation round 1 is all walkovers; the last chance
    takes the losers of consolation round 2 instead of nobody."""
    report = simulate(
        "--format", "single_elimination", "--players", "24", "--consolation", "--last-chance"
    )
    last_chance = [m for m in report["matches"] if m["stage"] == "last_chance" and not m["bye"]]
    consolation_losers = {
        m["player1"] if m["winner"] == m["player2"] else m["player2"]
        for m in report["matches"]
        if m["stage"] == "consolation" and not m["bye"]
    }
    assert len(last_chance) == 7  # the 8 losers of consolation round 2 play down to one
    assert {p for m in last_chance for p in (m["player1"], m["player2"])} <= consolation_losers
    assert_once_per_round(report)


def test_a_last_chance_too_small_to_play_is_a_command_error():
    with pytest.raises(CommandError, match="last_chance_unreachable"):
        simulate(
            "--format", "single_elimination", "--players", "4", "--consolation", "--last-chance"
        )


def test_double_elimination_eliminates_everyone_but_the_champion_by_a_second_loss():
    report = simulate("--format", "double_elimination", "--players", "10", "--seed", "2")
    losses: Counter[int] = Counter()
    for m in report["matches"]:
        if not m["bye"]:
            losses[m["player1"] if m["winner"] == m["player2"] else m["player2"]] += 1
    players = {p for m in report["matches"] for p in (m["player1"], m["player2"]) if p}
    assert len(players) == 10
    for player in players - {report["champion"]}:
        assert losses[player] == 2, player
    assert losses[report["champion"]] <= 1
    assert_once_per_round(report)


def test_swiss_runs_the_asked_rounds_without_rematches():
    report = simulate("--format", "swiss", "--players", "9", "--rounds", "4", "--seed", "5")
    assert report["rounds"] == 4
    assert report["rematches"] == 0
    assert report["byes"] == 4  # one per round, never twice to the same player
    byes = [m["player1"] for m in report["matches"] if m["bye"]]
    assert len(set(byes)) == 4
    assert_once_per_round(report)


def test_n_lives_puts_players_out_after_three_losses_and_crowns_a_playoff_winner():
    report = simulate("--format", "n_lives", "--players", "20", "--seed", "7")
    losses: Counter[int] = Counter()
    for m in sorted(report["matches"], key=lambda m: (m["stage"] != "swiss", m["round"])):
        players = [p for p in (m["player1"], m["player2"]) if p is not None]
        if m["stage"] == "swiss":  # nobody plays on after the third loss
            assert all(losses[p] < 3 for p in players), m
        if not m["bye"]:
            losses[m["player1"] if m["winner"] == m["player2"] else m["player2"]] += 1
    playoff = [m for m in report["matches"] if m["stage"] == "playoff"]
    assert playoff and report["champion"] == playoff[-1]["winner"]
    entered = {p for m in playoff for p in (m["player1"], m["player2"]) if p is not None}
    assert 2 <= len(entered) <= 4  # the default playoff: four contenders at most
    assert_once_per_round(report)


def test_round_robin_pairs_everyone_with_everyone_once():
    report = simulate("--format", "round_robin", "--players", "5")
    pairs = Counter(
        frozenset((m["player1"], m["player2"])) for m in report["matches"] if not m["bye"]
    )
    assert len(pairs) == 10 and set(pairs.values()) == {1}
    assert report["rounds"] == 5 and report["byes"] == 5


def test_keep_leaves_the_event_behind():
    simulate("--format", "single_elimination", "--players", "4", "--keep")
    tournament = Tournament.objects.get()
    assert tournament.status == "finished"


def test_refuses_a_last_chance_without_a_consolation():
    with pytest.raises(CommandError):
        call_command("simulate_event", "--format", "swiss", "--players", "4", "--last-chance")
