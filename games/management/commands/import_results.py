"""``python manage.py import_results --club SLUG FILE``: a club's past results.

Reads CSV (``date,winner,loser,length``) or a Markdown table
(``|Date|Winner|Loser|Length|``), one match per row in file order, and records them
as finished rated matches, then brings the club's ratings up to date. Rows that
cannot be read are listed with their line numbers and nothing is written.
"""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Club
from games.rules.errors import BoxcarsError
from games.rules.results_file import ResultsFileInvalid
from games.services import ratings as rating_services


class Command(BaseCommand):
    help = "Import a club's past results (CSV or Markdown table) and update its ratings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the results file")
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument(
            "--as-user",
            default=None,
            help="the director recorded as importer (default: the first of the club's)",
        )

    def handle(self, *args: object, **options: object) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"There is no club '{options['club']}'.")
        path: Path = options["file"]  # type: ignore[assignment]
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from exc
        user = self._importer(club, options.get("as_user"))  # type: ignore[arg-type]
        try:
            report = rating_services.import_results(user=user, club=club, text=text)
        except ResultsFileInvalid as exc:
            for error in exc.errors:
                self.stderr.write(f"{path}:{error.line}: {error.message}")
            raise CommandError(exc.message) from exc
        except BoxcarsError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {report.matches} matches ({report.first_date} to "
                f"{report.last_date}); {report.players_created} new players; "
                f"ratings of {club.slug} are up to date."
            )
        )

    def _importer(self, club: Club, username: str | None):
        if username:
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"There is no user '{username}'.")
            return user
        user = club.directors.order_by("pk").first()
        if user is None:
            raise CommandError(f"{club} has no director; pass --as-user.")
        return user
