"""The ``analysis.match`` job, and the import's automatic request for one.

The automatic request listens to ``match.finished`` (the outbox event every import of a
finished match writes) so that ``games`` knows nothing of the analysis: when the club
analyses automatically and the match has a transcript, the job starts. Both are
registered by ``analysis/wiring.py``.
"""

from __future__ import annotations

from typing import Any

from core.jobs import Progress
from core.models import Job
from games.models import Match

from . import services


def analyse_match_job(job: Job, progress: Progress) -> dict[str, Any]:
    """Analyse the match and answer with its figures (the full result is on the API)."""
    analysis = services.analyse_match(
        match_id=int(job.params["match_id"]), plies=int(job.params["plies"]), progress=progress
    )
    return {
        "match_id": analysis.match_id,
        "plies": analysis.plies,
        "decisions": analysis.decisions_count,
        "players": [
            {"side": p.side, "player_id": p.player_id, "pr": p.pr, "error_rate": p.error_rate}
            for p in analysis.players.order_by("side")
        ],
    }


def with_transcript(payload: dict[str, Any]) -> bool:
    """Which ``match.finished`` events :func:`analyse_imported_match` acts on: a match
    that has a transcript (an event without the fact is taken)."""
    return bool(payload.get("transcript", True))


def analyse_imported_match(payload: dict[str, Any]) -> None:
    match_id = payload.get("match_id")
    if match_id is None:
        return
    match = Match.objects.select_related("club").filter(pk=match_id).first()
    if match is None or not match.transcript.strip():
        return
    if not services.settings_for(match.club).automatic or not services.analysable(match):
        return
    services.request_analysis(user=None, match=match, automatic=True)
