"""``hostile``: replay issue #25's hostile-client attempts against a real server.

gunicorn (2 workers) on PostgreSQL, a small club world prepared through the services
(a director, two players with accounts, a match between them, a clocked match, an
event with entries, a fresh event for its money). Each attempt of issue #25 is sent
over HTTP as a stranger would send it, and reported with what was tried, the answer
(status and error code) and whether the defence **held** or is **broken**. An attempt
whose endpoint answers in a shape this probe does not expect is reported as
``not run`` with the reason: this is a probe, not a test, and never stops at one
surprise. ``BENCH_PORT`` fixes the server's port (default: a free one).

The attempts, by the issue's numbers: 1 a player confirms their own result (own and
opponent's private links); 2 a forged flag fall; 3 web-push endpoints at private
addresses, and another user's endpoint; 4 CR/LF in names; 5 a long ``.mat`` player
name, a club listed twice; 6 a formula as a player name in the ledger CSV; 7 anonymous
writes with a bad body; 8 ``Idempotency-Key`` on creates, ``email`` on players,
Arabic-Indic digits in a payment, non-zones as time zones, the fresh event's money ETag.

Issue #37's attempts (strangers among clubs: forged links from one venue, hostile bytes,
club limits, variant plays, live streams, mail caps) are in :mod:`bench.hostile_strangers`;
the HTTP client and browser they all use in :mod:`bench.hostile_http`.
"""

from __future__ import annotations

import csv
import io
import os
import time
import uuid
from typing import Any

from .hostile_http import BROKEN, HELD, NOT_RUN, Attempt, Client, Row, held_or_broken, multipart
from .hostile_strangers import (
    GRIP_KEY,
    STREAM_CAP,
    club_limits,
    forged_links,
    hostile_bytes,
    mail_caps,
    stream_cap,
    variant_plays,
)
from .server import gunicorn, setup_django

# --- the world -----------------------------------------------------------------------------


def _prepare() -> dict[str, Any]:
    """A club world under a fresh suffix (reruns on one database stay apart)."""
    from django.contrib.auth import get_user_model
    from django.db.models import Value
    from django.db.models.functions import Concat
    from knox.models import AuthToken

    from games import score_links
    from games.models import Club
    from games.services import clubs as club_services
    from games.services import match_create
    from games.services.actors import actor_for_user
    from tournaments.services import entries as entry_services
    from tournaments.services import events as event_services

    run = uuid.uuid4().hex[:8]
    User = get_user_model()
    # an earlier run's club named "New" would make this run's a look-alike (37.7)
    Club.objects.filter(name="New").update(name=Concat(Value("New, an earlier run "), "slug"))
    director = User.objects.create_user(f"hostile-dir-{run}", password="x-hostile-1")
    alice_user = User.objects.create_user(f"hostile-alice-{run}", password="x-hostile-1")
    bob_user = User.objects.create_user(f"hostile-bob-{run}", password="x-hostile-1")
    club = club_services.create_club(
        created_by=director, name=f"Hostile {run}", slug=f"hostile-{run}"
    )
    alice = club_services.create_player(display_name=f"Alice {run}", clubs=[club], user=alice_user)
    bob = club_services.create_player(display_name=f"Bob {run}", clubs=[club], user=bob_user)
    others = [
        club_services.create_player(display_name=f"P{i} {run}", clubs=[club]) for i in range(4)
    ]
    formula = club_services.create_player(display_name='=HYPERLINK("http://evil/")', clubs=[club])
    actor = actor_for_user(director)
    match = match_create.create_match(actor=actor, club=club, player1=alice, player2=bob, length=3)
    clocked = match_create.create_match(
        actor=actor, club=club, player1=alice, player2=bob, length=3
    )
    event = event_services.create_tournament(
        actor=actor, club=club, name=f"Open {run}", seeding="manual", format="single_elimination"
    )
    for player in (alice, bob, *others[:2]):
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    fresh = event_services.create_tournament(
        actor=actor, club=club, name=f"Fresh {run}", seeding="manual", format="single_elimination"
    )
    for player in (formula, *others):
        entry_services.register_entry(actor=actor, tournament_id=fresh.pk, player_id=player.pk)
    venue = match_create.create_match(
        actor=actor, club=club, player1=others[2], player2=others[3], length=3
    )
    maker = User.objects.create_user(f"hostile-maker-{run}", password="x-hostile-1")
    namer = User.objects.create_user(f"hostile-namer-{run}", password="x-hostile-1")
    tokens = {
        who: AuthToken.objects.create(u)[1]
        for who, u in (
            ("director", director),
            ("alice", alice_user),
            ("bob", bob_user),
            ("maker", maker),
            ("namer", namer),
        )
    }
    return {
        "run": run,
        "tokens": tokens,
        "club": club.slug,
        "alice": alice.pk,
        "bob": bob.pk,
        "others": [p.pk for p in others],
        "formula": formula.pk,
        "match": match.pk,
        "clocked": clocked.pk,
        "event": event.slug,
        "fresh": fresh.slug,
        "alice_user": alice_user.pk,
        "bob_user": bob_user.pk,
        "venue": venue.pk,
        "venue_winner": others[2].pk,
        "venue_link": score_links.make_token(venue, others[2]),
        "director_name": director.username,
        "club_name": club.name,
        "event_id": event.pk,
    }


# --- the attempts --------------------------------------------------------------------------


def own_result(c: Client, w: dict[str, Any]) -> list[Row]:
    links = c.send("POST", f"/api/v1/matches/{w['match']}/score-links/", token=w["tokens"]["alice"])
    given = links.body.get("links", []) if isinstance(links.body, dict) else []
    opponent = [link["token"] for link in given if link.get("player") == w["bob"]]
    rows = [
        Row(
            "1",
            "a participant (Alice) asks for the match's score links",
            f"{links}: {len(given)} link(s), opponent's {'included' if opponent else 'absent'}",
            held_or_broken(links.status < 500 and not opponent),
        )
    ]
    result = c.send(
        "POST",
        f"/api/v1/matches/{w['match']}/result/",
        {"score": [3, 0]},
        token=w["tokens"]["alice"],
    )
    confirm = c.send("POST", f"/api/v1/matches/{w['match']}/confirm/", token=w["tokens"]["alice"])
    rows.append(
        Row(
            "1",
            f"Alice posts 3-0 ({result.status}) then confirms it with her own account",
            str(confirm),
            held_or_broken(400 <= confirm.status < 500),
        )
    )
    if opponent:
        confirm = c.send(
            "POST",
            f"/api/v1/matches/{w['match']}/confirm/",
            headers={"X-Score-Link": opponent[0]},
        )
        rows.append(
            Row(
                "1",
                f"Alice posts 3-0 ({result.status}) then confirms with Bob's link (anonymously)",
                str(confirm),
                held_or_broken(400 <= confirm.status < 500),
            )
        )
    return rows


def forged_flag(c: Client, w: dict[str, Any]) -> list[Row]:
    base = f"/api/v1/matches/{w['clocked']}/clock/"
    alice = w["tokens"]["alice"]
    started = c.send("POST", base, {"preset": "usbgf"}, token=alice)
    if started.status != 201:
        return [Row("2", "start a USBGF clock", str(started), NOT_RUN)]
    turn = c.send("POST", base + "turns/", {"seq": 1, "side": 1, "used_ms": 0}, token=alice)
    time.sleep(0.07)
    flag = c.send("POST", base + "flag/", {"seq": 2, "side": 2, "used_ms": 612000}, token=alice)
    clock = flag.body.get("clock", {}) if isinstance(flag.body, dict) else {}
    return [
        Row(
            "2",
            f"Alice reports turn 1 ({turn.status}), 0.07 s later Bob's flag (612 s used)",
            f"{flag}{' flagged=' + str(clock.get('flagged')) if clock else ''}",
            held_or_broken(400 <= flag.status < 500),
        )
    ]


SSRF = [
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1:6379/",
    "http://[::1]:5432/",
    "ftp://127.0.0.1/",
]
KEYS = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}


def push_endpoints(c: Client, w: dict[str, Any]) -> list[Row]:
    from tournaments.models import PushSubscription

    rows = []
    for endpoint in SSRF:
        answer = c.send(
            "POST",
            "/api/v1/push-subscriptions/",
            {"endpoint": endpoint, "keys": KEYS},
            token=w["tokens"]["alice"],
        )
        rows.append(
            Row(
                "3",
                f"subscribe push to {endpoint}",
                str(answer),
                held_or_broken(answer.status == 400),
            )
        )
    endpoint = f"https://fcm.googleapis.com/fcm/send/hostile-{w['run']}"
    mine = c.send(
        "POST",
        "/api/v1/push-subscriptions/",
        {"endpoint": endpoint, "keys": KEYS},
        token=w["tokens"]["alice"],
    )
    theirs = c.send(
        "POST",
        "/api/v1/push-subscriptions/",
        {"endpoint": endpoint, "keys": KEYS},
        token=w["tokens"]["bob"],
    )
    owner = PushSubscription.objects.filter(endpoint=endpoint).values_list("user_id", flat=True)
    owners = list(owner)
    if mine.status == 400 and mine.code == "push_endpoint_not_allowed":
        # A real push host must resolve to a public address; a machine with no DNS (this
        # workplace's) refuses it, so ownership cannot be tried here: the API test with a
        # stubbed resolver proves it (tests/tournaments/api/test_push_endpoints_api.py).
        verdict = NOT_RUN
    else:
        verdict = held_or_broken(owners == [w["alice_user"]])
    rows.append(
        Row(
            "3",
            f"Alice subscribes an FCM endpoint ({mine.status}); Bob posts the same endpoint",
            f"{theirs}; owner now {_owner(owners, w)}",
            verdict,
        )
    )
    deleted = c.send(
        "DELETE",
        "/api/v1/push-subscriptions/",
        {"endpoint": endpoint},
        token=w["tokens"]["alice"],
    )
    left = PushSubscription.objects.filter(endpoint=endpoint).count()
    rows.append(
        Row(
            "3",
            "Alice deletes her subscription",
            f"{deleted}; {left} row(s) left",
            held_or_broken(deleted.status < 300 and left == 0),
        )
    )
    return rows


def _owner(owners: list[int], w: dict[str, Any]) -> str:
    names = {w["alice_user"]: "Alice", w["bob_user"]: "Bob"}
    return ", ".join(names.get(o, str(o)) for o in owners) or "nobody"


def crlf_names(c: Client, w: dict[str, Any]) -> list[Row]:
    token = w["tokens"]["director"]
    name = "Evil\r\nBcc: x@example.net"
    tries = [
        (
            "a tournament",
            "/api/v1/tournaments/",
            {"club": w["club"], "name": name, "format": "single_elimination"},
        ),
        ("a club", "/api/v1/clubs/", {"name": name}),
        ("a player", "/api/v1/players/", {"display_name": name, "clubs": [w["club"]]}),
    ]
    rows = []
    for what, path, body in tries:
        answer = c.send("POST", path, body, token=token)
        rows.append(
            Row(
                "4",
                f"create {what} named 'Evil\\r\\nBcc: ...'",
                str(answer),
                held_or_broken(answer.status == 400),
            )
        )
    return rows


MAT = (
    " 1 point match\n\n Game 1\n {a} : 0                      {b} : 0\n"
    "  1) 31: 8/5 6/5                 62: 24/18 13/11\n"
    "  2)  Doubles => 2                Drops\n      Wins 1 point\n"
)


def bounds(c: Client, w: dict[str, Any]) -> list[Row]:
    token = w["tokens"]["director"]
    text = MAT.format(a="x" * 81, b=f"bob{w['run']}").encode()
    body, content_type = multipart({"club": w["club"]}, [("long.mat", text)])
    answer = c.send(
        "POST", "/api/v1/matches/import/", raw=body, content_type=content_type, token=token
    )
    errors = []
    if isinstance(answer.body, dict):
        for outcome in answer.body.get("files", []):
            errors += outcome.get("errors", [])
    line = f" (line {errors[0].get('line')}: {errors[0].get('code')})" if errors else ""
    rows = [
        Row(
            "5",
            "import a .mat whose player name is 81 characters",
            f"{answer}{line}",
            held_or_broken(answer.status == 400),
        )
    ]
    twice = c.send(
        "POST",
        "/api/v1/players/",
        {"display_name": f"Twice {w['run']}", "clubs": [w["club"], w["club"]]},
        token=token,
    )
    rows.append(
        Row(
            "5",
            'POST /players/ with "clubs": [c, c]',
            str(twice),
            held_or_broken(twice.status == 400),
        )
    )
    return rows


def formula_csv(c: Client, w: dict[str, Any]) -> list[Row]:
    token = w["tokens"]["director"]
    paid = c.send(
        "POST",
        f"/api/v1/tournaments/{w['fresh']}/money/payments/",
        {"player": w["formula"], "amount": "10.00", "method": "cash"},
        token=token,
    )
    sheet = c.send("GET", f"/api/v1/tournaments/{w['fresh']}/money/ledger.csv", token=token)
    if sheet.status != 200:
        return [Row("6", "read the ledger CSV", str(sheet), NOT_RUN)]
    cells = [cell for row in csv.reader(io.StringIO(sheet.text)) for cell in row]
    live = [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    live = [cell for cell in live if not cell.lstrip("-").replace(".", "").isdigit()]
    return [
        Row(
            "6",
            f"a player named '=HYPERLINK(...)' pays ({paid.status}); read ledger.csv",
            f"{sheet.status}: {len(live)} live formula cell(s)",
            held_or_broken(not live),
        )
    ]


def anonymous(c: Client, w: dict[str, Any]) -> list[Row]:
    bad = ["not", "an", "object"]
    tries = [
        ("POST", f"/api/v1/tournaments/{w['event']}/matches/{w['match']}/late-penalty/"),
        ("POST", "/api/v1/push-subscriptions/"),
        ("DELETE", "/api/v1/push-subscriptions/"),
        ("POST", f"/api/v1/tournaments/{w['event']}/rounds/1/call/"),
        ("POST", "/api/v1/clubs/"),
    ]
    rows = []
    for method, path in tries:
        answer = c.send(method, path, bad)
        rows.append(
            Row(
                "7",
                f"anonymous {method} {path} with a bad body",
                str(answer),
                held_or_broken(answer.status == 401),
            )
        )
    return rows


def idempotent_creates(c: Client, w: dict[str, Any]) -> list[Row]:
    token = w["tokens"]["director"]
    run = w["run"]
    tries = [
        ("a club", "/api/v1/clubs/", {"name": f"Twin {run}"}),
        ("a player", "/api/v1/players/", {"display_name": f"Twin {run}", "clubs": [w["club"]]}),
        (
            "a tournament",
            "/api/v1/tournaments/",
            {"club": w["club"], "name": f"Twin {run}", "format": "single_elimination"},
        ),
        (
            "a match",
            "/api/v1/matches/",
            {"club": w["club"], "player1": w["others"][0], "player2": w["others"][1], "length": 5},
        ),
        ("an entry", f"/api/v1/tournaments/{w['fresh']}/entries/", {"player": w["alice"]}),
    ]
    rows = []
    for what, path, body in tries:
        key = f"hostile-{run}-{uuid.uuid4().hex[:6]}"
        first = c.send("POST", path, body, token=token, headers={"Idempotency-Key": key})
        again = c.send("POST", path, body, token=token, headers={"Idempotency-Key": key})
        ids = [a.body.get("id") if isinstance(a.body, dict) else None for a in (first, again)]
        replayed = again.headers.get("Idempotent-Replayed") == "true"
        rows.append(
            Row(
                "8",
                f"create {what} twice with one Idempotency-Key",
                f"{first.status}, {again.status}; ids {ids[0]}, {ids[1]}"
                f"{'; replayed' if replayed else ''}",
                held_or_broken(first.status < 300 and ids[0] == ids[1] and replayed),
            )
        )
    return rows


def smaller(c: Client, w: dict[str, Any]) -> list[Row]:
    token = w["tokens"]["director"]
    rows = []
    email = f"hostile-{w['run']}@example.org"
    player = c.send(
        "POST",
        "/api/v1/players/",
        {"display_name": f"Mail {w['run']}", "clubs": [w["club"]], "email": email},
        token=token,
    )
    kept = isinstance(player.body, dict) and player.body.get("email") == email
    rows.append(
        Row(
            "8",
            "POST /players/ with an email",
            f"{player}; email {'kept' if kept else 'dropped'}",
            held_or_broken(kept),
        )
    )
    for amount in ("١٢", "１２"):
        paid = c.send(
            "POST",
            f"/api/v1/tournaments/{w['event']}/money/payments/",
            {"player": w["alice"], "amount": amount, "method": "cash"},
            token=token,
        )
        rows.append(
            Row("8", f"a payment of {amount!r}", str(paid), held_or_broken(paid.status == 400))
        )
    for zone in ("localtime", "Factory", "posixrules"):
        club = c.send(
            "POST", "/api/v1/clubs/", {"name": f"Zone {zone}", "time_zone": zone}, token=token
        )
        rows.append(
            Row("8", f"a club in time zone {zone!r}", str(club), held_or_broken(club.status == 400))
        )
    read = c.send("GET", f"/api/v1/tournaments/{w['fresh']}/money/", token=token)
    etag = read.headers.get("ETag", "")
    write = c.send(
        "PATCH",
        f"/api/v1/tournaments/{w['fresh']}/money/",
        {"registration_fee": "5"},
        token=token,
        headers={"If-Match": etag},
    )
    rows.append(
        Row(
            "8",
            f"on a fresh event GET money (ETag {etag}) then PATCH with If-Match {etag}",
            str(write),
            held_or_broken(write.status == 200),
        )
    )
    return rows


ATTEMPTS: list[tuple[str, Attempt]] = [
    ("1", own_result),
    ("2", forged_flag),
    ("3", push_endpoints),
    ("4", crlf_names),
    ("5", bounds),
    ("7", anonymous),
    ("8", idempotent_creates),
    ("8", smaller),  # reads the fresh event's money before anything wrote it
    ("6", formula_csv),  # then a payment on that event, and its ledger
    ("37.4", forged_links),
    ("37.6", hostile_bytes),
    ("37.7", club_limits),
    ("37.7", variant_plays),
    ("37.7", stream_cap),
    ("37.3", mail_caps),
]


def probe(host: str, port: int, world: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    client = Client(host, port)
    for item, attempt in ATTEMPTS:
        try:
            rows += attempt(client, world)
        except Exception as exc:  # a probe reports every surprise and goes on
            rows.append(Row(item, attempt.__name__, f"{type(exc).__name__}: {exc}"[:160], NOT_RUN))
    return rows


def run(*, quick: bool = False, context: dict | None = None) -> dict[str, Any]:
    setup_django()
    world = _prepare()
    port = int(os.environ.get("BENCH_PORT") or 0)
    # Redis as in production: the caps and rate limits are shared by both workers
    env = {
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2"),
        "LIVE_REDIS_CHANNEL": "boxcars:live:hostile",
        "LIVE_GRIP_KEY": GRIP_KEY,
        "LIVE_STREAMS_PER_ADDRESS": str(STREAM_CAP),
        "CLUBS_PER_USER": "3",
    }
    with gunicorn(workers=2, port=port or None, **env) as (host, bound):  # type: ignore[arg-type]
        rows = probe(host, bound, world)
    width = max(len(r.tried) for r in rows)
    for r in rows:
        print(f"  [{r.item}] {r.tried:<{width}}  {r.answer:<44}  {r.verdict}", flush=True)
    broken = sorted({r.item for r in rows if r.verdict == BROKEN})
    return {
        "attempts": len(rows),
        "held": sum(r.verdict == HELD for r in rows),
        "broken": sum(r.verdict == BROKEN for r in rows),
        "not_run": sum(r.verdict == NOT_RUN for r in rows),
        "broken_items": ", ".join(broken) or "none",
        "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
