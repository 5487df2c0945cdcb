"""Fuzz the two file readers with hypothesis: any input gives a clean domain error.

* The ``.mat`` transcript parser and replayer (games/rules/matfile.py, replay.py):
  ``parse_mat`` returns a match or raises ``MatParseError`` (a ``RuleViolation``);
  ``check_text`` and ``replay_match`` never raise at all (rule problems are collected
  as issues).
* The result-history reader (games/rules/results_file.py): ``parse_results`` returns
  rows or raises ``ResultsFileInvalid`` (a ``RuleViolation``) naming each bad line.
* Through the services, against the database: a refused transcript import or results
  import writes nothing (the database fingerprint of every table is unchanged), and an
  accepted one writes only whole matches.

Inputs are both free text and mutations of real files (lines dropped, duplicated or
swapped, characters replaced, numbers changed), which reach far deeper into the
readers than random text does.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.models import Match
from games.rules.errors import BoxcarsError, RuleViolation
from games.rules.matfile import parse_mat
from games.rules.replay import check_text, replay_match
from games.rules.results_file import parse_results
from games.services import ratings as rating_services
from games.services import transcripts as transcript_services
from games.services.actors import actor_for_user
from tests.security.matrix import fingerprint

# A real match from the corpus (data/mat/galaxy/lasse_match4047002.mat, MIT: data/README.md).
TRANSCRIPT = """\
; [Site "BackgammonGalaxy"]
; [Match ID "4047002"]
; [Player 1 "lasse"]
; [Player 2 "mohammadyzzz"]
; [Player 1 Elo "1,00/0"]
; [Player 2 Elo "3,00/0"]
; [EventDate "2023.12.05"]
; [EventTime "10.35"]
; [Variation "Backgammon"]
; [Unrated "Off"]
; [Crawford "On"]
; [CubeLimit "1024"]

3 point match

 Game 1
 lasse : 0                       mohammadyzzz : 0
  1) 51: 13/8 24/23              21: 13/11 24/23
  2) 54: 23/18 18/14             63: 25/22 24/18
  3) 61: 13/7 8/7                51: 25/20 23/22
  4) 32: 14/11 13/11             51: 13/8 6/5
  5)  Doubles => 2                Drops
      Wins 1 point

 Game 2
 lasse : 1                       mohammadyzzz : 0
  1) 63: 24/18 13/10             43: 24/21 13/9
  2) 43: 13/10 18/14             64: 8/2 6/2
  3) 41: 24/20 14/13             11: 6/5 6/5 8/7 8/7
  4) 63: 25/22 22/16             44: 25/21 13/9 7/3 7/3
  5) 53:                         11: 21/20 21/20 9/8 8/7
  6) 22:                          Doubles => 2
  7)  Drops                       Wins 1 point


 Game 3
 lasse : 1                       mohammadyzzz : 1
  1) 62: 24/18 13/11             64: 24/18 18/14
  2) 61: 25/24 24/18             62: 14/8 24/22
  3) 63: 13/7 6/3                44: 25/21 13/9 13/9 13/9
  4) 41: 8/4 4/3                 63:
  5)  Doubles => 2                Takes
  6) 54: 7/2 6/2                 52: 25/20 8/6
  7) 54: 13/8 8/4                65: 20/14 14/9
  8) 65: 13/7 13/8               52: 9/4 6/4
  9) 44: 8/4 8/4 7/3 8/4         44: 13/9 13/9 9/5 9/5
 10) 61: 24/18 6/5               33: 8/5 9/6 9/6 9/6
 11) 51: 18/13 13/12             65: 8/2 8/3
 12) 65: 12/6 18/13              65: 6/0 5/0
 13) 54: 13/8 18/14              62: 6/0 2/0
 14) 62: 14/8 8/6                21: 6/4 6/5
 15) 64: 8/4 6/0                 52: 5/0 6/4
 16) 62: 6/0 2/0                 51: 5/0 4/3
 17) 31: 3/0 6/5                 44: 4/0 4/0 4/0 6/2
 18) 32: 3/0 2/0                 31: 3/0 6/5
 19) 62: 6/0 4/2                 43: 3/0 5/1
 20) 55: 5/0 5/0 4/0 4/0         66: 6/0 5/0 2/0 1/0
                                  Wins 2 point and the match
"""

RESULTS_CSV = """\
date,winner,loser,length
2024-01-05,Alice,Bob,5
2024-01-12,Bob,Carol,7
2024-01-19,Carol,Alice,3
"""

RESULTS_MARKDOWN = """\
Results of the winter league.

|Date|Winner|Loser|Length|
|---|---|---|---|
|2024-02-02|Dave|Erin|5|
|2024-02-09|Erin|Dave|9|
"""

FUZZ = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ_DB = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@st.composite
def mutated(draw: st.DrawFn, original: str) -> str:
    """A real file with a few edits of the kinds a hand, a mailer or a disk makes."""
    lines = original.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(["drop", "dup", "swap", "char", "number", "insert"]))
        if edit == "drop":
            del lines[i]
        elif edit == "dup":
            lines.insert(i, lines[i])
        elif edit == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif edit == "char" and lines[i]:
            k = draw(st.integers(0, len(lines[i]) - 1))
            c = draw(st.characters(codec="utf-8"))
            lines[i] = lines[i][:k] + c + lines[i][k + 1 :]
        elif edit == "number":
            n = draw(st.sampled_from(["0", "-1", "99", "100", "1024", "3", "999999999999"]))
            lines[i] = "".join(n if ch.isdigit() and draw(st.booleans()) else ch for ch in lines[i])
        else:
            lines.insert(i, draw(st.text(max_size=40)))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


def any_text(original: str) -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=400), mutated(original))


# --- pure readers ---------------------------------------------------------------------------


def test_the_seed_files_are_valid():
    """The mutations start from files the readers accept (else the fuzz tests little)."""
    assert not check_text(TRANSCRIPT).errors
    assert len(parse_results(RESULTS_CSV)) == 3
    assert len(parse_results(RESULTS_MARKDOWN)) == 2


@FUZZ
@given(text=any_text(TRANSCRIPT))
def test_mat_parser_accepts_or_refuses_cleanly(text):
    try:
        parsed = parse_mat(text)
    except RuleViolation as error:
        assert error.code and error.message
        return
    replay_match(parsed)  # rule problems are collected, never raised


@FUZZ
@given(text=any_text(TRANSCRIPT), money=st.sampled_from([None, True, False]))
def test_transcript_check_never_raises(text, money):
    result = check_text(text, money=money)
    for issue in result.errors:
        assert issue.code


@FUZZ
@given(text=st.one_of(any_text(RESULTS_CSV), any_text(RESULTS_MARKDOWN)))
def test_results_reader_accepts_or_refuses_cleanly(text):
    try:
        rows = parse_results(text)
    except RuleViolation as error:
        assert error.code and error.message
        return
    for row in rows:
        assert 1 <= row.length <= 99
        assert row.winner.strip() and row.loser.strip()


# --- through the services: nothing half-written ---------------------------------------------


@pytest.fixture
def importing_club(club, director):
    return club, director


@pytest.mark.django_db
@FUZZ_DB
@given(text=any_text(TRANSCRIPT), lenient=st.booleans())
def test_transcript_import_is_whole_or_nothing(importing_club, text, lenient):
    club, director = importing_club
    with transaction.atomic():
        before = fingerprint()
        outcome = transcript_services.import_transcript(
            actor=actor_for_user(director), club=club, text=text, name="fuzz.mat", lenient=lenient
        )
        after = fingerprint()
        event(f"import {outcome.status}")
        if outcome.status == transcript_services.IMPORTED:
            match = Match.objects.get(pk=outcome.match_id)
            assert match.games.count() >= 1
        else:
            assert before == after, f"a {outcome.status} import wrote to the database"
        transaction.set_rollback(True)


@pytest.mark.django_db
@FUZZ_DB
@given(text=st.one_of(any_text(RESULTS_CSV), any_text(RESULTS_MARKDOWN)))
def test_results_import_is_whole_or_nothing(importing_club, text):
    club, director = importing_club
    with transaction.atomic():
        before = fingerprint()
        try:
            report = rating_services.import_results(user=director, club=club, text=text)
        except BoxcarsError as error:
            event("results refused")
            assert isinstance(error, RuleViolation), error
            assert fingerprint() == before, "a refused results file wrote to the database"
        else:
            event("results imported")
            expected = len(parse_results(text))
            assert report.as_dict()["matches"] == expected
            assert Match.objects.filter(club=club).count() == expected
        transaction.set_rollback(True)


# --- what the fuzzing found ------------------------------------------------------------------


def test_a_transcript_with_a_nul_byte_is_refused_by_the_parser():
    """Found by fuzzing on PostgreSQL: a NUL byte passed the checks, then the database
    refused the text (DataError, a 500 through the API)."""
    text = TRANSCRIPT.replace("Game 2", "Game\x002")
    with pytest.raises(RuleViolation) as refused:
        parse_mat(text)
    assert refused.value.code == "bad_mat" and "NUL" in refused.value.message


@pytest.mark.django_db
def test_a_transcript_with_a_nul_byte_is_refused_and_nothing_is_written(club, director):
    before = fingerprint()
    outcome = transcript_services.import_transcript(
        actor=actor_for_user(director),
        club=club,
        text=TRANSCRIPT.replace("lasse", "la\x00sse"),
        name="nul.mat",
    )
    assert outcome.status == transcript_services.REFUSED
    assert fingerprint() == before


def test_a_results_row_with_a_nul_byte_is_refused():
    with pytest.raises(RuleViolation) as refused:
        parse_results(RESULTS_CSV.replace("Carol", "Ca\x00rol"))
    assert "NUL" in str(refused.value.as_dict())
