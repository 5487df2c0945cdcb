"""Federation files from who played (issue 41, item 3): an 8-player field that drew 10
names (two waitlisted), two dropped before the draw (the waitlist replaced them), and a
round-1 match awarded by forfeit. Every body's export, through the API, names and
counts only the 8 of the draw (the weekend open's 66 for 64, small); the forfeit is
left out of the match bodies' files with its reason."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest

from tests.tournaments.conftest import play_out
from tournaments.federation.models import FederationExport
from tournaments.models import Entry, EntryStatus, PairingStatus
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services
from tournaments.services import results

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/{slug}/federation/{export}/"


@pytest.fixture
def open_with_no_shows(make_event, win, actor):
    event = make_event(
        10, start=False, capacity=8, match_lengths={"default": 9}, name="Weekend Open"
    )
    waitlisted = set(
        Entry.objects.filter(tournament=event, status=EntryStatus.WAITLISTED).values_list(
            "player__display_name", flat=True
        )
    )
    assert waitlisted == {"P09", "P10"}
    dropped = []
    for name in ("P03", "P06"):  # dropped before the draw: the waitlist moves up
        entry = Entry.objects.get(tournament=event, player__display_name=name)
        entry_services.withdraw_entry(actor=actor, tournament_id=event.pk, entry_id=entry.pk)
        dropped.append(name)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    first = (
        event.pairings.filter(status=PairingStatus.READY)
        .exclude(match=None)
        .select_related("entry1__player", "entry2__player")
        .order_by("slot")
        .first()
    )
    better, worse = sorted((first.entry1, first.entry2), key=lambda e: e.seed)
    results.forfeit_pairing(
        actor=actor, tournament_id=event.pk, key=first.key, winner_entry_id=better.pk
    )
    play_out(event, win)
    event_services.finish_tournament(actor=actor, tournament_id=event.pk)
    event.refresh_from_db()
    return event, set(dropped), worse.player.display_name


def _rows(content: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(content.decode("utf-8"))))


def test_every_body_is_known_here():
    """A new body in the registry needs its own test below."""
    assert set(FederationExport.values) == {"wbgf", "abt", "ukbgf", "bmab", "wbif"}


def test_wbgf_and_abt_rank_and_count_only_who_played(open_with_no_shows, client_for, director):
    """Both fail before issue 41: the two dropped were ranked last and counted."""
    event, absent, _forfeited = open_with_no_shows
    api = client_for(director)
    summary = api.get(API.format(slug=event.slug, export="wbgf")).json()["summary"]
    names = [e["player"] for e in summary["entrants"]]
    assert len(names) == 8 and not absent & set(names)
    checks = {c["code"]: c for c in summary["checks"]}
    assert checks["field_size"]["found"] == "8 players"
    rows = _rows(api.get(API.format(slug=event.slug, export="wbgf") + "file/").content)
    assert len(rows) == 8 and not absent & {r["player"] for r in rows}
    assert {r["players"] for r in rows} == {"8"}
    assert max(int(r["place"]) for r in rows) <= 8

    summary = api.get(API.format(slug=event.slug, export="abt")).json()["summary"]
    assert summary["attendance"] == 8 and summary["total_points"] == "8"
    rows = _rows(api.get(API.format(slug=event.slug, export="abt") + "file/").content)
    assert {r["attendance"] for r in rows} == {"8"}
    assert not absent & {a["player"] for a in summary["awards"]}


def test_match_files_hold_only_matches_played(open_with_no_shows, client_for, director):
    """The match bodies take matches, not entrants: the dropped players have none, and
    the no-show's forfeit is left out with its reason, never rated or bundled (this
    held before issue 41 too: the guard that it stays so)."""
    event, absent, forfeited = open_with_no_shows
    api = client_for(director)
    for body in ("ukbgf", "bmab", "wbif"):
        _match_body_from_who_played(api, event, absent, forfeited, body)


def _match_body_from_who_played(api, event, absent: set[str], forfeited: str, body: str) -> None:
    summary = api.get(API.format(slug=event.slug, export=body)).json()["summary"]
    kept = summary["matches" if body == "ukbgf" else "files"]
    players = {m["player1"] for m in kept} | {m["player2"] for m in kept}
    assert not absent & players
    assert not [e for e in summary["excluded"] if absent & {e["player1"], e["player2"]}]
    reasons = [
        e["reason"] for e in summary["excluded"] if forfeited in (e["player1"], e["player2"])
    ]
    assert reasons == ["forfeit"]
    file = api.get(API.format(slug=event.slug, export=body) + "file/").content
    text = (
        file.decode("utf-8")
        if body == "ukbgf"
        else zipfile.ZipFile(io.BytesIO(file)).read("manifest.csv").decode("utf-8")
    )
    assert not [name for name in absent if name in text]
