"""The audit trail says who did it, in words (issue 41, item 10), on the match page a
director reads.

A final score entered and disputed through the players' score links reads with their
names ("Alice (score link) entered ..."), never "someone"; a director's ruling reads
"ruled: kept ..." with the note, never "the match was saved unchanged"; a match the
bracket voids and replaces reads "the system voided the match because ...", and its
table drawn from the room "the system set the table", never the name of whoever's
request happened to cause it.
"""

from __future__ import annotations

import html as html_lib
import uuid

import pytest
from rest_framework.test import APIClient

from games import score_links
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def _by_link(match, player, path: str, body: dict) -> None:
    client = APIClient()
    client.credentials(HTTP_X_SCORE_LINK=score_links.make_token(match, player))
    response = client.post(
        f"/api/v1/matches/{match.pk}/{path}/",
        body,
        format="json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert response.status_code in (200, 201), response.json()


def _audit(client, match_id: int) -> str:
    page = client.get(f"/matches/{match_id}/")
    assert page.status_code == 200
    return html_lib.unescape(page.content.decode().split("Audit trail", 1)[1])


def test_entries_by_score_link_and_a_ruling_name_who_did_them(
    make_match, alice, bob, client, director
):
    match = make_match(7)
    _by_link(match, alice, "result", {"score": [7, 3]})
    _by_link(match, bob, "dispute", {"reason": "I won game 4"})
    client.force_login(director)
    ruled = client.post(
        f"/api/v1/matches/{match.pk}/resolve/",
        {"resolution": "The score sheet says 7-3", "decision": "keep"},
        "application/json",
    )
    assert ruled.status_code == 200, ruled.json()

    audit = _audit(client, match.pk)
    assert "Alice (score link) entered the final score: Alice 7 – Bob 3" in audit
    assert "Bob (score link) disputed: I won game 4" in audit
    assert "director ruled: kept Alice 7 – Bob 3 (The score sheet says 7-3)" in audit
    assert "someone" not in audit and "saved unchanged" not in audit


def test_a_confirmation_by_score_link_names_the_player(make_match, alice, bob, client, director):
    match = make_match(5)
    _by_link(match, bob, "result", {"score": [2, 5]})
    _by_link(match, alice, "confirm", {})
    client.force_login(director)
    audit = _audit(client, match.pk)
    assert "Bob (score link) entered the final score: Alice 2 – Bob 5" in audit
    assert "Alice (score link) confirmed the entries (Alice 2 – Bob 5)" in audit
    assert "someone" not in audit


def test_a_match_the_bracket_replaces_is_voided_by_the_system_with_the_reason(
    make_event, win, client, director
):
    event = make_event(4)
    win(event, "main-r1-m1", 1)
    win(event, "main-r1-m2", 2)
    final = Pairing.objects.get(tournament=event, key="main-r2-m1")
    replaced = final.match_id
    assert replaced is not None
    # the director corrects the first semi-final: seed 4 won it, the final changes
    semi = Pairing.objects.select_related("match", "entry1__player", "entry2__player").get(
        tournament=event, key="main-r1-m1"
    )
    four = semi.entry1 if semi.entry1.seed == 4 else semi.entry2
    length = semi.match.length
    score = [length, 0] if semi.match.player1_id == four.player_id else [0, length]
    client.force_login(director)
    corrected = client.post(
        f"/api/v1/matches/{semi.match_id}/result/",
        {"score": score},
        "application/json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert corrected.status_code == 200, corrected.json()
    final.refresh_from_db()
    assert final.replaced_matches == [replaced]

    audit = _audit(client, replaced)
    assert (
        "the system voided the match because the players of its bracket slot changed "
        "(a new match replaces it)" in audit
    )
    assert "the system set the table: 1" in audit  # drawn from the room, by no one
    assert "director voided the match" not in audit and "someone" not in audit


def _audit_in(client, match_id: int, language: str) -> str:
    page = client.get(f"/matches/{match_id}/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    return html_lib.unescape(page.content.decode().split('<ol class="audit">', 1)[1])


def test_the_trail_reads_in_the_readers_language_with_its_actor(
    make_match, alice, bob, client, director
):
    """The sentences are told from the history rows when the page is read, so the same
    rows read in German for a German reader and in English for an English one."""
    match = make_match(7)
    _by_link(match, alice, "result", {"score": [7, 3]})
    _by_link(match, bob, "dispute", {"reason": "I won game 4"})
    client.force_login(director)
    ruled = client.post(
        f"/api/v1/matches/{match.pk}/resolve/",
        {"resolution": "The score sheet says 7-3", "decision": "keep"},
        "application/json",
    )
    assert ruled.status_code == 200, ruled.json()

    german = _audit_in(client, match.pk, "de")
    assert "Alice (Ergebnislink) hat den Endstand eingetragen: Alice 7 – Bob 3" in german
    assert "Bob (Ergebnislink) hat Einspruch erhoben: I won game 4" in german
    assert (
        "director hat entschieden: Alice 7 – Bob 3 bleibt bestehen (The score sheet says 7-3)"
        in german
    )
    assert "entered" not in german and "ruled" not in german and "score link" not in german
    assert "Alice (score link) entered the final score" in _audit_in(client, match.pk, "en")

    api = client.get(f"/api/v1/matches/{match.pk}/audit/", HTTP_ACCEPT_LANGUAGE="fr").json()
    said = [e["summary"] for e in api]
    assert any(
        s.startswith("Alice (lien de score) a saisi le score final : Alice 7 – Bob 3") for s in said
    )


def test_a_match_the_bracket_replaces_reads_in_german(make_event, win, client, director):
    event = make_event(4)
    win(event, "main-r1-m1", 1)
    win(event, "main-r1-m2", 2)
    final = Pairing.objects.get(tournament=event, key="main-r2-m1")
    replaced = final.match_id
    semi = Pairing.objects.select_related("match", "entry1", "entry2").get(
        tournament=event, key="main-r1-m1"
    )
    four = semi.entry1 if semi.entry1.seed == 4 else semi.entry2
    length = semi.match.length
    score = [length, 0] if semi.match.player1_id == four.player_id else [0, length]
    client.force_login(director)
    corrected = client.post(
        f"/api/v1/matches/{semi.match_id}/result/",
        {"score": score},
        "application/json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert corrected.status_code == 200, corrected.json()

    german = _audit_in(client, replaced, "de")
    assert (
        "das System hat das Match annulliert, weil sich die Spieler seines Platzes im "
        "Turnierbaum geändert haben (ein neues Match ersetzt es)" in german
    )
    assert "das System hat den Tisch festgelegt: 1" in german
    assert "the system" not in german and "jemand" not in german
