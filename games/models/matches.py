"""Matches and their games and disputes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from core.history import BatchedHistoricalRecords
from core.validators import single_line
from games.rules import limits, variants

from .clubs import Club, Player

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class MatchStatus(models.TextChoices):
    SCHEDULED = "scheduled", gettext_lazy("Scheduled")
    IN_PROGRESS = "in_progress", gettext_lazy("In progress")
    FINISHED = "finished", gettext_lazy("Finished")
    FORFEIT = "forfeit", gettext_lazy("Forfeit")
    VOID = "void", gettext_lazy("Void")


class MatchSource(models.TextChoices):
    ENTERED = "entered", gettext_lazy("Entered")
    IMPORTED = "imported", gettext_lazy("Imported")


class Confirmation(models.TextChoices):
    """Where the participants stand on what has been entered so far."""

    NONE = "none", gettext_lazy("Nothing to confirm")
    PENDING = "pending", gettext_lazy("Awaiting the opponent's confirmation")
    CONFIRMED = "confirmed", gettext_lazy("Confirmed")
    DISPUTED = "disputed", gettext_lazy("Disputed")


class Match(models.Model):
    """A match between two players to ``length`` points (0 = an unlimited session).

    The score, the winner and the status are derived from the games by the rules in
    ``games.rules.scoring`` and kept in step by the services; ``version`` grows with
    every change and is the ETag clients send back in ``If-Match``.
    """

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="matches")
    player1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    length = models.PositiveSmallIntegerField()
    crawford = models.BooleanField(default=True)
    cube_limit = models.PositiveIntegerField(null=True, blank=True)
    # No ``choices``: the registry (games.rules.variants) is the list, checked by the
    # rules (``MatchRules``), so a new variant needs no migration.
    variant = models.CharField(
        max_length=20,
        default=variants.DEFAULT,
        help_text="The game played: its levels, cube and Crawford rule.",
    )
    rated = models.BooleanField(default=True)
    status = models.CharField(
        max_length=12, choices=MatchStatus.choices, default=MatchStatus.SCHEDULED
    )
    source = models.CharField(
        max_length=10, choices=MatchSource.choices, default=MatchSource.ENTERED
    )
    score1 = models.PositiveIntegerField(default=0)
    score2 = models.PositiveIntegerField(default=0)
    winner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    final_score_only = models.BooleanField(
        default=False, help_text="Recorded as a final score, with no game detail."
    )
    confirmation = models.CharField(
        max_length=10, choices=Confirmation.choices, default=Confirmation.NONE
    )
    awaiting = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The participant whose confirmation is awaited.",
    )
    version = models.PositiveIntegerField(default=1)
    label = models.CharField(max_length=limits.MAX_LABEL, blank=True, validators=[single_line])
    table = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The table it is played at in the room (a tournament numbers its rounds' "
        "matches in board order; the director may change it).",
    )
    played_on = models.DateField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    transcript = models.TextField(blank=True)
    transcript_hash = models.CharField(max_length=64, blank=True, db_index=True)

    history = BatchedHistoricalRecords()  # a score entry writes it in bulk

    #: The games' ``values()`` a write has just read and written (``record_game``),
    #: so its answer renders them without reading them again; None: not read.
    game_rows: list[dict[str, object]] | None = None
    # set on the instance before a save: django-simple-history records them with it
    _change_reason: str
    _history_user: User | None

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["club", "status"]),
            models.Index(fields=["player1", "status"]),
            models.Index(fields=["player2", "status"]),
            # The rating replay's read: a club list's rated matches in list order,
            # straight from the index (no sort of a million rows, no heap visits once
            # the table is vacuumed). Same predicate as ``ratings.lists.rated_matches``.
            models.Index(
                fields=["club", "finished_at", "id"],
                include=["player1", "player2", "winner", "length"],
                condition=models.Q(
                    status=MatchStatus.FINISHED,
                    rated=True,
                    length__gte=1,
                    winner__isnull=False,
                    finished_at__isnull=False,
                ),
                name="match_rated_in_list_order",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player1=models.F("player2")), name="match_two_players"
            )
        ]

    def __str__(self) -> str:
        length = f"{self.length}-point" if self.length else "unlimited"
        return f"{self.player1} v {self.player2} ({length})"

    def get_absolute_url(self) -> str:
        return reverse("match-detail", kwargs={"pk": self.pk})

    @property
    def etag(self) -> str:
        return f'"{self.version}"'

    def side_of(self, player: Player | None) -> int | None:
        """0 for player1, 1 for player2, None for anyone else."""
        if player is None:
            return None
        if player.pk == self.player1_id:
            return 0
        if player.pk == self.player2_id:
            return 1
        return None

    def player_at(self, side: int) -> Player:
        return self.player1 if side == 0 else self.player2


class GameLevel(models.TextChoices):
    """How much a game is won by (before the cube); shared by matches and chouettes."""

    SINGLE = "single", gettext_lazy("Single")
    GAMMON = "gammon", gettext_lazy("Gammon")
    BACKGAMMON = "backgammon", gettext_lazy("Backgammon")


class Game(models.Model):
    """One game of a match, in order. Points are derived from cube × level by the rules."""

    class CubeOwner(models.TextChoices):
        CENTRE = "centre", gettext_lazy("Centre")
        PLAYER1 = "player1", gettext_lazy("Player 1")
        PLAYER2 = "player2", gettext_lazy("Player 2")
        # a turned cube whose owner the score sheet did not record (it changes no score)
        UNKNOWN = "unknown", gettext_lazy("Not recorded")

    Level = GameLevel

    class Ending(models.TextChoices):
        PLAYED = "played", gettext_lazy("Played out")
        DROPPED = "dropped", gettext_lazy("Double dropped")
        RESIGNED = "resigned", gettext_lazy("Resigned")
        # the loser resigned the match (imported transcripts): the last game, worth the
        # points the winner needed; see games.rules.scoring
        MATCH_RESIGNED = "match_resigned", gettext_lazy("Match resigned")
        # penalty points for lateness, awarded by a director (games.services.penalties):
        # a scored entry among the games, never a game itself
        LATE_PENALTY = "late_penalty", gettext_lazy("Late penalty")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    cube = models.PositiveIntegerField(default=1)
    cube_owner = models.CharField(max_length=8, choices=CubeOwner.choices, default=CubeOwner.CENTRE)
    ending = models.CharField(max_length=16, choices=Ending.choices, default=Ending.PLAYED)
    level = models.CharField(max_length=10, choices=Level.choices, default=Level.SINGLE)
    points = models.PositiveIntegerField()
    score1_before = models.PositiveIntegerField()
    score2_before = models.PositiveIntegerField()
    crawford = models.BooleanField(default=False)
    post_crawford = models.BooleanField(default=False)
    entered_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed = models.BooleanField(default=False)
    moves = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    history = BatchedHistoricalRecords()

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_game_number")
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of {self.match_id}"


# What a player or director may enter game by game: a resigned match comes only from
# an imported transcript (a director awards an unfinished match by forfeit instead), and
# a late penalty only from the director's late-penalty action.
HAND_ENTRY_ENDINGS = [
    (value, label)
    for value, label in Game.Ending.choices
    if value not in (Game.Ending.MATCH_RESIGNED, Game.Ending.LATE_PENALTY)
]


class Dispute(models.Model):
    """A participant's objection to what the opponent entered; directors resolve it."""

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Open")
        RESOLVED = "resolved", gettext_lazy("Resolved")

    class Decision(models.TextChoices):
        """What the director ruled; the players see it with the note (``resolution``)."""

        KEEP = "keep", gettext_lazy("Result kept as entered")
        CORRECTED = "corrected", gettext_lazy("Result corrected")
        VOID = "void", gettext_lazy("Match voided")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="disputes")
    raised_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    resolution = models.TextField(blank=True, help_text="The director's note to the players.")
    decision = models.CharField(max_length=10, choices=Decision.choices, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    #: when the club's directors were told (``games.dispute_notices``); None: not yet
    directors_notified_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Dispute on match {self.match_id} ({self.status})"
