"""Issue #37's hostile attempts: strangers among clubs.

The server runs with Redis (the caps and limits are shared by both workers) and with a
Pushpin key (streams are sent as Pushpin forwards them): 37.4 forged score links from
one address, then a valid link from it; 37.6 lone surrogates, ``1e400`` and ``NaN`` in
bodies, ``Authorization`` bytes that are not UTF-8; 37.7 six clubs by one account, a
club named "New", the slug ``admin``, look-alike, capitalised, zero-width and bidi
names, a Russian 1-1's plays and their rate, 310 live streams from one address; 37.3
25 co-director invitations through the club's page, signed in.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any

from .hostile_http import NOT_RUN, Browser, Client, Row, held_or_broken

#: The server's Pushpin key, so the probe can send streams as Pushpin forwards them.
GRIP_KEY = "hostile-bench-grip-key-" + "g" * 40
#: The documented share of streams per anonymous address (LIVE_STREAMS_PER_ADDRESS).
STREAM_CAP = 300
STREAMS_TRIED = STREAM_CAP + 10
#: Forged score links sent from one address: past its failed-attempt budget (30/min).
FORGED = 35


def forged_links(c: Client, w: dict[str, Any]) -> list[Row]:
    """35 forged ``X-Score-Link`` from one address (past the ``score_failed`` budget of 30
    a minute), then a valid link from the same one."""
    path = f"/api/v1/matches/{w['venue']}/games/"
    statuses = [
        c.send("POST", path, {"winner": 1}, headers={"X-Score-Link": f"forged-{n}"}).status
        for n in range(FORGED)
    ]
    valid = c.send(
        "POST",
        path,
        {"winner": w["venue_winner"], "number": 1},
        headers={"X-Score-Link": w["venue_link"]},
    )
    refused = sum(s == 429 for s in statuses)
    return [
        Row(
            "37.4",
            f"{FORGED} forged links from one address ({refused} answered 429)",
            f"{statuses[0]} … {statuses[-1]}",
            held_or_broken(statuses[-1] == 429),
        ),
        Row(
            "37.4",
            "then a valid link from the same address",
            str(valid),
            held_or_broken(valid.status == 201),
        ),
    ]


def hostile_bytes(c: Client, w: dict[str, Any]) -> list[Row]:
    token = w["tokens"]["director"]
    session = f"/api/v1/matches/{w['match']}/confirm/"
    tries = [
        (
            'POST /clubs/ time_zone "\\ud800"',
            "POST",
            "/api/v1/clubs/",
            b'{"name": "x", "time_zone": "\\ud800"}',
            token,
            "time_zone",
        ),
        (
            'POST /clubs/ name "\\udfff"',
            "POST",
            "/api/v1/clubs/",
            b'{"name": "\\udfff"}',
            token,
            "name",
        ),
        (
            "POST /players/ clubs [1e400]",
            "POST",
            "/api/v1/players/",
            b'{"display_name": "x", "clubs": [1e400]}',
            token,
            "clubs[0]",
        ),
        (
            "POST payments player 1e400",
            "POST",
            f"/api/v1/tournaments/{w['event']}/money/payments/",
            b'{"player": 1e400, "amount": "5", "method": "cash"}',
            token,
            "player",
        ),
        (
            "POST payments player NaN",
            "POST",
            f"/api/v1/tournaments/{w['event']}/money/payments/",
            b'{"player": NaN, "amount": "5", "method": "cash"}',
            token,
            "player",
        ),
    ]
    rows = []
    for label, method, path, raw, who, field in tries:
        answer = c.send(method, path, raw=raw, token=who)
        named = isinstance(answer.body, dict) and answer.body.get("field") == field
        rows.append(
            Row(
                "37.6",
                label,
                f"{answer} field={field if named else '?'}",
                held_or_broken(answer.status == 400 and named),
            )
        )
    for bad_token in ("Token \xff\xfe\xfd", "Token \xc3\x28" + "0" * 62):
        for method, path in (("GET", "/api/v1/clubs/"), ("POST", session)):
            answer = c.send(method, path, headers={"Authorization": bad_token})
            rows.append(
                Row(
                    "37.6",
                    f"{method} {path} Authorization {bad_token[:10]!r}",
                    str(answer),
                    # 429 once the forged links spent the address's failures: no token
                    # vouches for it (a score-entry write), and still never a 500
                    held_or_broken(answer.status in (401, 429)),
                )
            )
    return rows


def club_limits(c: Client, w: dict[str, Any]) -> list[Row]:
    maker, namer = w["tokens"]["maker"], w["tokens"]["namer"]
    made = [
        c.send("POST", "/api/v1/clubs/", {"name": f"Maker {w['run']} {n}"}, token=maker)
        for n in range(6)
    ]
    created = sum(a.status == 201 for a in made)
    rows = [
        Row(
            "37.7",
            "6 clubs created by one account",
            f"{created} created, then {made[-1]}",
            held_or_broken(created <= 3 and made[-1].code == "too_many_clubs"),
        )
    ]
    new = c.send("POST", "/api/v1/clubs/", {"name": "New"}, token=namer)
    slug = new.body.get("slug", "") if isinstance(new.body, dict) else ""
    page = c.send("GET", f"/clubs/{slug}/", headers={"Accept": "text/html"}) if slug else None
    rows.append(
        Row(
            "37.7",
            "a club named 'New'",
            f"{new} slug {slug!r}, page {page}",
            held_or_broken(slug != "new" and page is not None and page.status == 200),
        )
    )
    reserved = c.send("POST", "/api/v1/clubs/", {"name": "Admins", "slug": "admin"}, token=namer)
    rows.append(
        Row(
            "37.7",
            "a club with the slug 'admin'",
            str(reserved),
            held_or_broken(reserved.status == 400),
        )
    )
    look_alike = w["club_name"].replace("H", "\u041d").replace("o", "\u043e")
    for label, name in (
        ("a Cyrillic look-alike of an existing club", look_alike),
        ("the name in capitals", w["club_name"].upper()),
        ("a zero-width space only", "\u200b"),
        (
            "a right-to-left override inside",
            "\u202e".join((w["club_name"][:3], w["club_name"][3:])),
        ),
    ):
        answer = c.send("POST", "/api/v1/clubs/", {"name": name}, token=namer)
        rows.append(Row("37.7", label, str(answer), held_or_broken(answer.status == 400)))
    return rows


def variant_plays(c: Client, w: dict[str, Any]) -> list[Row]:
    empty = {"points": [0] * 24, "bar": 0, "off": 0, "pinned": []}
    spread = [
        1 if p in (1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 15, 17, 19, 21, 23) else 0 for p in range(1, 25)
    ]
    body = {
        "position": {
            "mover": {**empty, "points": spread, "not_entered": 0},
            "opponent": {**empty, "not_entered": 15},
        },
        "dice": [1, 1],
        "throw": {"stage": "roll", "earlier_doublets": True},
    }
    started = time.perf_counter()
    answer = c.send("POST", "/api/v1/variants/russian/plays/", body, headers={"X-Bench": "1"})
    took = time.perf_counter() - started
    data = answer.body if isinstance(answer.body, dict) else {}
    rows = [
        Row(
            "37.7",
            "a Russian 1-1 from a spread position",
            f"{answer} {len(data.get('plays', []))} of {data.get('total')} plays, "
            f"{len(answer.text) // 1024} KB, {took:.2f} s",
            held_or_broken(data.get("truncated") is True and len(answer.text) < 100_000),
        )
    ]
    statuses = [
        c.send("POST", "/api/v1/variants/standard/plays/", {"dice": [3, 1]}).status
        for _ in range(32)
    ]
    first = statuses.index(429) + 1 if 429 in statuses else None
    rows.append(
        Row(
            "37.7",
            "32 plays requests in a minute",
            f"first 429 at request {first}",
            held_or_broken(first is not None and first <= 31),
        )
    )
    return rows


def _grip_sig(key: str) -> str:
    """A ``Grip-Sig`` as Pushpin signs a forwarded request (HS256, issuer pushpin)."""

    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    head = part(json.dumps({"typ": "JWT", "alg": "HS256"}).encode())
    body = part(json.dumps({"iss": "pushpin", "exp": int(time.time()) + 3600}).encode())
    signature = hmac.new(key.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{part(signature)}"


def stream_cap(c: Client, w: dict[str, Any]) -> list[Row]:
    """Live streams opened as Pushpin forwards them (signed, so answered at once with
    hold instructions), all from one client address, past its documented share."""
    headers = {
        "Grip-Sig": _grip_sig(GRIP_KEY),
        "X-Forwarded-For": "203.0.113.37",
        "Accept": "text/event-stream",
    }
    path = f"/live/stream/?channel=tournament:{w['event_id']}"
    statuses = [c.send("GET", path, headers=headers).status for _ in range(STREAMS_TRIED)]
    held = statuses.count(200)
    first = statuses.index(429) + 1 if 429 in statuses else None
    return [
        Row(
            "37.7",
            f"{STREAMS_TRIED} live streams from one address",
            f"{held} held, first 429 at {first}",
            held_or_broken(held == STREAM_CAP and first == STREAM_CAP + 1),
        )
    ]


def mail_caps(c: Client, w: dict[str, Any]) -> list[Row]:
    """25 co-director invitations to strangers through the club's page, signed in."""
    browser = Browser(c.host, c.port)
    if not browser.sign_in(w["director_name"], "x-hostile-1"):
        return [Row("37.3", "sign in as the director", "no session", NOT_RUN)]
    statuses = []
    for n in range(25):
        answer = browser.post_form(
            f"/clubs/{w['club']}/people/",
            {"action": "director", "director-email": f"stranger-{w['run']}-{n}@example.org"},
        )
        statuses.append(answer.status)
    sent = statuses.count(302)
    last = browser.last_text
    words = "sent all the mail the server allows" in last
    return [
        Row(
            "37.3",
            "25 co-director invitations to strangers",
            f"{sent} sent, then {statuses[-1]}{' in words' if words else ''}",
            held_or_broken(sent <= 10 and statuses[-1] == 400 and words),
        )
    ]
