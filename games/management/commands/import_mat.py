"""``manage.py import_mat PATH... [--club SLUG] [--check] [--json] [--lenient] [--money]``.

Imports ``.mat`` transcripts (files, or directories walked for ``*.mat``) into a club as
finished matches, one transaction per file, through ``games.services.transcripts``.
``--check`` replays and reports without writing; ``--json`` prints one JSON object per
file per line. The exit code is 1 when any file was (or, with ``--check``, would be)
refused, so the command can guard a folder of transcripts in a script.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Club
from games.services import transcripts as transcript_services
from games.services.transcripts import ImportOutcome


def mat_paths(paths: list[str]) -> list[Path]:
    """The files named, and every ``*.mat`` under the directories named, in order."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.mat") if p.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            raise CommandError(f"{raw}: no such file or directory")
    return found


def is_coin_game_path(path: Path) -> bool:
    """Galaxy coin games cannot be told from matches by their text
    (docs/transcripts-format.md section 3); the corpus keeps them in a ``*coingame*``
    folder, which marks them as money."""
    return "coingame" in path.parent.name.lower()


class Command(BaseCommand):
    help = "Import .mat match transcripts into a club (or --check them without writing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH", help=".mat files or folders")
        parser.add_argument("--club", help="slug of the club that imports (required to write)")
        parser.add_argument("--check", action="store_true", help="replay and report; write nothing")
        parser.add_argument("--json", action="store_true", help="one JSON object per file per line")
        parser.add_argument(
            "--lenient",
            action="store_true",
            help="import files with rule errors too, keeping the scores and reporting the errors",
        )
        parser.add_argument(
            "--money",
            action="store_true",
            help="treat every file as money play (an unlimited session); files in a "
            "*coingame* folder always are",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        check, lenient = options["check"], options["lenient"]
        club = None
        if options["club"]:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(f"--club {options['club']}: there is no club with that slug")
        elif not check:
            raise CommandError(
                "--club SLUG is required to import (or use --check to write nothing)"
            )
        refused = 0
        paths = mat_paths(options["paths"])
        for path in paths:
            text = transcript_services.decode_transcript(path.read_bytes())
            money = True if options["money"] or is_coin_game_path(path) else None
            [outcome] = transcript_services.import_transcripts(
                actor=None,
                club=club,
                files=[(str(path), text)],
                money=money,
                lenient=lenient,
                check=check,
            )
            if transcript_services.was_refused(outcome, lenient=lenient):
                refused += 1
            if options["json"]:
                self.stdout.write(json.dumps(outcome.report(), ensure_ascii=False))
            else:
                self._describe(outcome, options["verbosity"])
        if not options["json"]:
            self.stdout.write(f"{len(paths)} file(s), {refused} refused")
        if refused:
            raise CommandError(f"{refused} of {len(paths)} file(s) refused", returncode=1)

    def _describe(self, outcome: ImportOutcome, verbosity: int) -> None:
        """One line per file, then its errors (and warnings at -v 2)."""
        report = outcome.report()
        a, b = report["players"]
        length = f"{report['length']}-point match" if report["length"] else "money session"
        if outcome.replay.is_money:
            length = "money session"
        score = "-".join(str(s) for s in report["final_score"])
        where = f" -> match #{outcome.match_id}" if outcome.match_id else ""
        self.stdout.write(
            f"{outcome.status.upper():9} {outcome.file}: {length}, {a or '?'} v {b or '?'} "
            f"{score}, {len(report['games'])} games, {report['moves_checked']} moves{where}"
        )
        for error in report["errors"]:
            self.stdout.write(f"  error {_where(error)}{error['code']}: {error['message']}")
        if verbosity >= 2:
            for warning in outcome.replay.warnings:
                self.stdout.write(f"  warning {_where(warning.as_dict())}{warning.code}")


def _where(issue: dict[str, Any]) -> str:
    parts = []
    if issue.get("game"):
        parts.append(f"game {issue['game']}")
    if issue.get("move"):
        parts.append(f"move {issue['move']}")
    if issue.get("line"):
        parts.append(f"line {issue['line']}")
    return f"({', '.join(parts)}) " if parts else ""
