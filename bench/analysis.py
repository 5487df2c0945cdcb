"""Benchmark: match analysis with gnubg, end to end through the job, against a bare loop.

For each depth (0-ply over a sample of the corpus, 2-ply over a smaller one, since a
2-ply analysis costs seconds per match), every file is imported into a club that does
not analyse automatically, then analysed through the ``analysis.match`` job exactly as
the API starts it (``request_analysis`` -> ``core.jobs.run`` -> gnubg -> one transaction
storing the decisions and figures). Beside it, in the same run, a bare loop makes the
same gnubg calls over the same transcripts (``analysis.engine.analyse_mat``: gnubg's
import, analysis and saved analysis) with nothing around them. Figures: decisions per
second both ways and their ratio (aim >= 0.8), wall and CPU seconds (the machine is
shared: CPU time says what the work costs); and the time to analyse a typical 7-point
match at 2-ply through the job (aim <= 10 s).

``--quick`` analyses two files at 0-ply and the 7-point match at 0-ply only.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from bench.server import setup_django

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mat"
SEVEN_POINT = (
    CORPUS / "bgstudio" / "Llabba_BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.mat"
)


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (each analysis runs
    gnubg in a child process: see ``analysis.engine.analyse_mat``)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _sample(count: int) -> list[Path]:
    files = sorted((CORPUS / "galaxy").glob("*.mat"))
    step = max(1, len(files) // count)
    return files[::step][:count]


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    setup_django()
    from django.contrib.auth import get_user_model

    from analysis import engine, services
    from analysis.models import MatchAnalysis
    from core import jobs
    from games.models import Match
    from games.services import clubs as club_services
    from games.services.actors import actor_for_user
    from games.services.transcripts import import_transcript

    user, _ = get_user_model().objects.get_or_create(username="bench-analyst")
    slug = f"bench-analysis-{time.time_ns()}"
    club = club_services.create_club(created_by=user, name=slug, slug=slug)
    services.update_settings(user=user, club=club, automatic=False)

    def imported(path: Path) -> Match:
        outcome = import_transcript(
            actor=actor_for_user(user), club=club, text=path.read_text(), name=path.name
        )
        assert outcome.match_id is not None, (path, outcome.status)
        return Match.objects.get(pk=outcome.match_id)

    def through_job(matches: list[Match], plies: int) -> tuple[float, float, int]:
        wall, cpu = time.perf_counter(), _cpu()
        decisions = 0
        for match in matches:
            job, _ = services.request_analysis(user=user, match=match, plies=plies)
            status = jobs.run(job.pk)
            assert status == "succeeded", status
            decisions += MatchAnalysis.objects.get(match=match).decisions_count
        return time.perf_counter() - wall, _cpu() - cpu, decisions

    def bare(matches: list[Match], plies: int) -> tuple[float, float, int]:
        from analysis.decisions import decisions_of

        texts = [m.transcript for m in matches]
        wall, cpu = time.perf_counter(), _cpu()
        decisions = 0
        for text in texts:
            decisions += len(decisions_of(engine.analyse_mat(text, plies=plies)))
        return time.perf_counter() - wall, _cpu() - cpu, decisions

    result: dict[str, object] = {"engine": f"gnubg {engine.version()}"}
    plan = [(0, 2 if quick else 12)] + ([] if quick else [(2, 2)])
    for plies, count in plan:
        files = _sample(count)
        matches = [imported(p) for p in files]
        bare_wall, bare_cpu, bare_n = bare(matches, plies)
        job_wall, job_cpu, job_n = through_job(matches, plies)
        assert job_n == bare_n
        key = f"{plies}ply"
        result[f"{key}_matches"] = len(matches)
        result[f"{key}_decisions"] = job_n
        result[f"{key}_job_decisions_per_s"] = round(job_n / job_wall, 1)
        result[f"{key}_bare_decisions_per_s"] = round(bare_n / bare_wall, 1)
        result[f"{key}_ratio_wall"] = round(bare_wall / job_wall, 3)
        result[f"{key}_ratio_cpu"] = round(bare_cpu / job_cpu, 3) if job_cpu else None
        result[f"{key}_job_cpu_s"] = round(job_cpu, 2)
        result[f"{key}_bare_cpu_s"] = round(bare_cpu, 2)
    seven_plies = 0 if quick else 2
    match = imported(SEVEN_POINT)
    wall, cpu, n = through_job([match], seven_plies)
    result[f"seven_point_{seven_plies}ply_seconds"] = round(wall, 2)
    result[f"seven_point_{seven_plies}ply_cpu_seconds"] = round(cpu, 2)
    result["seven_point_decisions"] = n
    if not quick:
        result.update(_filters_compared(engine))
    result["load_average_1min"] = round(os.getloadavg()[0], 2)
    return result


def _filters_compared(engine: Any) -> dict[str, object]:
    """The 7-point match at 2-ply, bare, with the binding's move filter and with ours.

    Same run, same process: the CPU seconds of each, their ratio, and how far each
    player's error rate and PR moved (mEMG) between the two.
    """
    from analysis.decisions import decisions_of
    from analysis.figures import totals

    text = SEVEN_POINT.read_text()
    out: dict[str, object] = {}
    figures = {}
    seconds = {}
    for name, move_filter in (
        ("binding_filter", engine.BINDING_FILTER),
        ("boxcars_filter", engine.BOXCARS_FILTER),
    ):
        cpu = _cpu()
        analysed = engine.analyse_mat(text, plies=2, move_filter=move_filter)
        seconds[name] = _cpu() - cpu
        out[f"seven_point_2ply_{name}_cpu_seconds"] = round(seconds[name], 2)
        figures[name] = totals(row.decision for row in decisions_of(analysed))
    before, after = figures["binding_filter"], figures["boxcars_filter"]
    out["seven_point_2ply_filter_cpu_ratio"] = round(
        seconds["boxcars_filter"] / max(seconds["binding_filter"], 1e-9), 3
    )
    out["seven_point_2ply_error_rate_moved_memg"] = [
        round(a.error_rate - b.error_rate, 3) for a, b in zip(after, before, strict=True)
    ]
    return out
