"""Rating lists (one per club plus one site-wide), each player's rating on a list, and
every change a rated match made to it (docs/rules.md, "Ratings: the FIBS formula").

Matches are applied to a list in a fixed order: by ``finished_at``, then by match id.
``RatingList.applied_at`` / ``applied_match_id`` remember the last match applied, so
an update that arrives out of that order is recognised and replayed in order.
"""

from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy

from .clubs import Club, Player, RatingBoost
from .matches import Match

SITE_INITIAL_RATING = 1500


class RatingListKind(models.TextChoices):
    SITE = "site", gettext_lazy("Site-wide")
    CLUB = "club", gettext_lazy("Club")


class RatingList(models.Model):
    """A list of ratings with its own policy: a club's (the club's rating policy) or
    the site-wide one (start 1500, the FIBS boost).

    A club keeps one list per variant it rates (``Club.rated_variants``); the standard
    list holds the English game alone, so no variant's result ever moves it. The
    site-wide list is the English game's only.
    """

    kind = models.CharField(max_length=4, choices=RatingListKind.choices)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="rating_lists"
    )
    # a key of games.rules.variants (or a rotation such as tavli); no ``choices``, as on
    # Match.variant, so a new variant needs no migration
    variant = models.CharField(max_length=20, default="standard")
    applied_at = models.DateTimeField(null=True, blank=True)
    applied_match_id = models.BigIntegerField(null=True, blank=True)
    recomputed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind"], condition=models.Q(kind="site"), name="one_site_rating_list"
            ),
            models.CheckConstraint(
                condition=(models.Q(kind="site", club__isnull=True))
                | (models.Q(kind="club", club__isnull=False)),
                name="rating_list_kind_matches_club",
            ),
            models.UniqueConstraint(
                fields=["club", "variant"],
                condition=models.Q(kind="club"),
                name="one_rating_list_per_club_variant",
            ),
            models.CheckConstraint(
                condition=models.Q(kind="club") | models.Q(variant="standard"),
                name="site_rating_list_is_standard",
            ),
        ]

    def __str__(self) -> str:
        if self.club_id is None:
            return "Site-wide ratings"
        if self.variant != "standard":
            return f"Ratings of {self.club} ({self.variant})"
        return f"Ratings of {self.club}"

    @property
    def initial_rating(self) -> float:
        return float(self.club.rating_initial if self.club is not None else SITE_INITIAL_RATING)

    @property
    def boost(self) -> str:
        return self.club.rating_boost if self.club is not None else RatingBoost.FIBS


class Rating(models.Model):
    """A player's current standing on one list."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    rating = models.FloatField()
    experience = models.PositiveIntegerField(default=0)
    matches_played = models.PositiveIntegerField(default=0)
    last_change = models.FloatField(default=0.0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "player"], name="one_rating_per_list")
        ]
        indexes = [models.Index(fields=["rating_list", "-rating"], name="rating_list_order")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.rating:.2f} on list {self.rating_list_id}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating on one list (the audit trail).

    The unique constraint on (list, match, player) is what makes applying a match
    exactly once per list a database fact rather than a hope.
    """

    # No database-level foreign keys here: a full recomputation writes two rows per
    # match (two million for a large list) and PostgreSQL would check and key-share
    # lock four referenced rows for each at commit, which doubled its time. The rows
    # are derived and rewritten under the list lock from rows read in the same
    # transaction; deletions still cascade through the ORM. Single-column indexes are
    # left out too: the composite indexes below serve every query, and each index is
    # another write per row.
    rating_list = models.ForeignKey(
        RatingList,
        on_delete=models.CASCADE,
        related_name="changes",
        db_constraint=False,
        db_index=False,
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    match = models.ForeignKey(
        Match,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    opponent = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    won = models.BooleanField()
    length = models.PositiveSmallIntegerField()
    at = models.DateTimeField(help_text="When the match finished: the order of the list.")
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    change = models.FloatField()
    experience_before = models.PositiveIntegerField()
    experience_after = models.PositiveIntegerField()

    class Meta:
        ordering = ["at", "match_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["rating_list", "match", "player"], name="match_applied_once_per_list"
            )
        ]
        indexes = [
            models.Index(fields=["rating_list", "player", "at"], name="rating_history"),
            models.Index(fields=["rating_list", "at"], name="rating_change_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.change:+.2f} (match {self.match_id})"

    def get_absolute_url(self) -> str:
        return reverse("match-detail", kwargs={"pk": self.match_id})
