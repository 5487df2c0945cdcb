"""A match's clock and the log of the turns its players reported (docs/clocks.md).

The browser shows the time (games.rules.clock is the rule it mirrors); these rows keep
the server's truth: the settings, each player's reserve left after the last accepted
turn, whose time runs and since when by the server's own clock (``running_since``,
plus ``running_used_ms`` of the same turn before a pause), and one row per accepted
turn, so the remaining time stands with the result, a reload (or a second device)
resumes from it, and a reported turn or flag is weighed against the server's time.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import models

from games.rules.clock import ClockSettings, ClockState, ClockStatus, FlagRule, Preset

from .clubs import Player
from .matches import Match


def _face(ms: int) -> str:
    seconds = -(-ms // 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


class MatchClock(models.Model):
    """One clock per match: settings, reserves left (ms), whose time runs, and a version
    (its ETag) that every write bumps."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="clock")
    preset = models.CharField(max_length=20, choices=[(p.value, p.name) for p in Preset])
    delay_ms = models.PositiveIntegerField()
    initial_reserve_ms = models.PositiveIntegerField()
    flag_rule = models.CharField(
        max_length=10, choices=[(r.value, r.name) for r in FlagRule], default=FlagRule.LOSS
    )
    overtime_ms = models.PositiveIntegerField(default=0)
    scored_at_start = models.PositiveIntegerField(default=0)
    reserve1_ms = models.PositiveIntegerField()
    reserve2_ms = models.PositiveIntegerField()
    status = models.CharField(
        max_length=10, choices=[(s.value, s.name) for s in ClockStatus], default=ClockStatus.READY
    )
    running = models.PositiveSmallIntegerField(null=True, blank=True)  # side 0 or 1
    overtime1_used = models.BooleanField(default=False)
    overtime2_used = models.BooleanField(default=False)
    flagged = models.PositiveSmallIntegerField(null=True, blank=True)  # side 0 or 1
    turns = models.PositiveIntegerField(default=0)
    last_seq = models.PositiveIntegerField(default=0)
    # The server's reckoning of the running turn: when the server last started the
    # running side's time (None while nobody's time runs), and what the same turn had
    # used before the last pause.
    running_since = models.DateTimeField(null=True, blank=True)
    running_used_ms = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    started_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL)
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(running__isnull=True) | models.Q(running__in=(0, 1)),
                name="clock_running_side",
            )
        ]

    def __str__(self) -> str:
        return f"clock of match {self.match_id} ({self.status})"

    @property
    def etag(self) -> str:
        return f'"{self.version}"'

    @property
    def faces(self) -> tuple[str, str]:
        """Each player's reserve left as the clock shows it (m:ss, seconds rounded up)."""
        return (_face(self.reserve1_ms), _face(self.reserve2_ms))

    def settings(self) -> ClockSettings:
        return ClockSettings(
            delay_ms=self.delay_ms,
            reserve_ms=self.initial_reserve_ms,
            flag_rule=FlagRule(self.flag_rule),
            overtime_ms=self.overtime_ms,
        )

    def state(self) -> ClockState:
        return ClockState(
            reserve_ms=(self.reserve1_ms, self.reserve2_ms),
            status=ClockStatus(self.status),
            running=self.running,
            overtime_used=(self.overtime1_used, self.overtime2_used),
            flagged=self.flagged,
            turns=self.turns,
        )

    def store(self, state: ClockState) -> None:
        """Copy a state from the rules onto the row (the caller saves it)."""
        self.reserve1_ms, self.reserve2_ms = state.reserve_ms
        self.status = state.status.value
        self.running = state.running
        self.overtime1_used, self.overtime2_used = state.overtime_used
        self.flagged = state.flagged
        self.turns = state.turns


class ClockTurn(models.Model):
    """One reported turn (or flag fall), idempotent by the reporting client's ``seq``."""

    clock = models.ForeignKey(MatchClock, on_delete=models.CASCADE, related_name="turn_log")
    seq = models.PositiveIntegerField()
    side = models.PositiveSmallIntegerField()
    used_ms = models.PositiveIntegerField()
    charged_ms = models.PositiveIntegerField()
    reserve_after_ms = models.PositiveIntegerField()
    flag_fell = models.BooleanField(default=False)
    # the server's own elapsed time of the turn when the report was accepted
    server_ms = models.PositiveIntegerField(null=True, blank=True)
    # a director's award of a flag fall says why (empty for a report of play)
    award_reason = models.TextField(blank=True, default="")
    reported_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL)
    reported_by_user = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["clock", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["clock", "seq"], name="clock_turn_seq_unique")
        ]

    def __str__(self) -> str:
        return f"turn {self.seq} of {self.clock_id}"
