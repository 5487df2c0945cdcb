"""Benchmark: import the real ``.mat`` corpus into a club on PostgreSQL.

Each file goes through ``games.services.transcripts.import_transcript`` exactly as the
command and the API use it: parse, replay every move, match scoring, one transaction
that locks the club, finds or creates both players and writes the match, its games
(with their audit history) and the outcome event. Figures: files, games and moves
imported per second; then the same files again, which are all recognised as
duplicates (the cost of a re-upload). ``quick`` imports one file in ten.

Each run imports into a new club (``bench-import-<n>``) on the benchmark database of
:mod:`bench.server`, so runs do not see each other's matches.
"""

from __future__ import annotations

import time

from bench.server import setup_django
from bench.transcripts import corpus_files


def run(*, quick: bool = False, context: dict | None = None) -> dict:
    setup_django()
    from django.contrib.auth import get_user_model

    from games.services import clubs as club_services
    from games.services.transcripts import decode_transcript, import_transcripts

    files = corpus_files()
    if quick:
        files = files[::10]
    user, _ = get_user_model().objects.get_or_create(username="bench-importer")
    slug = f"bench-import-{time.time_ns()}"
    club = club_services.create_club(created_by=user, name=slug, slug=slug)
    texts = [
        (str(path), decode_transcript(path.read_bytes()), "coingame" in path.parent.name)
        for path in files
    ]

    def import_all() -> tuple[float, list]:
        started = time.perf_counter()
        outcomes = []
        for name, text, money in texts:
            outcomes += import_transcripts(
                actor=None, club=club, files=[(name, text)], money=True if money else None
            )
        return time.perf_counter() - started, outcomes

    seconds, outcomes = import_all()
    imported = [o for o in outcomes if o.status == "imported"]
    games = sum(len(o.replay.games) for o in imported)
    moves = sum(o.replay.moves_checked for o in imported)
    again, repeat = import_all()
    return {
        "files": len(files),
        "imported": len(imported),
        "refused": sum(o.status == "refused" for o in outcomes),
        "games": games,
        "moves": moves,
        "seconds": round(seconds, 2),
        "files_per_second": round(len(files) / seconds, 1),
        "games_per_second": round(games / seconds, 1),
        "moves_per_second": round(moves / seconds),
        "reupload_seconds": round(again, 2),
        "reupload_duplicates": sum(o.status == "duplicate" for o in repeat),
    }
