"""``python manage.py simulate_event --format swiss --players 40 --json``.

Runs a throwaway event through the real services in a temporary club and prints what
happened (see :mod:`tournaments.simulation`); rolled back unless ``--keep``.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.rules.errors import BoxcarsError
from tournaments.models import TournamentFormat
from tournaments.simulation import SimulationOptions, simulate_event


class Command(BaseCommand):
    help = "Simulate a whole tournament with rating-weighted random results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", required=True, choices=TournamentFormat.values)
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, default=None, help="Swiss rounds")
        parser.add_argument("--consolation", action="store_true")
        parser.add_argument("--last-chance", action="store_true")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--length", type=int, default=3, help="match length")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--keep", action="store_true", help="keep the event and club")

    def handle(self, *args: Any, **options: Any) -> None:
        if not 2 <= options["players"] <= 2048:
            raise CommandError("--players must be between 2 and 2048.")
        if options["last_chance"] and not options["consolation"]:
            raise CommandError("--last-chance needs --consolation.")
        try:
            report = simulate_event(
                SimulationOptions(
                    format=options["format"],
                    players=options["players"],
                    rounds=options["rounds"],
                    consolation=options["consolation"],
                    last_chance=options["last_chance"],
                    seed=options["seed"],
                    keep=options["keep"],
                    match_length=options["length"],
                )
            )
        except BoxcarsError as error:  # e.g. a last chance too small to be played
            raise CommandError(f"{error.code}: {error.message}") from error
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(
            f"{report['format']}: {report['players']} players, {len(report['matches'])} "
            f"pairings over {report['rounds']} rounds, {report['byes']} byes, "
            f"{report['rematches']} rematches; champion player {report['champion']} "
            f"({report['seconds']} s)"
        )
