"""``POST /api/v1/matches/import/`` and ``GET /api/v1/matches/{id}/transcript.mat``."""

from __future__ import annotations

import re
import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from rest_framework.test import APIClient

from core.models import Job
from games.models import Game, Match, Player
from games.rules.matexport import export_mat
from games.rules.matfile import parse_mat
from games.services import match_records, score_entry
from games.services.actors import actor_for_user
from games.transcript_jobs import import_params, import_transcripts_job
from tests.factories import JobFactory
from tests.games.rules.corpus import BOXCARS, CRAWFORD, DROPS, mat_files

pytestmark = pytest.mark.django_db

URL = "/api/v1/matches/import/"

ILLEGAL = (
    " 1 point match\n\n Game 1\n alice : 0                       bob : 0\n"
    "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    "  2) 65: 24/13 13/1\n"
    "      Wins 1 point\n"
)


def upload(*paths, **named: str | bytes) -> list[SimpleUploadedFile]:
    files = [SimpleUploadedFile(p.name, p.read_bytes()) for p in paths]
    for name, content in named.items():
        data = content.encode() if isinstance(content, str) else content
        files.append(SimpleUploadedFile(name, data))
    return files


def post(client, files, **fields):
    return client.post(URL, {"files": files, **fields}, format="multipart")


def test_anonymous_is_401_and_non_directors_403(client_for, club, make_user) -> None:
    assert post(client_for(None), upload(DROPS), club=club.slug).status_code == 401
    response = post(client_for(make_user()), upload(DROPS), club=club.slug)
    assert response.status_code == 403 and response.json()["code"] == "directors_only"
    assert Match.objects.count() == 0


def test_bad_requests_name_the_field(client_for, club, director) -> None:
    client = client_for(director)
    response = client.post(URL, {"club": club.slug}, format="multipart")
    assert response.status_code == 400 and response.json()["field"] == "files"
    response = post(client, upload(DROPS), club="nowhere")
    assert (response.status_code, response.json()["field"]) == (400, "club")
    response = post(client, upload(DROPS))
    assert (response.status_code, response.json()["field"]) == (400, "club")


def test_upload_over_five_megabytes_is_413(client_for, club, director) -> None:
    big = b" 1 point match\n" + b";" * (5 * 1024 * 1024)
    response = post(client_for(director), upload(**{"big.mat": big}), club=club.slug)
    assert response.status_code == 413
    body = response.json()
    assert (body["code"], body["field"]) == ("upload_too_large", "files")
    assert "5 MB" in body["detail"] and Job.objects.count() == 0


def test_dry_run_reports_and_writes_nothing(client_for, club, director) -> None:
    response = post(client_for(director), upload(DROPS, CRAWFORD), club=club.slug, check="true")
    assert response.status_code == 200
    body = response.json()
    assert body["counts"] == {"checked": 2}
    drops = body["files"][0]
    assert (drops["file"], drops["status"], drops["match"]) == (DROPS.name, "checked", None)
    assert drops["final_score"] == [3, 7] and drops["winner"] == 2 and drops["errors"] == []
    assert Match.objects.count() == 0 and Player.objects.count() == 0


def test_import_creates_matches_then_recognises_them(client_for, club, director) -> None:
    client = client_for(director)
    response = post(client, upload(DROPS, CRAWFORD), club=club.slug)
    assert response.status_code == 201
    body = response.json()
    assert body["counts"] == {"imported": 2}
    match = Match.objects.get(pk=body["files"][0]["match"])
    assert (match.source, match.status, match.score1, match.score2) == (
        "imported",
        "finished",
        3,
        7,
    )
    assert match.transcript == DROPS.read_text() and match.created_by == director
    # the match reads back through the match API like any other
    detail = client.get(f"/api/v1/matches/{match.pk}/").json()
    assert detail["score"] == [3, 7] and len(detail["games"]) == 7
    again = post(client, upload(DROPS, CRAWFORD), club=club.slug)
    assert again.status_code == 200
    assert [f["status"] for f in again.json()["files"]] == ["duplicate", "duplicate"]
    assert [f["match"] for f in again.json()["files"]] == [f["match"] for f in body["files"]]
    assert Match.objects.count() == 2
    # a dry run of a file already imported says which match it is
    checked = post(client, upload(DROPS), club=club.slug, check="true").json()["files"][0]
    assert checked["match"] == match.pk


def test_refused_file_is_400_with_its_errors_and_writes_nothing(client_for, club, director) -> None:
    response = post(client_for(director), upload(**{"bad.mat": ILLEGAL}), club=club.slug)
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["field"]) == ("transcript_refused", "files")
    [result] = body["files"]
    assert result["status"] == "refused"
    assert [(e["game"], e["move"], e["code"]) for e in result["errors"]] == [(1, 3, "illegal_move")]
    assert Match.objects.count() == 0 and Player.objects.count() == 0


def test_lenient_import_keeps_the_score_and_flags_the_errors(client_for, club, director) -> None:
    response = post(
        client_for(director), upload(**{"bad.mat": ILLEGAL}), club=club.slug, lenient="true"
    )
    assert response.status_code == 201
    [result] = response.json()["files"]
    assert result["status"] == "imported" and result["errors"][0]["code"] == "illegal_move"
    match = Match.objects.get(pk=result["match"])
    assert (match.score1, match.score2, match.winner.display_name) == (1, 0, "alice")


def test_money_flag_imports_a_coin_game_as_an_unrated_session(client_for, club, director) -> None:
    coin = mat_files("galaxy_coingame")[0]
    wins = [line for line in coin.read_text().splitlines() if "Wins" in line]
    points = int(re.search(r"Wins (\d+)", wins[-1]).group(1))
    right = wins[-1].index("Wins") > 20
    response = post(client_for(director), upload(coin), club=club.slug, money="true")
    assert response.status_code == 201
    match = Match.objects.get(pk=response.json()["files"][0]["match"])
    assert (match.length, match.rated, match.status) == (0, False, "finished")
    assert (match.score2 if right else match.score1) == points
    assert response.json()["files"][0]["length"] == 0


def test_large_upload_runs_as_a_job_with_progress(
    client_for, club, director, django_capture_on_commit_callbacks, analysis_on_request
) -> None:
    files = mat_files("bgstudio")[:5]
    client = client_for(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, upload(*files), club=club.slug)
    assert response.status_code == 202
    job_id = response.json()["id"]
    assert response["Location"] == f"/api/v1/jobs/{job_id}/"
    assert response.json()["kind"] == "matches.import"
    job = client.get(f"/api/v1/jobs/{job_id}/").json()
    assert job["status"] == "succeeded"
    assert (job["done"], job["total"], job["percent"]) == (5, 5, 100.0)
    assert job["result"]["counts"] == {"imported": 5}
    assert Match.objects.filter(source="imported").count() == 5
    # the job's files travel packed, not as 5 files of text in clear
    assert "Game 1" not in str(Job.objects.get(pk=job_id).params)


def test_import_job_reports_progress_after_each_file(club, director) -> None:
    files = [(p.name, p.read_text()) for p in mat_files(BOXCARS.name)]
    job = JobFactory.create(
        kind="matches.import",
        club=club,
        created_by=director,
        params=import_params(files=files, check=False, lenient=False, money=None),
    )
    calls = []
    result = import_transcripts_job(job, lambda done, total, msg: calls.append((done, total)))
    assert calls == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert result["counts"] == {"imported": 3}
    # run again (a redelivered job): every file is recognised, nothing is imported twice
    again = import_transcripts_job(job, lambda *args: None)
    assert again["counts"] == {"duplicate": 3} and Match.objects.count() == 3


def test_transcript_download_round_trips(client_for, club, director) -> None:
    client = client_for(director)
    match_id = post(client, upload(CRAWFORD), club=club.slug).json()["files"][0]["match"]
    response = client_for(None).get(f"/api/v1/matches/{match_id}/transcript.mat")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert f'filename="match-{match_id}.mat"' in response["Content-Disposition"]
    text = response.content.decode()
    assert text == CRAWFORD.read_text()
    first = parse_mat(text)
    second = parse_mat(export_mat(first))

    def facts(match):
        return [
            (
                g.score_before,
                g.declared_winner,
                g.declared_points,
                [(a.kind, a.player, a.dice, a.move, a.value) for a in g.actions],
            )
            for g in match.games
        ]

    assert facts(second) == facts(first) and len(first.games) == 6


def test_entered_match_downloads_a_score_sheet_or_404(
    client_for, club, director, alice, bob, make_match
) -> None:
    match = make_match(5)
    client = client_for(None)
    assert client.get(f"/api/v1/matches/{match.pk}/transcript.mat").status_code == 404
    actor = actor_for_user(director)
    for winner, cube, owner in ((alice, 2, "player2"), (bob, 1, "centre"), (alice, 2, "player1")):
        score_entry.record_game(
            actor=actor,
            match_id=match.pk,
            game=match_records.GameInput(winner_id=winner.pk, cube=cube, cube_owner=owner),
        )
    response = client.get(f"/api/v1/matches/{match.pk}/transcript.mat")
    assert response.status_code == 200
    sheet = parse_mat(response.content.decode())
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert sheet.length == 5 and len(sheet.games) == 3
    assert [g.score_before for g in sheet.games] == [
        (g.score1_before, g.score2_before) for g in games
    ]
    assert [(g.declared_winner, g.declared_points) for g in sheet.games] == [
        (0, 2),
        (1, 1),
        (0, 2),
    ]
    # the cube history that leaves a 2 with player 2 (alice doubled, bob took)
    assert [(a.kind, a.player) for a in sheet.games[0].actions] == [("double", 0), ("take", 1)]
    assert Match.objects.get(pk=match.pk).score1 == 4
    assert client.get("/api/v1/matches/999999/transcript.mat").status_code == 404


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_simultaneous_uploads_of_one_file_make_one_match(attempt, club, director) -> None:
    """The club row lock serialises imports: the second sees the first's hash."""
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def send() -> None:
        try:
            client = APIClient()
            client.force_authenticate(director)
            barrier.wait()
            codes.append(post(client, upload(DROPS), club=club.slug).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [200, 201]
    assert Match.objects.filter(club=club).count() == 1
