"""Load demo data for a local start: idempotent, safe to run on every ``make run``."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from core.demo import demo_seeders
from games.models import Club, Player
from games.services import clubs as club_services

DEMO_USERNAME = "director"
DEMO_PASSWORD = "boxcars-demo"
DEMO_PLAYERS = [
    "Alice Archer",
    "Bruno Bianchi",
    "Chen Wei",
    "Dana Doyle",
    "Emre Yilmaz",
    "Freya Falk",
    "Gus Grant",
    "Hana Sato",
    "Ivan Petrov",
    "Jun Park",
    "Kira Novak",
    "Lars Lund",
    "Mia Moreau",
]


class Command(BaseCommand):
    help = "Create the demo club, its director and players (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000/",
            help="The address the server will answer at, for the closing line "
            "(make run passes its HOST and PORT).",
        )

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        club = Club.objects.filter(slug="demo").first() or club_services.create_club(
            created_by=user,
            name="Demo Backgammon Club",
            slug="demo",
            description="A club to try Boxcars with: its players, matches and events.",
        )
        for name in DEMO_PLAYERS:
            if not Player.objects.filter(display_name=name, clubs=club).exists():
                club_services.create_player(display_name=name, clubs=[club])
        for _name, seed in demo_seeders():  # every app's own demo content (core.demo)
            seed(club=club, director=user, stdout=self.stdout)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ready: {options['url']} - log in at /accounts/login/ "
                f"as '{DEMO_USERNAME}' with password '{DEMO_PASSWORD}' (also /admin/)."
            )
        )
