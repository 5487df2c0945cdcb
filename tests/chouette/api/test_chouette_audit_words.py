"""The chouette audit in words through the API: each entry's ``summary`` tells the
change as a sentence with the players' names (opened, recorded, corrected, undone,
seat changes, closed)."""

from __future__ import annotations

import pytest

from tests.chouette.helpers import client, make_table, member, sessions_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(club):
    return make_table(club, count=5, accounts=2)


def _ok(response):
    assert response.status_code in (200, 201), response.json()
    return response.json()


def test_the_chouette_audit_says_each_change_in_words(director, table):
    ann, ben, cat, dan = (table[n] for n in ("Ann", "Ben", "Cat", "Dan"))
    api = client(director)
    sid = _ok(
        api.post(
            sessions_url(),
            {"club": "test-club", "stake": "1.00", "players": [ann.pk, ben.pk, cat.pk]},
            format="json",
        )
    )["id"]
    _ok(
        client(ben.user).post(
            sessions_url(sid, "games/"),
            {"winner": "box", "members": [member(ben), member(cat, action="dropped")]},
            format="json",
        )
    )
    _ok(
        api.patch(
            sessions_url(sid, "games/1/"),
            {"winner": "team", "members": [member(ben, 2), member(cat)]},
            format="json",
        )
    )
    _ok(
        api.post(
            sessions_url(sid, "games/"),
            {"winner": "box", "members": [member(cat), member(ann)]},
            format="json",
        )
    )
    _ok(api.delete(sessions_url(sid, "games/2/")))
    _ok(api.post(sessions_url(sid, "join/"), {"player": dan.pk}, format="json"))
    _ok(api.post(sessions_url(sid, "leave/"), {"player": cat.pk}, format="json"))
    _ok(api.post(sessions_url(sid, "close/")))

    entries = _ok(api.get(sessions_url(sid, "audit/")))
    summaries = [e["summary"] for e in entries]
    print("\n".join(summaries))
    assert all("None" not in s for s in summaries)


def test_the_chouette_audit_reads_in_the_readers_language(director, table):
    """Told from the history rows when it is read: the same session in German and in
    English, names and numbers kept."""
    ann, ben, cat = (table[n] for n in ("Ann", "Ben", "Cat"))
    api = client(director)
    sid = _ok(
        api.post(
            sessions_url(),
            {"club": "test-club", "stake": "1.00", "players": [ann.pk, ben.pk, cat.pk]},
            format="json",
        )
    )["id"]
    _ok(
        client(ben.user).post(
            sessions_url(sid, "games/"),
            {"winner": "box", "members": [member(ben), member(cat, action="dropped")]},
            format="json",
        )
    )
    _ok(api.post(sessions_url(sid, "leave/"), {"player": cat.pk}, format="json"))
    _ok(api.post(sessions_url(sid, "close/")))

    url = sessions_url(sid, "audit/")
    german = [e["summary"] for e in _ok(api.get(url, HTTP_ACCEPT_LANGUAGE="de"))]
    english = [e["summary"] for e in _ok(api.get(url, HTTP_ACCEPT_LANGUAGE="en"))]
    assert len(german) == len(english)
    assert any(s.startswith("director hat die Sitzung eröffnet: Ann, Ben, Cat") for s in german)
    assert any("hat Spiel 1 eingetragen: Box Ann" in s for s in german)
    assert any(s.startswith("Cat hat den Tisch verlassen") for s in german)
    assert any(s.startswith("director hat die Sitzung geschlossen") for s in german)
    assert not any("session" in s or "recorded" in s or "captain" in s for s in german)
    assert any(s.startswith("director opened the session: Ann, Ben, Cat") for s in english)
    assert any("recorded game 1: box Ann" in s for s in english)
