"""An integrator's evening, through a client generated from the live schema (issue #30).

The test fetches ``/api/schema/`` from a running server, generates a Python client with
``openapi-python-client`` (locally: no network), imports every module it made, and
drives a director's and two phones' evening through the generated functions and models
only, as an integrator would: a club, players (one a walk-in), a match entered game by
game from a player's phone with ``Idempotency-Key`` and ``If-Match`` (a retry replayed,
a stale version refused as a parsed ``Error``), confirmed from the other phone, then an
8-player event entered, seeded, started, redrawn (a job), its first round played, and
its bracket, standings and odds read (``If-None-Match`` answering 304). The long jobs
(the club's list recomputed, the redraw) come back as their kind's model, their
``params`` and ``result`` typed (``core.api_jobs``).

Every answer is also held to the schema the client came from: its status is declared
for the operation, the headers it carries (``ETag``, ``Location``,
``Idempotent-Replayed``, ``Retry-After``) are declared for that status, and its body
validates against the declared schema with every declared object closed (no key the
schema does not name: ``tests.openapi_answers``).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import subprocess
import sys
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from openapi_spec_validator import validate as validate_spec

from tests.openapi_answers import check_body, closed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PACKAGE = "boxcars_generated_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")
TRACKED_HEADERS = ("ETag", "Location", "Idempotent-Replayed", "Retry-After")
PASSWORD = "pw-for-tests-1"
PATIENCE = httpx.Timeout(60.0)  # two shared cores: a request may wait its turn


class Api:
    """Calls a generated operation and holds its answer to the schema it came from."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.closed = closed(spec)
        self.operations = {
            re.sub(r"\W+", "_", op["operationId"]).lower(): op
            for item in spec["paths"].values()
            for op in item.values()
        }
        self.called: list[str] = []

    def __call__(self, module: ModuleType, **kwargs: Any) -> Any:
        name = module.__name__.rsplit(".", 1)[-1]
        response = module.sync_detailed(**kwargs)
        operation = self.operations[name]
        status = str(response.status_code)
        declared = operation["responses"].get(status)
        assert declared is not None, f"{name} answered {status}, not declared"
        sent = {h for h in TRACKED_HEADERS if h in response.headers}
        assert sent <= set(declared.get("headers", {})), (name, status, sent)
        if response.content:
            check_body(self.closed, declared, json.loads(response.content))
        self.called.append(name)
        return response


@pytest.fixture
def generated(live_server, tmp_path):
    """The client generated from the live schema, every module imported."""
    answer = httpx.get(
        f"{live_server.url}/api/schema/", params={"format": "json"}, timeout=PATIENCE
    )
    assert answer.status_code == 200
    spec = answer.json()
    validate_spec(spec)  # openapi-spec-validator: the document is valid OpenAPI 3.0
    (tmp_path / "schema.json").write_text(json.dumps(spec))
    (tmp_path / "config.yaml").write_text("post_hooks: []\n")
    subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(tmp_path / "schema.json"),
            "--meta",
            "none",
            "--output-path",
            str(tmp_path / PACKAGE),
            "--config",
            str(tmp_path / "config.yaml"),
            "--fail-on-warning",
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    sys.path.insert(0, str(tmp_path))
    try:
        package = importlib.import_module(PACKAGE)
        modules = {
            info.name: importlib.import_module(info.name)
            for info in pkgutil.walk_packages(package.__path__, f"{PACKAGE}.")
        }
        yield spec, package, modules
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def test_a_generated_client_runs_the_evening(generated, live_server, director, settings):
    spec, package, modules = generated
    operations = [m for m in modules if ".api." in m and m.count(".") == 3]
    assert len(operations) == sum(len(item) for item in spec["paths"].values())

    def op(name: str) -> ModuleType:
        return next(m for full, m in modules.items() if full.endswith(f".{name}"))

    m = importlib.import_module(f"{PACKAGE}.models")
    Error = m.Error
    api = Api(spec)
    url = live_server.url

    # -- a token with HTTP Basic, then the token with its "Token" prefix -----------------
    basic = package.Client(
        base_url=url, timeout=PATIENCE, httpx_args={"auth": ("director", PASSWORD)}
    )
    token = api(op("auth_token_create"), client=basic).parsed.token
    bearer = package.AuthenticatedClient(base_url=url, token=token)  # its default: Bearer
    refused = api(op("clubs_create"), client=bearer, body=m.ClubInputRequest(name="Nope"))
    assert refused.status_code == 401 and isinstance(refused.parsed, Error)
    desk = package.AuthenticatedClient(base_url=url, token=token, prefix="Token", timeout=PATIENCE)

    # -- a club and its players --------------------------------------------------------
    club = api(
        op("clubs_create"),
        client=desk,
        body=m.ClubInputRequest(name="Generated Club"),
        idempotency_key=str(uuid.uuid4()),
    ).parsed
    assert isinstance(club, m.Club) and club.slug == "generated-club"
    names = ["Ann Lee", "Bo Dahl", "Cy Roth", "Di Mora", "Ed Vance", "Flo Kerr", "Gus Pym"]
    players = [
        api(
            op("players_create"),
            client=desk,
            body=m.PlayerInputRequest(display_name=name, clubs=[club.slug]),
            idempotency_key=str(uuid.uuid4()),
        ).parsed
        for name in names
    ]
    walk_in = api(
        op("clubs_players_create"),
        client=desk,
        slug=club.slug,
        body=m.WalkInInputRequest(display_name="Hal Ueda", rating=1650),
        idempotency_key=str(uuid.uuid4()),
    )
    assert walk_in.status_code == 201
    players.append(walk_in.parsed)
    # a write's answer: the player as their editors see them, and what became of the
    # link to their address (none given here)
    assert all(isinstance(p, m.PlayerSaved) for p in players)
    assert {p.address_link.state for p in players} == {m.AddressLinkStateEnum.NONE}
    ann, bo = players[0], players[1]

    # -- a match, entered game by game from Ann's phone --------------------------------
    created = api(
        op("matches_create"),
        client=desk,
        body=m.MatchCreateRequest(club=club.slug, player1=ann.id, player2=bo.id, length=3),
        idempotency_key=str(uuid.uuid4()),
    )
    match, etag = created.parsed, created.headers["ETag"]
    links = api(op("matches_score_links_create"), client=desk, id=str(match.id)).parsed.links
    link = {row.player: row.token for row in links}

    def phone(player: Any) -> Any:
        return package.AuthenticatedClient(
            base_url=url,
            token=link[player.id],
            auth_header_name="X-Score-Link",
            prefix="",
            timeout=PATIENCE,
        )

    def enter(number: int, key: str, version: str, **game: Any) -> Any:
        return api(
            op("matches_games_create"),
            client=phone(ann),
            id=str(match.id),
            body=m.GameInputRequest(number=number, winner=ann.id, **game),
            idempotency_key=key,
            if_match=version,
        )

    first = enter(1, "ann-game-1", etag)
    assert first.status_code == 201 and first.parsed.score == [1, 0]
    replay = enter(1, "ann-game-1", etag)  # the phone's retry of an answer it lost
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replay.parsed.score == [1, 0] and replay.headers["ETag"] == first.headers["ETag"]
    stale = enter(2, "ann-game-2-stale", etag)
    assert stale.status_code == 412 and isinstance(stale.parsed, Error)
    assert stale.parsed.code == "stale_version" and stale.parsed.field == "If-Match"
    second = enter(2, "ann-game-2", first.headers["ETag"], level=m.LevelEnum.GAMMON)
    assert second.parsed.score == [3, 0] and second.parsed.status == m.MatchStatusEnum.FINISHED
    assert second.parsed.awaiting == bo.id

    # -- Bo confirms from his phone; the match reads as won --------------------------------
    mine = api(
        op("matches_confirm_create"),
        client=phone(ann),
        id=str(match.id),
        if_match=second.headers["ETag"],
    )
    assert mine.status_code == 403 and mine.parsed.code == "confirm_own_entry"
    confirmed = api(
        op("matches_confirm_create"),
        client=phone(bo),
        id=str(match.id),
        if_match=second.headers["ETag"],
        idempotency_key=str(uuid.uuid4()),
    )
    assert confirmed.parsed.confirmation == m.ConfirmationEnum.CONFIRMED
    read = api(op("matches_retrieve"), client=desk, id=str(match.id)).parsed
    assert read.winning_chances == [1, 0] and read.winner == ann.id

    # -- a long job: the club's list recomputed, read back as its kind's model -------------
    asked = api(
        op("clubs_ratings_recompute_create"),
        client=desk,
        slug=club.slug,
        idempotency_key=str(uuid.uuid4()),
    )
    assert asked.status_code == 202 and isinstance(asked.parsed, m.RecomputeListJob)
    job = api(op("jobs_retrieve"), client=desk, id=asked.parsed.id).parsed
    assert isinstance(job, m.RecomputeListJob) and job.status == m.JobStatusEnum.SUCCEEDED
    assert isinstance(job.params, m.RecomputeListParams)
    assert isinstance(job.result, m.RecomputeReport) and job.result.list_ == job.params.list_
    assert job.result.from_scratch and job.result.matches == 1 and job.result.players == 2

    # -- an 8-player event: entries, the seeding, the start --------------------------------
    event = api(
        op("tournaments_create"),
        client=desk,
        body=m.CreateRequest(
            name="Generated Cup",
            format_=m.FormatEnum.SINGLE_ELIMINATION,
            club=club.slug,
            seeding=m.SeedingMethodEnum.MANUAL,
        ),
        idempotency_key=str(uuid.uuid4()),
    ).parsed
    entries = [
        api(
            op("tournaments_entries_create"),
            client=desk,
            slug=event.slug,
            body=m.EntryInputRequest(player=p.id),
            idempotency_key=str(uuid.uuid4()),
        ).parsed
        for p in players
    ]
    listed = api(op("tournaments_entries_list"), client=desk, slug=event.slug).parsed
    assert sorted(e.id for e in listed) == sorted(e.id for e in entries)
    assert {e.player.display_name for e in listed} == {*names, "Hal Ueda"}
    seeded = api(
        op("tournaments_seed_create"),
        client=desk,
        slug=event.slug,
        body=m.SeedInputRequest(
            method=m.SeedingMethodEnum.MANUAL, order=[e.id for e in reversed(entries)]
        ),
        idempotency_key=str(uuid.uuid4()),
    ).parsed
    assert isinstance(seeded, list) and [e.seed for e in seeded] == list(range(1, 9))
    assert seeded[0].id == entries[-1].id
    current = api(op("tournaments_retrieve"), client=desk, slug=event.slug)
    started = api(
        op("tournaments_start_create"),
        client=desk,
        slug=event.slug,
        if_match=current.headers["ETag"],
        idempotency_key=str(uuid.uuid4()),
    )
    assert started.parsed.status == "running"
    redraw = api(
        op("tournaments_redraw_create"),
        client=desk,
        slug=event.slug,
        body=m.RedrawRequest(),
        idempotency_key=str(uuid.uuid4()),
    )
    assert redraw.status_code == 202 and isinstance(redraw.parsed, m.RedrawJob)
    redrawn = api(op("jobs_retrieve"), client=desk, id=redraw.parsed.id).parsed
    assert isinstance(redrawn, m.RedrawJob) and redrawn.params.tournament == event.id
    assert isinstance(redrawn.result, m.RedrawResult)
    assert (redrawn.result.entries, redrawn.result.voided_matches) == (8, 4)

    # -- the bracket: typed, versioned (304), its first round played ------------------------
    bracket = api(op("tournaments_bracket_retrieve"), client=desk, slug=event.slug)
    assert isinstance(bracket.parsed, m.Bracket)
    unchanged = api(
        op("tournaments_bracket_retrieve"),
        client=desk,
        slug=event.slug,
        if_none_match=bracket.headers["ETag"],
    )
    assert unchanged.status_code == 304
    first_round = bracket.parsed.stages[0].rounds[0]
    assert len(first_round.pairings) == 4
    for pairing in first_round.pairings:
        assert isinstance(pairing.player1, m.Entrant) and pairing.match is not None
        played = api(op("matches_retrieve"), client=desk, id=str(pairing.match))
        first_is_player1 = played.parsed.player1.id == pairing.player1.id
        score = [pairing.length, 0] if first_is_player1 else [0, pairing.length]
        won = api(
            op("matches_result_create"),
            client=desk,
            id=str(pairing.match),
            body=m.FinalScoreRequest(score=score),
            if_match=played.headers["ETag"],
            idempotency_key=str(uuid.uuid4()),
        )
        assert won.parsed.status == m.MatchStatusEnum.FINISHED
    after = api(
        op("tournaments_bracket_retrieve"),
        client=desk,
        slug=event.slug,
        if_none_match=bracket.headers["ETag"],
    )
    assert after.status_code == 200 and after.headers["ETag"] != bracket.headers["ETag"]
    winners = {p.winner for p in after.parsed.stages[0].rounds[0].pairings}
    assert winners == {p.player1.entry for p in first_round.pairings}

    # -- standings (the places decided so far) and the odds --------------------------------
    standings = api(op("tournaments_standings_retrieve"), client=desk, slug=event.slug).parsed
    assert isinstance(standings, m.Standings) and len(standings.standings) == 8
    assert sum(len(place.players) for place in standings.places) == 4
    odds = api(op("tournaments_odds_retrieve"), client=desk, slug=event.slug).parsed
    assert isinstance(odds, m.Odds) and odds.available and len(odds.entries) == 8
    assert sum(row.win for row in odds.entries) == pytest.approx(1.0, abs=1e-5)
    losers = {p.player2.entry for p in first_round.pairings}
    assert all(row.win == 0 for row in odds.entries if row.player.entry in losers)
