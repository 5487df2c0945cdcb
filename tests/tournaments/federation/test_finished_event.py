"""Every export of a finished 32-player event, through the API and the director's page,
checked against the bodies' rules (docs/federations.md)."""

from __future__ import annotations

import csv
import io
import zipfile
from decimal import Decimal

import pytest
from django.core import mail

from games.models import Match
from tests.openapi_answers import check_answer, closed_live_schema

from .conftest import agree_to_links

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/{slug}/federation/{export}/"


def _rows(content: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(content.decode("utf-8"))))


def test_each_export_of_a_finished_32_player_event(finished, client_for, director, client):
    event, ids = finished
    api = client_for(director)

    # WBGF: every entrant in finishing order, the three checks shown and passing
    wbgf = api.get(API.format(slug=event.slug, export="wbgf")).json()
    assert wbgf["summary"]["qualifies"] is True
    checks = {c["code"]: c for c in wbgf["summary"]["checks"]}
    assert set(checks) == {"field_size", "match_length", "buy_in"}
    assert checks["field_size"]["found"] == "32 players"
    assert checks["match_length"]["found"] == "Shortest match: 9 points"
    assert checks["buy_in"]["found"] == "55.00 EUR"  # €30 registration + €25 main pool
    file = api.get(API.format(slug=event.slug, export="wbgf") + "file/")
    assert file["Content-Disposition"] == f'attachment; filename="wbgf-{event.slug}.csv"'
    rows = _rows(file.content)
    assert len(rows) == 32 and len({r["player"] for r in rows}) == 32
    assert [r["place_label"] for r in rows[:4]] == ["1", "2", "3-4", "3-4"]
    assert rows[0]["player"] == "P01" and rows[-1]["place"] == "17"
    assert {r["qualifies"] for r in rows} == {"yes"}

    # ABT: division factor x attendance, shared 8:4:2:2 over the first four ranks
    for division, factor in (("open", "1"), ("intermediate", "0.5"), ("novice", "0.25")):
        body = api.get(API.format(slug=event.slug, export="abt"), {"division": division}).json()
        summary = body["summary"]
        assert summary["division_factor"] == factor and summary["attendance"] == 32
        assert Decimal(summary["total_points"]) == Decimal(factor) * 32
        points = [Decimal(a["points"]) for a in summary["awards"]]
        assert [a["player"] for a in summary["awards"]] == ["P01", "P02", "P03", "P04"]
        assert points[0] == (points[1] * 2).quantize(Decimal("0.01")) or abs(
            points[0] - 2 * points[1]
        ) <= Decimal("0.01")
        assert points[2] == points[3]
        assert abs(sum(points) - Decimal(factor) * 32) <= Decimal("0.02")
    abt_rows = _rows(
        api.get(API.format(slug=event.slug, export="abt") + "file/", {"division": "novice"}).content
    )
    assert abt_rows[0]["division_factor"] == "0.25" and abt_rows[0]["points"] == "4.27"

    # UKBGF: 31 matches played, the walkover left out; the clocked match has its times
    ukbgf = api.get(API.format(slug=event.slug, export="ukbgf")).json()["summary"]
    assert [e["match_id"] for e in ukbgf["excluded"]] == [ids["forfeit"]]
    assert ukbgf["excluded"][0]["reason"] == "forfeit"
    assert len(ukbgf["matches"]) == 30
    rows = _rows(api.get(API.format(slug=event.slug, export="ukbgf") + "file/").content)
    assert len(rows) == 30
    clocked = [r for r in rows if r["clock"]]
    assert len(clocked) == 1 and clocked[0]["clock"] == "usbgf"
    assert clocked[0]["player1_time_left"] and clocked[0]["clock_reserve"]

    # BMAB and WBIF: only the two matches entered game by game have a .mat
    for body in ("bmab", "wbif"):
        summary = api.get(API.format(slug=event.slug, export=body)).json()["summary"]
        assert {f["match_id"] for f in summary["files"]} == {ids["clocked"], ids["plain"]}
        reasons = {e["match_id"]: e["reason"] for e in summary["excluded"]}
        assert reasons[ids["forfeit"]] == "forfeit"
        assert set(reasons.values()) == {"forfeit", "no_transcript"}
        archive = zipfile.ZipFile(
            io.BytesIO(api.get(API.format(slug=event.slug, export=body) + "file/").content)
        )
        names = sorted(archive.namelist())
        assert names == sorted(
            ["manifest.csv", f"match-{ids['clocked']}.mat", f"match-{ids['plain']}.mat"]
        )
        manifest = {r["file"]: r for r in _rows(archive.read("manifest.csv"))}
        assert manifest[f"match-{ids['clocked']}.mat"]["clocked"] == "yes"
        assert manifest[f"match-{ids['plain']}.mat"]["clocked"] == "no"
        assert manifest[f"match-{ids['plain']}.mat"]["length"] == "9"
        served = api.get(f"/api/v1/matches/{ids['plain']}/transcript.mat").content
        assert archive.read(f"match-{ids['plain']}.mat") == served  # the project's own .mat

    # Sending: refused without an address, then emailed with the file attached
    refused = api.post(API.format(slug=event.slug, export="ukbgf") + "send/")
    assert refused.status_code == 409 and refused.json()["code"] == "federation_address_missing"
    assert mail.outbox == []
    saved = api.put(
        f"/api/v1/clubs/{event.club.slug}/federation-addresses/",
        {"ukbgf": "ratings@ukbgf.example", "wbgf": "results@wbgf.example"},
        format="json",
    )
    assert saved.status_code == 200 and saved.json()["ukbgf"] == "ratings@ukbgf.example"
    assert len(agree_to_links()) == 2  # each owner agrees to the club's mail first
    sent = api.post(API.format(slug=event.slug, export="ukbgf") + "send/")
    assert sent.status_code == 200, sent.json()
    assert sent.json()["sent_to"] == "ratings@ukbgf.example"
    (message,) = mail.outbox
    assert message.to == ["ratings@ukbgf.example"]
    assert message.subject == "UKBGF ratings: “Nordic Open” (“Test Club”)"
    (name, content, mimetype) = message.attachments[0]
    assert name == f"ukbgf-{event.slug}.csv" and mimetype == "text/csv"
    assert len(_rows(content if isinstance(content, bytes) else content.encode())) == 30

    # The director's page: linked from the director page, each export shown and sent
    client.force_login(director)
    director_page = client.get(f"/tournaments/{event.slug}/director/").content.decode()
    assert f"/tournaments/{event.slug}/director/federation/" in director_page
    page = client.get(f"/tournaments/{event.slug}/director/federation/")
    assert page.status_code == 200
    html = page.content.decode()
    for key in ("wbgf", "abt", "ukbgf", "bmab", "wbif"):
        assert f'id="export-{key}"' in html
    assert "Qualifies" in html and "55.00 EUR" in html and "walkover or forfeit" in html
    download = client.get(f"/tournaments/{event.slug}/director/federation/bmab/file/")
    assert download["Content-Type"] == "application/zip"
    response = client.post(f"/tournaments/{event.slug}/director/federation/wbgf/send/", follow=True)
    assert "sent to results@wbgf.example" in response.content.decode()
    assert mail.outbox[-1].to == ["results@wbgf.example"]
    assert "qualifies for the WBGF world ranking" in mail.outbox[-1].body
    assert Match.objects.filter(pk=ids["forfeit"], status="forfeit").exists()


def test_each_exports_summary_answers_as_declared(finished, client_for, director):
    """The summary is typed in the schema (``FederationSummary``), not free-form: each
    export's real answer validates against it, closed to undeclared keys."""
    event, ids = finished
    api, schema = client_for(director), closed_live_schema()
    filled = {
        "wbgf": {"qualifies", "checks", "entrants"},
        "abt": {"division", "division_factor", "attendance", "total_points", "awards"},
        "ukbgf": {"matches", "excluded"},
        "bmab": {"files", "excluded"},
        "wbif": {"files", "excluded"},
    }
    for export, keys in filled.items():
        body = check_answer(schema, api.get(API.format(slug=event.slug, export=export)))
        assert keys <= set(body["summary"]), export
    ukbgf = check_answer(schema, api.get(API.format(slug=event.slug, export="ukbgf")))
    assert ukbgf["summary"]["excluded"][0]["match_id"] == ids["forfeit"]
