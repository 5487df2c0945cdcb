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

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from core.history import BatchedHistoricalRecords
from core.validators import single_line
from games.rules import limits
from tournaments.formats import registry as format_registry
from tournaments.formats.registry import FormatSpec


class TournamentFormat(models.TextChoices):
    """The formats' keys and names, as stored; each is declared in
    :mod:`tournaments.formats.catalog` (``tests/tournaments/formats/test_registry.py``
    checks the two agree)."""

    SINGLE_ELIMINATION = "single_elimination", gettext_lazy("Single elimination")
    DOUBLE_ELIMINATION = "double_elimination", gettext_lazy("Double elimination")
    SWISS = "swiss", gettext_lazy("Swiss")
    N_LIVES = "n_lives", gettext_lazy("N lives Swiss")
    ROUND_ROBIN = "round_robin", gettext_lazy("Round robin")


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", gettext_lazy("Draft")
    REGISTRATION = "registration", gettext_lazy("Registration open")
    RUNNING = "running", gettext_lazy("Running")
    FINISHED = "finished", gettext_lazy("Finished")


class SeedingMethod(models.TextChoices):
    RATING = "rating", gettext_lazy("By rating")
    MANUAL = "manual", gettext_lazy("Manual")
    RANDOM = "random", gettext_lazy("Random draw")


class ClockPolicy(models.TextChoices):
    """Whether the event's matches use a clock (docs/clocks.md, "Policies")."""

    REQUIRED = "required", "Clocks required"
    ALLOWED = "allowed", "Clocks allowed"
    NONE = "none", "No clocks"


class Tournament(models.Model):
    """An event of a club, with its format and every option the director chose.

    ``match_lengths`` is the schedule: ``{"default": 5, "rounds": {"main": {"1": 5,
    "-2": 7, "-1": 11}}}``; a negative round counts from the stage's last round (−1 is
    the final, −2 the semi-finals). ``bracket_order`` is the entry ids in seed order
    that the bracket (or the round-robin playoff) was drawn with.
    """

    club = models.ForeignKey("games.Club", on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=limits.MAX_LABEL, validators=[single_line])
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
    # the game the event's matches are played as (games.rules.variants, or tavli's
    # rotation); every match of the event gets it. No ``choices``, as on Match.variant.
    variant = models.CharField(max_length=20, default="standard")
    bye_is_win = models.BooleanField(default=True)
    # a player who loses a main match by forfeit still plays the consolation / last chance
    # (off: the forfeiting player is out, their later slots are walkovers)
    forfeit_feeds_consolation = models.BooleanField(default=False)
    # the match clock (docs/clocks.md): policy, preset, and what a flag fall does
    clock_policy = models.CharField(
        max_length=10, choices=ClockPolicy.choices, default=ClockPolicy.ALLOWED
    )
    clock_preset = models.CharField(max_length=20, default="usbgf")
    clock_flag_rule = models.CharField(max_length=10, default="loss")
    clock_overtime_ms = models.PositiveIntegerField(default=60_000)
    # the clock policy per round, set before the draw (tournaments.formats.clock_plan):
    # [{"stage": "main", "from": -3, "policy": "required"}]; each round takes it when created
    clock_rounds = models.JSONField(default=list, blank=True)
    # elimination: the order finishing places are ranked and prizes go in, as steps
    # "main", "consolation:2", ... (tournaments.formats.places); empty: the default
    prize_order = models.JSONField(default=list, blank=True)
    bracket_order = models.JSONField(default=list, blank=True)
    # the consolation rounds that fed the last chance when the bracket was drawn: a drawn
    # bracket keeps that wiring (tournaments.formats.elimination, ``last_chance_drawn``)
    drawn_last_chance_from = models.JSONField(default=list, blank=True)
    # a capped field: registrations beyond it wait (tournaments.formats.waitlist); None: no cap
    capacity = models.PositiveIntegerField(null=True, blank=True)
    # players check in (phone or director) before the draw; no-shows are dropped
    check_in_required = models.BooleanField(default=False)
    # call a round (emails, push) as soon as the round before it is complete
    auto_call_rounds = models.BooleanField(default=False)
    # the room's tables this event draws from first (tournaments.services.tables); None: none
    table_first = models.PositiveSmallIntegerField(null=True, blank=True)
    table_last = models.PositiveSmallIntegerField(null=True, blank=True)
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
    def format_spec(self) -> FormatSpec:
        """The format's declaration (``tournaments.formats.registry``)."""
        return format_registry.spec(self.format)

    def format_options(self) -> dict[str, Any]:
        """The options the format reads, as its pure parts take them."""
        return {name: getattr(self, name) for name in self.format_spec.options}

    @property
    def is_elimination(self) -> bool:
        """A bracket drawn at the start (elimination), not rounds paired one by one."""
        return self.format_spec.is_bracket


class Room(models.Model):
    """A club's playing room: its name and how many numbered tables it has.

    Every event of the club draws its tables from this one room, so two live matches of
    two events never share a number (``tournaments.services.tables``). The row is also
    the lock those draws take in turn. A club has one room; it is made on first use,
    with no table count (numbers are then unbounded, as before rooms existed).
    """

    club = models.OneToOneField("games.Club", on_delete=models.CASCADE, related_name="room")
    name = models.CharField(max_length=limits.MAX_LABEL, blank=True, validators=[single_line])
    tables = models.PositiveSmallIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return self.name or str(self.club)


class EntryStatus(models.TextChoices):
    ACTIVE = "active", gettext_lazy("Active")
    WITHDRAWN = "withdrawn", gettext_lazy("Withdrawn")
    # a capped event's field is full: waits at ``waitlist_position`` to move up
    WAITLISTED = "waitlisted", gettext_lazy("Waitlisted")


class Entry(models.Model):
    """A player's entry in an event; ``seed`` is 1-based once seeded.

    ``checked_in_at`` is when the player (or a director) said they are in the room;
    ``waitlist_position`` (1 first) is set only while the entry is waitlisted.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=EntryStatus.choices, default=EntryStatus.ACTIVE
    )
    late = models.BooleanField(default=False)
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    waitlist_position = models.PositiveIntegerField(null=True, blank=True)

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
    MAIN = "main", gettext_lazy("Main")
    CONSOLATION = "consolation", gettext_lazy("Consolation")
    LAST_CHANCE = "last_chance", gettext_lazy("Last chance")
    WINNERS = "winners", gettext_lazy("Winners' bracket")
    LOSERS = "losers", gettext_lazy("Losers' bracket")
    GRAND_FINAL = "grand_final", gettext_lazy("Grand final")
    SWISS = "swiss", gettext_lazy("Swiss")
    ROUND_ROBIN_GROUP = "round_robin", gettext_lazy("Round robin group")
    PLAYOFF = "playoff", gettext_lazy("Playoff")


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
    PENDING = "pending", gettext_lazy("Pending")
    PLAYING = "playing", gettext_lazy("Playing")
    COMPLETE = "complete", gettext_lazy("Complete")


class Round(models.Model):
    """A round of a stage with its match length; complete when its last match is."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    match_length = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10, choices=RoundStatus.choices, default=RoundStatus.PENDING
    )
    completed_at = models.DateTimeField(null=True, blank=True)
    # blank: the event's policy; a round may require clocks (the final) or drop them
    clock_policy = models.CharField(max_length=10, choices=ClockPolicy.choices, blank=True)

    class Meta:
        ordering = ["stage", "number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="unique_round_per_stage")
        ]

    def __str__(self) -> str:
        return f"{self.stage} round {self.number}"


class PairingStatus(models.TextChoices):
    WAITING = "waiting", gettext_lazy("Waiting for players")
    READY = "ready", gettext_lazy("Ready to play")
    PLAYED = "played", gettext_lazy("Played")
    BYE = "bye", gettext_lazy("Bye")
    EMPTY = "empty", gettext_lazy("Empty")
    NOT_NEEDED = "not_needed", gettext_lazy("Not needed")


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

    # a result that moves players on saves up to three slots: inside the score entry's
    # history_in_bulk their audit rows go with the match's, in one statement
    history = BatchedHistoricalRecords()

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


class OddsSnapshot(models.Model):
    """The event odds computed after a burst of results (``tournaments.services.odds``).

    One row per computation, so the odds page can draw how the leaders' chances moved
    through the evening. ``version`` is the tournament's version the odds were computed
    from (a redelivered job finds its snapshot and writes none); ``results`` counts the
    decided matches then. ``entries`` holds, per entry id, ``win``, ``final`` (or null)
    and ``places`` (one probability per label of ``places``, in the event's order).
    ``simulations`` is 0 when the odds were enumerated exactly.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="odds_snapshots"
    )
    computed_at = models.DateTimeField()
    version = models.PositiveIntegerField()
    results = models.PositiveIntegerField()
    method = models.CharField(max_length=20)
    simulations = models.PositiveIntegerField()
    standard_error = models.FloatField()
    places = models.JSONField(default=list)
    entries = models.JSONField(default=dict)

    class Meta:
        ordering = ["tournament", "computed_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "version"], name="unique_odds_per_tournament_version"
            )
        ]

    def __str__(self) -> str:
        return f"odds of {self.tournament_id} at v{self.version}"


class RoundCall(models.Model):
    """A round called to play: when, by whom (None: called automatically), and
    whether its notices were sent (``tournaments.services.calls``).

    One per round: calling is the moment the clock of late penalties starts.
    """

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="call")
    called_at = models.DateTimeField()
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    automatic = models.BooleanField(default=False)

    class Meta:
        ordering = ["called_at", "id"]

    def __str__(self) -> str:
        return f"call of {self.round}"


class CallNotice(models.Model):
    """One notice of a call to one player by one channel: the idempotency record.

    The notifying job writes the row before it sends and marks it ``sent_at`` after,
    each in its own transaction, so a retried job skips what was sent: one email per
    player per call.
    """

    class Channel(models.TextChoices):
        EMAIL = "email", "Email"
        PUSH = "push", "Web push"

    call = models.ForeignKey(RoundCall, on_delete=models.CASCADE, related_name="notices")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["call", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["call", "match", "player", "channel"], name="one_notice_per_player_channel"
            )
        ]

    def __str__(self) -> str:
        return f"{self.channel} to {self.player_id} for {self.call_id}"


class LatePenalty(models.Model):
    """A late penalty a director applied (the UKBGF rule, ``formats.late_penalty``).

    ``points`` went to ``awarded_to`` through the match's score (``game`` is the
    penalty's row on the score sheet); ``match_lost`` means the late player forfeited
    the match instead. ``minutes_late`` is the time since the call when applied.
    """

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="late_penalties")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    late_player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    awarded_to = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    points = models.PositiveSmallIntegerField()
    match_lost = models.BooleanField(default=False)
    minutes_late = models.PositiveIntegerField()
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "late penalties"
        ordering = ["match", "applied_at", "id"]

    def __str__(self) -> str:
        return f"late penalty of {self.late_player_id} in {self.match_id}"


class PushSubscription(models.Model):
    """A browser's web-push subscription (the player allowed notifications).

    ``endpoint``, ``p256dh`` and ``auth`` are what the browser's ``PushManager`` hands
    out; a subscription the push service reports gone (404/410) is deleted.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=500, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "id"]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


# The federation exports' club addresses live beside their code (tournaments/federation/).
from .federation.models import FederationAddress, FederationExport  # noqa: E402, F401
