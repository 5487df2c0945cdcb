"""The club's own master-points table (versioned), seasons and the leaderboard."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from core.errors import RuleViolation
from money import master_points
from money.models import ClubPointsTable, EventMasterPoints
from tournaments.models import Entry, Tournament
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db

D = Decimal
V1 = [{"min_players": 8, "max_players": 15, "points": ["10", "6", "3", "3"]}]
ANY = [{"min_players": 2, "max_players": None, "points": ["10", "6", "3", "3"]}]
V2 = [{"min_players": 8, "max_players": 15, "points": ["20", "12", "6", "6"]}]


def _finished(make_event, actor, played, win, *, name: str, ends_on: datetime.date, n: int = 4):
    event = make_event(n, name=name, match_lengths={"default": 5})
    master_points.set_master_points(actor=actor, tournament=event, formula="club-table")
    played(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    Tournament.objects.filter(pk=event.pk).update(ends_on=ends_on)
    event.refresh_from_db()
    return event


def _by_seed(event, points):
    seeds = {e.seed: e.player_id for e in Entry.objects.filter(tournament=event)}
    return {seed: points.get(player) for seed, player in seeds.items()}


def test_club_table_versions_and_the_higher_of_place_or_wins(club, actor, make_event, played, win):
    with pytest.raises(RuleViolation) as refused:
        master_points.set_master_points(
            actor=actor, tournament=make_event(2, name="Early"), formula="club-table"
        )
    assert refused.value.code == "no_club_table"
    v1 = master_points.save_club_table(actor=actor, club=club, per_match_won="2", brackets=V1)
    assert v1.version == 1
    same = master_points.save_club_table(actor=actor, club=club, per_match_won="2", brackets=V1)
    assert same.pk == v1.pk  # saving the same table again is no new version
    event = _finished(
        make_event, actor, played, win, name="Spring", ends_on=datetime.date(2026, 3, 1), n=8
    )
    # 8 players, 2 a win: winner 3 wins (6) < 10; runner-up 2 wins (4) < 6; semi-final
    # losers share 3rd-4th (3 + 3) / 2 = 3 > 1 win (2); quarter-final losers earn nothing
    points = _by_seed(event, master_points.event_points(event))
    assert points == {1: D(10), 2: D(6), 3: D(3), 4: D(3), 5: None, 6: None, 7: None, 8: None}
    v2 = master_points.save_club_table(actor=actor, club=club, per_match_won="2", brackets=V2)
    assert v2.version == 2
    # the finished event keeps version 1
    assert EventMasterPoints.objects.get(tournament=event).club_table_id == v1.pk
    assert _by_seed(event, master_points.event_points(event))[1] == D(10)
    # and its API answer says so: the club's table, version 1
    answer = APIClient().get(f"/api/v1/tournaments/{event.slug}/money/master-points/").json()
    assert (answer["formula"], answer["club_table_version"]) == ("club-table", 1)
    later = _finished(
        make_event, actor, played, win, name="Autumn", ends_on=datetime.date(2026, 10, 1), n=8
    )
    assert _by_seed(later, master_points.event_points(later))[1] == D(20)


def _events(rows):
    return sorted({t.name for row in rows for t, _ in row.events})


TODAY = datetime.date(2026, 11, 1)


def test_seasons_from_the_clubs_start_day(club, actor, make_event, played, win):
    master_points.save_club_table(actor=actor, club=club, per_match_won="1", brackets=ANY)
    _finished(make_event, actor, played, win, name="A", ends_on=datetime.date(2026, 3, 1))
    _finished(make_event, actor, played, win, name="B", ends_on=datetime.date(2026, 10, 1))
    assert [s.label for s in master_points.seasons(club, TODAY)] == ["2026"]
    assert _events(master_points.club_table(club, 2026)) == ["A", "B"]
    master_points.set_season_start(actor=actor, club=club, month=9, day=1)
    seasons = master_points.seasons(club, TODAY)
    assert [(s.year, s.label) for s in seasons] == [(2026, "2026-27"), (2025, "2025-26")]
    assert seasons[0].first_day == datetime.date(2026, 9, 1)
    assert seasons[0].last_day == datetime.date(2027, 8, 31)
    assert _events(master_points.club_table(club, 2025)) == ["A"]
    assert _events(master_points.club_table(club, 2026)) == ["B"]
    assert _events(master_points.club_table(club)) == ["A", "B"]
    # one player's points add up over a season's events
    rows = master_points.club_table(club, 2026)
    assert [(r.player.display_name, r.points) for r in rows[:2]] == [("P01", D(10)), ("P02", D(6))]


def test_leaderboard_page_csv_and_api_by_season(club, actor, make_event, played, win):
    master_points.save_club_table(actor=actor, club=club, per_match_won="1", brackets=ANY)
    _finished(make_event, actor, played, win, name="Old", ends_on=datetime.date(2025, 3, 1))
    _finished(make_event, actor, played, win, name="New", ends_on=datetime.date(2026, 3, 1))
    page = Client().get(f"/clubs/{club.slug}/master-points/").content.decode()
    assert "master points 2026" in page and ">New<" in page and ">Old<" not in page
    old = Client().get(f"/clubs/{club.slug}/master-points/?season=2025").content.decode()
    assert ">Old<" in old and ">New<" not in old
    every = Client().get(f"/clubs/{club.slug}/master-points/?season=all").content.decode()
    assert ">Old<" in every and ">New<" in every
    csv = Client().get(f"/clubs/{club.slug}/master-points/?season=2026&format=csv").content.decode()
    assert csv.splitlines()[0] == "season,rank,player,points,events"
    assert csv.splitlines()[1] == "2026,1,P01,10.00,1"
    api = APIClient().get(f"/api/v1/clubs/{club.slug}/master-points/?season=2025").json()
    assert [r["events"][0]["tournament"] for r in api] == [api[0]["events"][0]["tournament"]] * len(
        api
    )
    assert api[0]["name"] == "P01" and api[0]["points"] == "10.00"
    bad = APIClient().get(f"/api/v1/clubs/{club.slug}/master-points/?season=soon")
    assert bad.status_code == 400 and bad.json()["field"] == "season"


def test_club_table_api(club, director, make_user):
    url = f"/api/v1/clubs/{club.slug}/master-points/table/"
    assert APIClient().get(url).json() == {
        "version": None,
        "table": None,
        "season_start": {"month": 1, "day": 1},
    }
    assert APIClient().put(url, {"brackets": V1}, format="json").status_code in (401, 403)
    stranger = APIClient()
    stranger.force_authenticate(make_user("stranger"))
    assert stranger.put(url, {"brackets": V1}, format="json").status_code == 403
    client = APIClient()
    client.force_authenticate(director)
    overlapping = [*V1, {"min_players": 12, "max_players": None, "points": ["5"]}]
    bad = client.put(url, {"per_match_won": "1", "brackets": overlapping}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "brackets[1].min_players"
    ok = client.put(url, {"per_match_won": "1.5", "brackets": V1}, format="json")
    assert ok.status_code == 200 and ok.json()["version"] == 1
    assert ok.json()["table"]["per_match_won"] == "1.50"
    season = client.put(
        f"/api/v1/clubs/{club.slug}/master-points/season/", {"month": 9, "day": 1}, format="json"
    )
    assert season.status_code == 200 and season.json()["season_start"] == {"month": 9, "day": 1}
    bad_day = client.put(
        f"/api/v1/clubs/{club.slug}/master-points/season/", {"month": 2, "day": 30}, format="json"
    )
    assert bad_day.status_code == 400 and bad_day.json()["field"] == "day"


def test_club_table_page(club, director, make_user):
    url = f"/clubs/{club.slug}/master-points/table/"
    empty = Client().get(url).content.decode()
    assert "No table yet" in empty and "no points table of its own yet" in empty
    assert "Fill in a row below" not in empty  # that is the directors' form
    assert f'href="/clubs/{club.slug}/"' in empty  # the way back to the club
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.post(url, {"form": "table"}).status_code == 404
    browser = Client()
    browser.force_login(director)
    assert "Fill in a row below" in browser.get(url).content.decode()
    bad = browser.post(
        url,
        {
            "form": "table",
            "per_match_won": "1",
            "min_players": ["8", ""],
            "max_players": ["15", ""],
            "points": ["3/6", ""],
        },
    )
    assert bad.status_code == 400
    assert "A place never earns more points than the place above it." in bad.content.decode()
    for points in ("10/6/3/3", "12/6/3/3"):
        ok = browser.post(
            url,
            {
                "form": "table",
                "per_match_won": "2",
                "min_players": ["8", "16"],
                "max_players": ["15", ""],
                "points": [points, "16/10/5/5"],
            },
        )
        assert ok.status_code == 302
    assert list(ClubPointsTable.objects.filter(club=club).values_list("version", flat=True)) == [
        2,
        1,
    ]
    page = browser.get(url).content.decode()
    assert "Version 2" in page and "12 / 6 / 3 / 3" in page and "Earlier versions" in page
    assert browser.post(url, {"form": "season", "day": "1", "month": "9"}).status_code == 302
    assert browser.post(url, {"form": "season", "day": "31", "month": "9"}).status_code == 400


def test_club_table_and_season_writes_carry_etag_and_idempotency_key(club, director):
    """Saving the table or the season start names the settings version it read
    (If-Match; 412 when another director saved since) and a retried save with the same
    Idempotency-Key is answered once, without a second version."""
    url = f"/api/v1/clubs/{club.slug}/master-points/table/"
    season_url = f"/api/v1/clubs/{club.slug}/master-points/season/"
    client = APIClient()
    client.force_authenticate(director)
    read = client.get(url)
    assert read["ETag"] == '"1"'
    body = {"per_match_won": "1", "brackets": V1}
    first = client.put(url, body, format="json", HTTP_IF_MATCH='"1"', HTTP_IDEMPOTENCY_KEY="t-1")
    assert first.status_code == 200 and first["ETag"] == '"2"'
    again = client.put(url, body, format="json", HTTP_IF_MATCH='"1"', HTTP_IDEMPOTENCY_KEY="t-1")
    assert again.status_code == 200 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert ClubPointsTable.objects.filter(club=club).count() == 1
    # the season saved over the version read before the table: refused, nothing written
    stale = client.put(season_url, {"month": 9, "day": 1}, format="json", HTTP_IF_MATCH='"1"')
    assert stale.status_code == 412 and stale.json()["field"] == "If-Match"
    assert master_points.season_start(club).month == 1
    ok = client.put(season_url, {"month": 9, "day": 1}, format="json", HTTP_IF_MATCH='"2"')
    assert ok.status_code == 200 and ok["ETag"] == '"3"'
    other = {"per_match_won": "2", "brackets": V1}
    late = client.put(url, other, format="json", HTTP_IF_MATCH='"2"')
    assert late.status_code == 412
    assert ClubPointsTable.objects.filter(club=club).count() == 1
    # without If-Match a save still goes through (no precondition), as other money writes
    assert client.put(url, other, format="json").json()["version"] == 2


def test_club_table_page_refuses_a_stale_form(club, director):
    url = f"/clubs/{club.slug}/master-points/table/"
    browser = Client()
    browser.force_login(director)
    assert 'name="version" value="1"' in browser.get(url).content.decode()
    assert (
        browser.post(url, {"form": "season", "day": "1", "month": "9", "version": "1"}).status_code
        == 302
    )
    stale = browser.post(url, {"form": "season", "day": "1", "month": "3", "version": "1"})
    assert stale.status_code == 400 and "changed since you read" in stale.content.decode()
    assert master_points.season_start(club).month == 9


def test_the_current_season_is_listed_before_it_has_points(club, actor, make_event, played, win):
    master_points.save_club_table(actor=actor, club=club, per_match_won="1", brackets=ANY)
    assert [(s.year, s.has_points) for s in master_points.seasons(club, TODAY)] == [(2026, False)]
    _finished(make_event, actor, played, win, name="Old", ends_on=datetime.date(2025, 3, 1))
    listed = master_points.seasons(club, datetime.date(2027, 2, 1))
    assert [(s.year, s.has_points) for s in listed] == [(2027, False), (2025, True)]
    # the page lists today's season, says it has no points yet, and still opens on the
    # newest season with points
    page = Client().get(f"/clubs/{club.slug}/master-points/").content.decode()
    assert "(no points yet)</option>" in page
    assert "master points 2025" in page and ">Old<" in page
    now = timezone.localdate().year
    current = Client().get(f"/clubs/{club.slug}/master-points/?season={now}").content.decode()
    assert "No points yet this season." in current and ">Old<" not in current
