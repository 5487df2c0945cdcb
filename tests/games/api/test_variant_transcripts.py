"""Transcripts of the variants GNU Backgammon does not play, through the import door
directors use (``POST /api/v1/matches/import/``; ``manage.py import_mat`` at the end) and
the transcript download
(docs/transcripts.md, "Variants"): each hand-written fixture of
``tests/games/rules/variants/data/`` imports as its variant with every play checked by
the engine, downloads as written, and our export of it imports again to the same
moves; an illegal play is refused with its game, move number and reason; a standard
transcript still imports."""

from __future__ import annotations

import json
import random
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.models import Match
from games.rules.matexport import export_mat
from games.rules.matfile import parse_mat
from games.services import clubs as club_services

from ..rules.variants.transcript_games import random_match
from .test_variant_matches import import_mat

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parents[1] / "rules" / "variants" / "data"
FIXTURES = [
    ("boxcars-acey-deucey.mat", "acey-deucey", (0, 1)),
    ("boxcars-acey-deucey-european.mat", "acey-deucey", (1, 0)),
    ("boxcars-russian.mat", "russian", (1, 0)),
    ("boxcars-turkish.mat", "turkish", (0, 1)),
    ("boxcars-plakoto.mat", "plakoto", (1, 0)),
    ("boxcars-fevga.mat", "fevga", (1, 0)),
    ("boxcars-tavla.mat", "tavla", (0, 1)),
    ("boxcars-tavli.mat", "tavli", (3, 0)),
]


def moves_of(match: Match) -> list[list[dict]]:
    return [game.moves for game in match.games.order_by("number")]


def imported(client, club, name: str, text: str) -> Match:
    response = import_mat(client, club, name, text)
    assert response.status_code == 201, response.content
    [result] = response.json()["files"]
    assert result["status"] == "imported" and result["errors"] == []
    return Match.objects.get(pk=result["match"])


@pytest.mark.parametrize(("name", "key", "score"), FIXTURES)
def test_a_variant_transcript_imports_exports_and_imports_again(
    client_for, director, club, name, key, score
):
    client = client_for(director)
    text = (DATA / name).read_text(encoding="utf-8")
    match = imported(client, club, name, text)
    assert match.variant == key and (match.score1, match.score2) == score
    rolls = sum(len(g.actions) for g in parse_mat(text).games)
    assert sum(len(m) - 1 for m in moves_of(match)) == rolls  # every cell kept, plus "wins"
    downloaded = client.get(f"/api/v1/matches/{match.pk}/transcript.mat").content.decode()
    assert downloaded == text
    # our export of it (gnubg's layout) imports again, into another club, to the same moves
    other = club_services.create_club(created_by=director, name="Other", slug="other")
    again = imported(client, other, f"again-{name}", export_mat(parse_mat(downloaded)))
    assert again.variant == key and moves_of(again) == moves_of(match)
    assert (again.score1, again.score2) == score


def test_a_tavli_match_keeps_each_games_variant_from_the_rotation(client_for, director, club):
    match = imported(
        client_for(director),
        club,
        "tavli.mat",
        (DATA / "boxcars-tavli.mat").read_text(encoding="utf-8"),
    )
    assert match.variant == "tavli" and match.games.count() == 3
    # game 2 (plakoto) pinned bob's man with 18/6: written and stored without '*'
    second = match.games.get(number=2).moves
    assert second[2] == {"player": 1, "action": "roll", "dice": "66", "move": "18/6 20/8"}


def test_an_illegal_play_for_the_variant_is_refused_with_game_move_and_reason(
    client_for, director, club
):
    text = (DATA / "boxcars-russian.mat").read_text(encoding="utf-8")
    bad = text.replace("11: 16/15(4)", "11: 16/15(3)")  # an ace left unplayed
    response = import_mat(client_for(director), club, "russian.mat", bad)
    assert response.status_code == 400
    [result] = response.json()["files"]
    [error] = result["errors"]
    assert (error["game"], error["move"], error["code"]) == (1, 4, "not_maximal")
    assert error["message"].startswith("16/15 16/15 16/15 is not a legal play of 11 in Russian")
    assert Match.objects.count() == 0


def test_a_cube_in_a_variant_without_one_is_refused(client_for, director, club):
    text = (DATA / "boxcars-tavla.mat").read_text(encoding="utf-8")
    cube = text.replace("  2) 42: 13/11* 13/9", "  2)  Doubles => 2\n  3) 42: 13/11* 13/9")
    response = import_mat(client_for(director), club, "tavla.mat", cube)
    assert response.status_code == 400
    first = response.json()["files"][0]["errors"][0]
    assert (first["game"], first["move"], first["code"]) == (1, 3, "no_cube_in_variant")
    assert Match.objects.count() == 0


def test_a_random_legal_acey_deucey_match_imports(client_for, director, club):
    """A whole match of random plays the engine lists, played out to the end."""
    text, games = random_match("Boxcars acey-deucey", random.Random(7), length=3)
    match = imported(client_for(director), club, "random.mat", text)
    assert match.variant == "acey-deucey" and match.games.count() == len(games)
    assert max(match.score1, match.score2) >= 3


STANDARD = (
    " 1 point match\n\n Game 1\n alice : 0                       bob : 0\n"
    "  1) 31: 8/5 6/5                 Doubles => 2\n"
    "  2)  Drops\n"
    "                                 Wins 1 point\n"
)


def test_a_standard_transcript_still_imports(client_for, director, club):
    match = imported(client_for(director), club, "standard.mat", STANDARD)
    assert match.variant == "standard" and (match.score1, match.score2) == (0, 1)


def test_the_import_command_reads_a_variant_and_refuses_an_illegal_play(club, tmp_path):
    """``manage.py import_mat``, the operator's door, checks the same way."""
    good = tmp_path / "plakoto.mat"
    good.write_text((DATA / "boxcars-plakoto.mat").read_text(encoding="utf-8"))
    call_command("import_mat", str(good), "--club", club.slug, stdout=StringIO())
    assert Match.objects.get().variant == "plakoto"
    bad = tmp_path / "fevga.mat"
    text = (DATA / "boxcars-fevga.mat").read_text(encoding="utf-8")
    bad.write_text(text.replace("64: 24/14", "64: 24/18 24/20"))
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("import_mat", str(bad), "--check", "--json", stdout=out)
    [error] = json.loads(out.getvalue())["errors"]
    assert (error["game"], error["move"], error["code"]) == (1, 1, "illegal_move")
    assert "in Fevga (tavli)" in error["message"]
