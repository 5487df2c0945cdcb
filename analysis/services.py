"""Writes of the analysis: ask for an analysis, store one, change a club's settings.

The analysis itself runs in the ``analysis.match`` job (:mod:`analysis.jobs`), which
calls gnubg through :mod:`analysis.engine` outside any transaction and then stores the
result with :func:`store_analysis` in one.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.db import transaction
from django.utils import timezone

from analysis.job_kinds import ANALYSE_MATCH
from core import access
from core.errors import N_, NotAllowed, RuleViolation
from core.jobs import start_job
from core.models import Job
from games.models import Club, Match
from games.rules import variants
from games.rules.variants.transcripts import with_variation

from . import engine, engine_databases
from .decisions import decisions_of
from .figures import performance_rating, totals
from .models import (
    MAX_PLIES,
    ClubAnalysisSettings,
    Decision,
    MatchAnalysis,
    PlayerAnalysis,
    SupersededAnalysis,
)

JOB_KIND = ANALYSE_MATCH


def settings_for(club: Club) -> ClubAnalysisSettings:
    """The club's settings (the defaults until a director changes them)."""
    found = ClubAnalysisSettings.objects.filter(club=club).first()
    return found or ClubAnalysisSettings(club=club)


def update_settings(
    *,
    user: Any,
    club: Club,
    automatic: bool | None = None,
    plies: int | None = None,
    min_decisions: int | None = None,
) -> ClubAnalysisSettings:
    if not access.is_director(user, club):
        raise NotAllowed(
            "not_director", N_("Only the club's directors change its analysis settings.")
        )
    if plies is not None and not 0 <= plies <= MAX_PLIES:
        raise RuleViolation(
            "plies_range",
            N_("The depth is 0 to %(MAX_PLIES)s plies.", MAX_PLIES=MAX_PLIES),
            "plies",
        )
    with transaction.atomic():
        row, _ = ClubAnalysisSettings.objects.select_for_update().get_or_create(club=club)
        if automatic is not None:
            row.automatic = automatic
        if plies is not None:
            row.plies = plies
        if min_decisions is not None:
            row.min_decisions = min_decisions
        row.save()
    return row


def _transcript_hash(match: Match) -> str:
    return match.transcript_hash or hashlib.sha256(match.transcript.encode()).hexdigest()


def engine_plays(match: Match) -> bool:
    """Does an engine play this match's variant? GNU Backgammon plays the English game,
    nackgammon and hypergammon 1-3 (its ``set variation``); a match of any other variant
    is never analysed, rather than analysed as if it were the English game."""
    return (
        not variants.is_rotation(match.variant)
        and match.variant in variants.REGISTRY
        and variants.REGISTRY[match.variant].engine_analysis
    )


def missing_engine_database(match: Match) -> str | None:
    """The database file the engine lacks on this server for this match's variant (a
    hypergammon match without its ``hyperN.bd``), or None."""
    return engine_databases.missing_database(match.variant) if engine_plays(match) else None


def men_per_side(match: Match) -> int:
    """How many men each side has in this match's variant (a board's "off" count)."""
    variant = variants.REGISTRY.get(match.variant)
    return variant.checkers if variant is not None else 15


def analysable(match: Match) -> bool:
    """Is this match's variant analysed here: an engine plays it and has what it needs
    (never an analysis without figures)."""
    return engine_plays(match) and engine_databases.missing_database(match.variant) is None


def _refuse_unanalysable(match: Match) -> None:
    missing = missing_engine_database(match)
    if missing is not None:
        raise RuleViolation(
            "engine_database_missing",
            N_(
                "GNU Backgammon on this server lacks the %(variant)s database "
                "(%(file)s), without which it evaluates no position of that variant: "
                "the server's administrator builds it (make gnubg-hyper).",
                variant=match.variant,
                file=missing,
            ),
            "variant",
        )
    if not engine_plays(match):
        raise RuleViolation(
            "variant_not_analysed",
            N_(
                "No engine analyses %(variant)s: only backgammon, nackgammon and "
                "hypergammon are analysed (by GNU Backgammon).",
                variant=match.variant,
            ),
            "variant",
        )


def request_analysis(
    *, user: Any, match: Match, plies: int | None = None, automatic: bool = False
) -> tuple[Job, bool]:
    """Start (or find) the job analysing ``match`` at ``plies`` (the club's by default).

    The same transcript at the same depth is one job (a second request gets the first).
    ``automatic`` is the import's own request: no user to check.
    """
    if not automatic and not access.is_director(user, match.club):
        raise NotAllowed("not_director", N_("Only the club's directors ask for an analysis."))
    _refuse_unanalysable(match)
    if not match.transcript.strip():
        raise RuleViolation(
            "no_transcript",
            N_("This match has no transcript to analyse: attach a .mat file first."),
            "transcript",
        )
    if plies is None:
        plies = settings_for(match.club).plies
    if not 0 <= plies <= MAX_PLIES:
        raise RuleViolation(
            "plies_range",
            N_("The depth is 0 to %(MAX_PLIES)s plies.", MAX_PLIES=MAX_PLIES),
            "plies",
        )
    digest = _transcript_hash(match)
    return start_job(
        kind=JOB_KIND,
        params={"match_id": match.pk, "plies": plies},
        club=match.club,
        created_by=user,
        dedupe_key=f"analysis:{match.pk}:{plies}:{digest[:40]}",
    )


def analyse_match(*, match_id: int, plies: int, progress: Any = None) -> MatchAnalysis:
    """Run gnubg over the match's transcript and store the result (the job's body)."""
    match = Match.objects.select_related("player1", "player2").get(pk=match_id)
    # a job queued by an older release, or before a database went: never without figures
    _refuse_unanalysable(match)
    if progress:
        progress(0, 3, f"gnubg analyses the match at {plies}-ply")
    started = time.perf_counter()
    try:
        # gnubg's ``import mat`` sets its variation from the tag (nackgammon, hypergammon)
        text = with_variation(match.transcript, match.variant)
        analysed = engine.analyse_mat(text, plies=plies)
    except engine.EngineError as exc:
        raise RuleViolation(
            "engine_refused", N_("gnubg could not analyse it: %(exc)s", exc=exc), ""
        ) from exc
    seconds = time.perf_counter() - started
    if progress:
        progress(1, 3, "storing the decisions")
    result = store_analysis(match_id=match_id, analysed=analysed, seconds=seconds)
    if progress:
        progress(3, 3, "done")
    return result


_KEPT_DECISION_FIELDS = [
    f.attname for f in Decision._meta.concrete_fields if f.attname not in ("id", "analysis_id")
]
_KEPT_FIGURE_FIELDS = [
    f.attname
    for f in PlayerAnalysis._meta.concrete_fields
    if f.attname not in ("id", "analysis_id")
]


def _keep_superseded(analysis: MatchAnalysis) -> None:
    """Keep the analysis about to be replaced: its decisions and figures in one row.

    Two reads and one insert, inside the replacing transaction (the row lock on the
    analysis is held), so an earlier analysis is never lost nor kept twice.
    """
    SupersededAnalysis.objects.create(
        match_id=analysis.match_id,
        plies=analysis.plies,
        engine=analysis.engine,
        transcript_hash=analysis.transcript_hash,
        analysed_at=analysis.analysed_at,
        superseded_at=timezone.now(),
        decisions_count=analysis.decisions_count,
        decisions=list(
            analysis.decisions.order_by("game", "index", "id").values(*_KEPT_DECISION_FIELDS)
        ),
        figures=list(analysis.players.order_by("side").values(*_KEPT_FIGURE_FIELDS)),
    )


def store_analysis(*, match_id: int, analysed: engine.EngineMatch, seconds: float) -> MatchAnalysis:
    """Replace the match's analysis with ``analysed`` in one transaction."""
    rows = decisions_of(analysed)
    figures = totals(row.decision for row in rows)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        analysis = MatchAnalysis.objects.select_for_update().filter(match=match).first()
        if analysis is None:
            analysis = MatchAnalysis(match=match)
        else:
            _keep_superseded(analysis)
        analysis.plies = analysed.plies
        analysis.engine = f"{engine.ENGINE_NAME} {engine.version()}"
        analysis.transcript_hash = _transcript_hash(match)
        analysis.decisions_count = len(rows)
        analysis.seconds = round(seconds, 3)
        analysis.analysed_at = timezone.now()
        analysis.save()
        analysis.decisions.all().delete()
        Decision.objects.bulk_create(
            [
                Decision(
                    analysis=analysis,
                    game=row.game,
                    index=row.index,
                    side=row.player,
                    kind=row.kind,
                    position_id=row.position_id,
                    match_id=row.match_id,
                    dice=f"{row.dice[0]}{row.dice[1]}" if row.dice else "",
                    score1=row.score[0],
                    score2=row.score[1],
                    crawford=row.crawford,
                    cube_value=row.cube_value,
                    cube_owner=row.cube_owner,
                    played=row.played[:40],
                    best=row.best[:40],
                    played_equity=row.decision.played_equity,
                    best_equity=row.decision.best_equity,
                    loss=row.loss,
                    counted=row.decision.counted,
                    mark=row.decision.mark,
                    luck=row.decision.luck,
                    no_double=row.cube.no_double if row.cube else None,
                    double_take=row.cube.double_take if row.cube else None,
                )
                for row in rows
            ],
            batch_size=500,
        )
        for side, f in enumerate(figures):
            existing = PlayerAnalysis.objects.filter(analysis=analysis, side=side).first()
            pa = existing or PlayerAnalysis(analysis=analysis, side=side)
            pa.player = match.player_at(side)
            pa.moves = f.moves
            pa.unforced_moves = f.unforced
            pa.cube_decisions = f.cube_decisions
            pa.close_cube_decisions = f.close_cube
            pa.decisions = f.decisions
            pa.checker_error = round(f.checker_error, 6)
            pa.cube_error = round(f.cube_error, 6)
            pa.total_error = round(f.total_error, 6)
            pa.error_rate = round(f.error_rate, 3)
            pa.pr = round(performance_rating(f.total_error, f.decisions, match.length), 3)
            pa.luck = round(f.luck, 6)
            pa.luck_rate = round(f.luck_rate, 3)
            pa.doubtful = f.marks["doubtful"]
            pa.errors = f.marks["bad"]
            pa.blunders = f.marks["very_bad"]
            pa.rating = engine.error_rating(f.error_rate / 1000.0)
            pa.luck_rating = engine.luck_rating(f.luck_rate / 1000.0)
            pa.save()
    return analysis
