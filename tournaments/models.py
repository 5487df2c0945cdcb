"""Tournaments: events, entries, stages, rounds and pairings (``docs/rules.md``, "Tournaments").

What is stored is what cannot be derived: the event's configuration, the entries and
their seeding order, the rounds with their match lengths, and one row per pairing
(its slot key from the pure bracket graph, its two entries or a bye, its
``games.Match`` and its recorded winner). Who advances where is re-derived from the
graph and the recorded winners by :mod:`tournaments.formats.bracket_engine` after
every result, so a correction re-derives everything downstream; standings are
computed, never stored.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from simple_history.models import HistoricalRecords

from games.rules import limits


class TournamentFormat(models.TextChoices):
    SINGLE_ELIMINATION = "single_elimination", "Single elimination"
    DOUBLE_ELIMINATION = "double_elimination", "Double elimination"
    SWISS = "swiss", "Swiss"
    ROUND_ROBIN = "round_robin", "Round robin"


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    REGISTRATION = "registration", "Registration open"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class SeedingMethod(models.TextChoices):
    RATING = "rating", "By rating"
    MANUAL = "manual", "Manual"
    RANDOM = "random", "Random draw"


class Tournament(models.Model):
    """An event of a club, with its format and every option the director chose.

    ``match_lengths`` is the schedule: ``{"default": 5, "rounds": {"main": {"1": 5,
    "-2": 7, "-1": 11}}}``; a negative round counts from the stage's last round (−1 is
    the final, −2 the semi-finals). ``bracket_order`` is the entry ids in seed order
    that the bracket (or the round-robin playoff) was drawn with.
    """

    club = models.ForeignKey("games.Club", on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=limits.MAX_LABEL)
    slug = models.SlugField(max_length=limits.MAX_TOURNAMENT_SLUG, unique=True)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    status = models.CharField(
        max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.DRAFT
    )
    format = models.CharField(max_length=20, choices=TournamentFormat.choices)
    consolation_from = models.JSONField(default=list, blank=True)
    last_chance_from = models.JSONField(default=list, blank=True)
    grand_final_reset = models.BooleanField(default=True)
    feed_orders = models.JSONField(default=list, blank=True)
    seeding = models.CharField(
        max_length=8, choices=SeedingMethod.choices, default=SeedingMethod.RATING
    )
    random_seed = models.PositiveIntegerField(default=0)
    tie_breaks = models.JSONField(default=list, blank=True)
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    max_losses = models.PositiveSmallIntegerField(null=True, blank=True)
    groups = models.PositiveSmallIntegerField(default=1)
    playoff_qualifiers = models.PositiveSmallIntegerField(default=0)
    match_lengths = models.JSONField(default=dict, blank=True)
    crawford = models.BooleanField(default=True)
    rated = models.BooleanField(default=True)
    bye_is_win = models.BooleanField(default=True)
    # elimination: the order finishing places are ranked and prizes go in, as steps
    # "main", "consolation:2", ... (tournaments.formats.places); empty: the default
    prize_order = models.JSONField(default=list, blank=True)
    bracket_order = models.JSONField(default=list, blank=True)
    # the consolation rounds that fed the last chance when the bracket was drawn: a drawn
    # bracket keeps that wiring (tournaments.formats.elimination, ``last_chance_drawn``)
    drawn_last_chance_from = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords(excluded_fields=["bracket_order", "drawn_last_chance_from"])

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "status"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament-detail", kwargs={"slug": self.slug})

    @property
    def etag(self) -> str:
        return f'"{self.version}"'

    @property
    def is_elimination(self) -> bool:
        return self.format in (
            TournamentFormat.SINGLE_ELIMINATION,
            TournamentFormat.DOUBLE_ELIMINATION,
        )


class EntryStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    WITHDRAWN = "withdrawn", "Withdrawn"


class Entry(models.Model):
    """A player's entry in an event; ``seed`` is 1-based once seeded."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=EntryStatus.choices, default=EntryStatus.ACTIVE
    )
    late = models.BooleanField(default=False)
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["tournament", "seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_entry")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class StageKind(models.TextChoices):
    MAIN = "main", "Main"
    CONSOLATION = "consolation", "Consolation"
    LAST_CHANCE = "last_chance", "Last chance"
    WINNERS = "winners", "Winners' bracket"
    LOSERS = "losers", "Losers' bracket"
    GRAND_FINAL = "grand_final", "Grand final"
    SWISS = "swiss", "Swiss"
    ROUND_ROBIN_GROUP = "round_robin", "Round robin group"
    PLAYOFF = "playoff", "Playoff"


class Stage(models.Model):
    """One bracket or phase of an event; ``group`` numbers round-robin groups."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    kind = models.CharField(max_length=12, choices=StageKind.choices)
    group = models.PositiveSmallIntegerField(default=0)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "order", "group"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "kind", "group"], name="unique_stage")
        ]

    def __str__(self) -> str:
        label = self.get_kind_display()
        return f"{label} {self.group}" if self.kind == StageKind.ROUND_ROBIN_GROUP else label


class RoundStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    PLAYING = "playing", "Playing"
    COMPLETE = "complete", "Complete"


class Round(models.Model):
    """A round of a stage with its match length; complete when its last match is."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    match_length = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10, choices=RoundStatus.choices, default=RoundStatus.PENDING
    )
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["stage", "number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="unique_round_per_stage")
        ]

    def __str__(self) -> str:
        return f"{self.stage} round {self.number}"


class PairingStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for players"
    READY = "ready", "Ready to play"
    PLAYED = "played", "Played"
    BYE = "bye", "Bye"
    EMPTY = "empty", "Empty"
    NOT_NEEDED = "not_needed", "Not needed"


class Pairing(models.Model):
    """A slot of a round: two entries (or one and a bye), its match, where players go.

    ``key`` is the slot's key in the pure bracket graph (``main-r2-m3``) or, for Swiss
    and round robin, ``swiss-r4-b7``; ``winner_to`` / ``loser_to`` are the keys of the
    slots the winner and loser play next. ``winner`` is the recorded result (from the
    match, or a walkover/forfeit without one). ``stale`` flags a pairing whose recorded
    result or match no longer fits after a correction: the director decides, nothing is
    deleted.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    key = models.CharField(max_length=40)
    slot = models.PositiveIntegerField()
    entry1 = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    entry2 = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=PairingStatus.choices, default=PairingStatus.WAITING
    )
    match = models.OneToOneField(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_pairing",
    )
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    forfeit = models.BooleanField(default=False)
    stale = models.BooleanField(default=False)
    stale_reason = models.CharField(max_length=200, blank=True)
    winner_to = models.CharField(max_length=40, blank=True)
    loser_to = models.CharField(max_length=40, blank=True)
    replaced_matches = models.JSONField(default=list, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="unique_pairing_key")
        ]

    def __str__(self) -> str:
        return f"{self.key} of {self.tournament_id}"

    @property
    def is_bye(self) -> bool:
        return self.status == PairingStatus.BYE
