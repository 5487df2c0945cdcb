"""Factories for test data, built through the services where rules apply.

Tests build objects here, not by hand with ``Model.objects.create``: a match goes through
``create_match`` (its rules run), a token through knox's own manager, and the rows the
services would have left behind (ratings, a job, an analysis) get sensible defaults so a
test names only what it is about.
"""

from __future__ import annotations

from typing import Any, cast

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import signing
from django.utils import timezone
from knox.models import AuthToken

from analysis.models import MatchAnalysis, PlayerAnalysis
from core.models import Job
from games.models import Club, Match, Membership, Player, Rating, RatingList
from games.rules.addresses import normalize
from games.services import addresses, match_create
from games.services.actors import actor_for_user


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "pw-for-tests-1")


class ClubFactory(factory.django.DjangoModelFactory[Club]):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"Player {n}")
    slug = factory.Sequence(lambda n: f"player-{n}")


def confirm_address(club: Club, email: str) -> None:
    """The owner of ``email`` followed the club's link: ``club`` may mail it from now on.

    Through the service the link's page calls (``confirm_club_link``), with the token the
    link would carry, so nothing is mailed and the test's outbox holds only its own."""
    token = signing.dumps(
        {"c": club.pk, "n": normalize(email), "e": email.strip()}, salt=addresses.CLUB_SALT
    )
    addresses.confirm_club_link(token=token)


def confirm_players(club: Club, *players: Player) -> None:
    """:func:`confirm_address` for each player's address (those with one)."""
    for player in players:
        if player.email:
            confirm_address(club, player.email)


def member(club: Club, player: Player | None = None, **kwargs) -> Player:
    player = player or cast(Player, PlayerFactory(**kwargs))  # factory_boy returns a Player
    Membership.objects.get_or_create(club=club, player=player)
    return player


class MatchFactory(factory.django.DjangoModelFactory[Match]):
    """A match of two members of a club, created by ``create_match`` (its rules run) as
    ``by`` (default: a site admin, who directs every club)."""

    class Meta:
        model = Match

    club = factory.SubFactory(ClubFactory)
    player1 = factory.LazyAttribute(lambda o: member(o.club))
    player2 = factory.LazyAttribute(lambda o: member(o.club))
    length = 5
    by = factory.SubFactory(
        UserFactory, username="site-admin", is_superuser=True, is_staff=True, password=None
    )

    @classmethod
    def _create(cls, model_class: type[Match], *args: Any, **kwargs: Any) -> Match:
        actor = actor_for_user(kwargs.pop("by"))
        return match_create.create_match(actor=actor, **kwargs)


class RatingListFactory(factory.django.DjangoModelFactory[RatingList]):
    """A club's rating list (one per club: asking twice gives the same list)."""

    class Meta:
        model = RatingList
        django_get_or_create = ("kind", "club")

    kind = "club"
    club = factory.SubFactory(ClubFactory)


class RatingFactory(factory.django.DjangoModelFactory[Rating]):
    """A player's rating on a list, as rated matches would have left it."""

    class Meta:
        model = Rating

    rating_list = factory.SubFactory(RatingListFactory)
    player = factory.SubFactory(PlayerFactory)
    rating = 1500.0


class JobFactory(factory.django.DjangoModelFactory[Job]):
    """A queued job row, for tests that run a job's body or its bookkeeping directly."""

    class Meta:
        model = Job

    kind = "test.job"


class MatchAnalysisFactory(factory.django.DjangoModelFactory[MatchAnalysis]):
    """Stored figures of an analysed match (what the analysis job writes)."""

    class Meta:
        model = MatchAnalysis

    match = factory.SubFactory(MatchFactory)
    plies = 0
    engine = "test"
    transcript_hash = "-"
    analysed_at = factory.LazyFunction(timezone.now)


class PlayerAnalysisFactory(factory.django.DjangoModelFactory[PlayerAnalysis]):
    """One side's figures in an analysis; ``pr`` sets the error figures consistently
    (``pr`` is the error per decision times 500, over 55 decisions)."""

    class Meta:
        model = PlayerAnalysis

    analysis = factory.SubFactory(MatchAnalysisFactory)
    side = 0
    player = factory.LazyAttribute(lambda o: o.analysis.match.player_at(o.side))
    pr = 0.0
    moves = 60
    unforced_moves = 50
    cube_decisions = 10
    close_cube_decisions = 5
    decisions = 55
    checker_error = factory.LazyAttribute(lambda o: o.pr * o.decisions / 500)
    cube_error = 0
    total_error = factory.LazyAttribute(lambda o: o.pr * o.decisions / 500)
    error_rate = factory.LazyAttribute(lambda o: 2 * o.pr)
    luck = 0
    luck_rate = 0
    doubtful = 0
    errors = 0
    blunders = 0
    rating = ""
    luck_rating = ""


def token_for(user: User, **kwargs: Any) -> tuple[AuthToken, str]:
    """A knox API token for ``user`` (the instance and the clear token), as sign-in makes."""
    instance, token = AuthToken.objects.create(user, **kwargs)
    return instance, token
