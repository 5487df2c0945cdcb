"""What an analysis stores: the match's analysis, each player's figures, each decision.

A match has at most one current analysis (``MatchAnalysis``, one row per match);
analysing again, at another depth or after the transcript changed, replaces its
decisions and figures in one transaction. The history tables (django-simple-history)
keep every earlier version of the analysis and of each player's figures.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from games.models import Club, Match, Player

DEFAULT_PLIES = 2
MAX_PLIES = 3


class ClubAnalysisSettings(models.Model):
    """A club's analysis settings: analyse imported transcripts automatically or on
    request, and at which depth (0-ply is fast, 2-ply the default)."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="analysis_settings")
    automatic = models.BooleanField(
        default=True, help_text="Analyse every imported transcript as soon as it is imported."
    )
    plies = models.PositiveSmallIntegerField(
        default=DEFAULT_PLIES, help_text="Depth of gnubg's evaluation: 0 (fast) to 3."
    )
    min_decisions = models.PositiveIntegerField(
        default=200, help_text="Decisions a player needs to appear on the club's PR list."
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "club analysis settings"

    def __str__(self) -> str:
        return f"analysis settings of {self.club}"


class MatchAnalysis(models.Model):
    """The current analysis of a match (its transcript) by gnubg at ``plies``."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis")
    plies = models.PositiveSmallIntegerField()
    engine = models.CharField(max_length=60)
    transcript_hash = models.CharField(max_length=64)
    decisions_count = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0.0, help_text="How long gnubg took.")
    analysed_at = models.DateTimeField()

    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "match analyses"

    def __str__(self) -> str:
        return f"analysis of {self.match} at {self.plies}-ply"


class PlayerAnalysis(models.Model):
    """One player's figures in one analysed match (gnubg's statistics, XG's PR)."""

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="players")
    side = models.PositiveSmallIntegerField(help_text="0 = player 1, 1 = player 2")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="analyses")
    moves = models.PositiveIntegerField()
    unforced_moves = models.PositiveIntegerField()
    cube_decisions = models.PositiveIntegerField()
    close_cube_decisions = models.PositiveIntegerField()
    decisions = models.PositiveIntegerField(help_text="Unforced moves + close cube decisions.")
    checker_error = models.FloatField(help_text="EMG")
    cube_error = models.FloatField(help_text="EMG")
    total_error = models.FloatField(help_text="EMG")
    error_rate = models.FloatField(help_text="mEMG per decision (gnubg)")
    pr = models.FloatField(help_text="XG's Performance Rating")
    luck = models.FloatField(help_text="EMG")
    luck_rate = models.FloatField(help_text="mEMG per move (gnubg)")
    doubtful = models.PositiveIntegerField()
    errors = models.PositiveIntegerField()
    blunders = models.PositiveIntegerField()
    rating = models.CharField(max_length=30, help_text="gnubg's words for the error rate")
    luck_rating = models.CharField(max_length=30)

    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["analysis", "side"], name="one_figure_row_per_side")
        ]
        indexes = [models.Index(fields=["player", "analysis"])]

    def __str__(self) -> str:
        return f"{self.player} PR {self.pr:.1f}"


class DecisionKind(models.TextChoices):
    CHECKER = "checker", gettext_lazy("Checker play")
    NO_DOUBLE = "no_double", gettext_lazy("No double")
    DOUBLE = "double", gettext_lazy("Double")
    TAKE = "take", gettext_lazy("Take")
    PASS = "pass", gettext_lazy("Pass")


class Decision(models.Model):
    """One decision of one player: the position, the roll, what was played, the best."""

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="decisions")
    game = models.PositiveSmallIntegerField()
    index = models.PositiveSmallIntegerField(help_text="The action's place in its game")
    side = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=DecisionKind.choices)
    position_id = models.CharField(max_length=14, help_text="gnubg position ID, decider on roll")
    match_id = models.CharField(max_length=12, help_text="gnubg match ID")
    dice = models.CharField(max_length=2, blank=True)
    score1 = models.PositiveSmallIntegerField()
    score2 = models.PositiveSmallIntegerField()
    crawford = models.BooleanField(default=False)
    cube_value = models.PositiveIntegerField(default=1)
    cube_owner = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="0 = player 1, 1 = player 2, empty = centred"
    )
    played = models.CharField(max_length=40)
    best = models.CharField(max_length=40)
    played_equity = models.FloatField()
    best_equity = models.FloatField()
    loss = models.FloatField(db_index=True)
    counted = models.BooleanField(help_text="Unforced, or a close or actual cube decision")
    mark = models.CharField(max_length=10, blank=True)
    luck = models.FloatField(null=True, blank=True)
    no_double = models.FloatField(null=True, blank=True)
    double_take = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["game", "index", "id"]
        indexes = [models.Index(fields=["analysis", "-loss"])]

    def __str__(self) -> str:
        return f"game {self.game} #{self.index} {self.kind} loss {self.loss:.3f}"


class SupersededAnalysis(models.Model):
    """An earlier analysis of a match that a re-analysis replaced, kept whole and cheaply.

    The figures' history lives in ``PlayerAnalysis.history``, but a decision row per
    historical version would double what every analysis writes (about 200 rows a
    match). The replaced decisions are few and only ever read together, so a
    re-analysis keeps them as one row: every decision as it was stored (one JSON object
    per row, the ``Decision`` fields) and both players' figures. A first analysis writes
    nothing here.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="superseded_analyses")
    plies = models.PositiveSmallIntegerField()
    engine = models.CharField(max_length=60)
    transcript_hash = models.CharField(max_length=64)
    analysed_at = models.DateTimeField()
    superseded_at = models.DateTimeField()
    decisions_count = models.PositiveIntegerField()
    decisions = models.JSONField(help_text="The replaced Decision rows, in their order.")
    figures = models.JSONField(help_text="The replaced PlayerAnalysis rows, by side.")

    class Meta:
        ordering = ["-superseded_at", "-id"]
        verbose_name_plural = "superseded analyses"

    def __str__(self) -> str:
        return f"earlier analysis of {self.match} at {self.plies}-ply"
