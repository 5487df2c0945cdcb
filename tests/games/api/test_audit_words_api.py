"""The audit trail in words through the API: every entry carries a ``summary`` that
tells the change as a sentence, with names, never raw ids or ``None``."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db


def _post(client, url, body=None):
    response = client.post(url, body or {}, format="json")
    assert response.status_code in (200, 201), response.json()
    return response


def test_every_audit_entry_says_the_change_in_words(
    client_for, director, alice_user, bob_user, make_match, alice, bob
):
    match = make_match(7)
    url = f"/api/v1/matches/{match.pk}/"
    ann, ben, boss = client_for(alice_user), client_for(bob_user), client_for(director)
    _post(
        ann,
        url + "games/",
        {"winner": alice.pk, "level": "gammon", "cube": 2, "cube_owner": "player1"},
    )
    _post(ben, url + "confirm/")
    _post(ann, url + "games/", {"winner": alice.pk})
    _post(ben, url + "dispute/", {"reason": "I won game 2"})
    fixed = boss.patch(
        url + "games/2/", {"winner": bob.pk, "cube": 2, "cube_owner": "player2"}, format="json"
    )
    assert fixed.status_code == 200, fixed.json()
    _post(boss, url + "resolve/", {"resolution": "corrected: Bob won game 2"})
    _post(boss, url + "games/", {"winner": bob.pk})
    _post(boss, url + "undo/")
    _post(boss, url + "void/")
    _post(boss, url + "reopen/", {"reason": "Voided the wrong match."})
    _post(boss, url + "forfeit/", {"winner": bob.pk})

    trail = boss.get(url + "audit/").json()
    summaries = [e["summary"] for e in trail]
    for e in trail:
        assert {"at", "who", "what", "subject", "changes", "reason", "summary"} <= set(e)
        assert "None" not in e["summary"], e
    assert summaries[0] == "director created the match: Alice v Bob, 7-point match, rated"
    assert "Alice entered game 1: Alice won a gammon on a 2-cube (4 points)" in summaries
    assert "Bob confirmed the entries (Alice 4 – Bob 0)" in summaries
    assert "Bob disputed: I won game 2" in summaries
    assert (
        "director corrected game 2: winner Alice → Bob, cube 1 → 2, cube owner centre → Bob"
        in summaries
    )
    assert any(
        s.startswith("director ruled: kept Alice") and s.endswith("(corrected: Bob won game 2)")
        for s in summaries
    )
    assert any(s.startswith("director entered game 3: Bob won a single game") for s in summaries)
    assert any(s.startswith("director undid game 3, which said Bob won") for s in summaries)
    assert "director voided the match" in summaries
    assert "director reopened the match (was void): Voided the wrong match." in summaries
    assert "director awarded the match to Bob by forfeit" in summaries


def test_the_openapi_schema_documents_the_summary_of_both_audit_trails(client_for, director):
    schema = client_for(director).get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    assert schema.status_code == 200
    body = json.loads(schema.content)
    entry = body["components"]["schemas"]["AuditEntry"]
    assert "summary" in entry["required"] and entry["properties"]["summary"]["type"] == "string"
    for path in ("/api/v1/matches/{id}/audit/", "/api/v1/chouette/sessions/{id}/audit/"):
        response = body["paths"][path]["get"]["responses"]["200"]
        items = response["content"]["application/json"]["schema"]["items"]
        assert items == {"$ref": "#/components/schemas/AuditEntry"}
