"""The ``matches.import`` job: a large transcript upload imported file by file.

The upload travels in the job's ``params`` (the database is the one store that the web
process and the workers share): the files gzip-compressed and base64-encoded, so a
5 MB night of transcripts costs the row well under 1 MB. Each file is its own
transaction and a file already imported is recognised by its hash, so a redelivered
job (``acks_late``) re-runs safely: what was imported the first time is reported as a
duplicate, never imported twice. Progress is reported after every file.
"""

from __future__ import annotations

import base64
import gzip
import json
from typing import Any

from core.errors import N_
from core.jobs import Progress
from core.models import Job
from games.job_kinds import IMPORT_TRANSCRIPTS
from games.models import Club
from games.rules.errors import RuleViolation
from games.services import transcripts as transcript_services
from games.services.actors import actor_for_user

KIND = IMPORT_TRANSCRIPTS


def pack_files(files: list[tuple[str, str]]) -> str:
    """``(name, text)`` pairs as one compressed, JSON-safe string for ``Job.params``."""
    raw = json.dumps([[name, text] for name, text in files]).encode("utf-8")
    return base64.b64encode(gzip.compress(raw)).decode("ascii")


def unpack_files(packed: str) -> list[tuple[str, str]]:
    return [(name, text) for name, text in json.loads(gzip.decompress(base64.b64decode(packed)))]


def import_params(
    *, files: list[tuple[str, str]], check: bool, lenient: bool, money: bool | None
) -> dict[str, Any]:
    """The job's parameters: the options in clear, the files packed."""
    return {
        "check": check,
        "lenient": lenient,
        "money": money,
        "names": [name for name, _ in files],
        "files": pack_files(files),
    }


def import_transcripts_job(job: Job, progress: Progress) -> dict[str, Any]:
    """Import (or check) every file of the upload; the result lists each file's outcome."""
    params = job.params
    club = Club.objects.filter(pk=job.club_id).first()  # type: ignore[misc]  # pk=None: no row; the stubs refuse None
    if club is None:
        raise RuleViolation("club_not_found", N_("The importing club no longer exists."), "club")
    files = unpack_files(params["files"])
    progress(0, len(files), "starting")
    outcomes = transcript_services.import_transcripts(
        actor=actor_for_user(job.created_by),
        club=club,
        files=files,
        money=params.get("money"),
        lenient=bool(params.get("lenient")),
        check=bool(params.get("check")),
        progress=progress,
    )
    return summarise(outcomes)


def summarise(outcomes: list[transcript_services.ImportOutcome]) -> dict[str, Any]:
    """Counts by status and every file's outcome, as the API answers small uploads."""
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
    return {"counts": counts, "files": [o.as_dict() for o in outcomes]}
