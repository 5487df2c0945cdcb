"""Clubs and the players who belong to them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from core.club_zones import default_time_zone, validate_time_zone
from core.languages import default_language, validate_language
from core.validators import single_line
from games.met_tables import CHOOSABLE_TABLES, DEFAULT_TABLE
from games.rules import limits


class RatingBoost(models.TextChoices):
    """The experience boost of a rating list (docs/rules.md, "Ratings: the FIBS formula")."""

    FIBS = "fibs", gettext_lazy("FIBS (K = max(1, 5 − E/100), E before the match)")
    FIBS_INCLUDING_MATCH = "fibs_including_match", gettext_lazy("FIBS, counting the current match")
    NONE = "none", gettext_lazy("None (K = 1)")


class Club(models.Model):
    """A backgammon club: it runs events and chouettes and keeps its own rating list."""

    name = models.CharField(max_length=limits.MAX_CLUB_NAME, validators=[single_line])
    slug = models.SlugField(max_length=limits.MAX_CLUB_SLUG, unique=True)
    description = models.TextField(blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_clubs", blank=True
    )
    rating_initial = models.PositiveIntegerField(default=1500)
    rating_boost = models.CharField(
        max_length=24, choices=RatingBoost.choices, default=RatingBoost.FIBS
    )
    match_equity_table = models.CharField(
        max_length=40,
        choices=list(CHOOSABLE_TABLES.items()),
        default=DEFAULT_TABLE,
        help_text="The match equity table the club's winning chances read "
        "(docs/chances.md); Kazaross-XG2 unless the club chose another.",
    )
    time_zone = models.CharField(
        max_length=64,
        default=default_time_zone,
        validators=[validate_time_zone],
        help_text="The club's IANA time zone (Europe/Copenhagen): its pages show every "
        "time in it; times are stored in UTC.",
    )
    language = models.CharField(
        max_length=8,
        default=default_language,
        validators=[validate_language],
        help_text="The language of the club's emails and push messages to players who "
        "chose none (one of settings.LANGUAGES).",
    )
    # The variants (and rotations, such as tavli) the club rates, each on a list of its
    # own; a variant not named here is unrated (the UKBGF leaves nackgammon unrated).
    # The English game is always rated on the club's standard list, never with these.
    rated_variants = models.JSONField(
        default=list,
        blank=True,
        help_text="Variant keys the club keeps a rating list of, one list each; the "
        "others are unrated (docs/ratings.md).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club-detail", kwargs={"slug": self.slug})


class Player(models.Model):
    """A person who plays: with or without an account, in any number of clubs."""

    display_name = models.CharField(max_length=limits.MAX_PLAYER_NAME, validators=[single_line])
    slug = models.SlugField(max_length=limits.MAX_PLAYER_SLUG, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    email = models.EmailField(max_length=limits.MAX_EMAIL, blank=True, default="")
    language = models.CharField(
        max_length=8,
        blank=True,
        default="",
        validators=[validate_language],
        help_text="The language of the emails and push messages this player gets; "
        "empty ('') for their club's. Set by the language picker when they are signed in.",
    )
    declared_rating = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The rating a walk-in gave when added. Seeding uses it until the player "
        "has a rating on the club's list; rated play always starts from the list's "
        "initial rating, so a declared rating never changes the rating list itself.",
    )
    public_results = models.BooleanField(
        default=True,
        help_text="Whether the player's page lists their past events and places to "
        "everyone. Off: only the player and their clubs' directors see them there (the "
        "events' own pages still list their entrants, as a posted results sheet does).",
    )
    clubs: models.ManyToManyField[Club, Membership] = models.ManyToManyField(
        Club, through="Membership", related_name="players"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sign_in_code_issued_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a director last printed this player's one-time sign-in code; the "
        "code is refused settings.SIGN_IN_CODE_DAYS after it (games.services.invitations). "
        "Cleared once the code is used.",
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["display_name"]

    def __str__(self) -> str:
        return self.display_name

    def get_absolute_url(self) -> str:
        return reverse("player-detail", kwargs={"slug": self.slug})


class Membership(models.Model):
    """A player's membership of a club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="unique_membership")]

    def __str__(self) -> str:
        return f"{self.player} in {self.club}"
