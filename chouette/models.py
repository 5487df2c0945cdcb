"""Chouette sessions as stored: house rules, seats, the event list, games and cubes.

What the table records is kept as entered (the opening order, each join and leave,
each game's board result and each member's cube and action). What follows from it
(who was box and captain, the team order, every payout, the lineup now) is derived
by ``chouette.rules.replay_session`` and stored beside it by the services on every
write, never edited by hand: a correction replays the whole session.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from core.validators import single_line
from games.models import Club, GameLevel, Player
from games.rules import limits

from .rules.drops import cube_offered
from .rules.house_rules import HOUSE_RULE, HOUSE_RULES, HouseRule


def _choices(class_name: str, rule_name: str) -> type[models.TextChoices]:
    """A house rule's enum as Django choices, labelled by its declaration."""
    rule = HOUSE_RULE[rule_name]
    members = [
        (member.name, (member.value, rule.choice_labels[member.value]))
        for member in cast("type[StrEnum]", rule.kind)
    ]
    choices: type[models.TextChoices] = models.TextChoices(class_name, members)  # type: ignore[call-overload]
    choices.__module__ = __name__
    return choices


CubeMode = _choices("CubeMode", "cubes")
PartnerChoice = _choices("PartnerChoice", "partner_choice")
BoxRetention = _choices("BoxRetention", "box_retention")
Consultation = _choices("Consultation", "consultation")


class RuleProfile(models.TextChoices):
    MODERN = "modern", gettext_lazy("Modern")
    THORNE_1930 = "thorne_1930", gettext_lazy("Thorne 1930")


class SessionStatus(models.TextChoices):
    OPEN = "open", gettext_lazy("Open")
    CLOSED = "closed", gettext_lazy("Closed")


class Side(models.TextChoices):
    BOX = "box", gettext_lazy("Box")
    TEAM = "team", gettext_lazy("Team")


Level = GameLevel  # the same levels as a match game


class Ending(models.TextChoices):
    PLAYED = "played", gettext_lazy("Played out")
    RESIGNED = "resigned", gettext_lazy("Resigned")
    DROPPED = "dropped", gettext_lazy("Every member out on a drop")


class MemberAction(models.TextChoices):
    """What happened on one member's cube (the final state the table records)."""

    PLAYED = "played", gettext_lazy("Played to the end")
    DROPPED = "dropped", gettext_lazy("Refused the box's double")
    BOX_DROPPED = "box_dropped", gettext_lazy("The box refused the member's double")
    BEAVERED = "beavered", gettext_lazy("Beavered the box's double")
    BOX_BEAVERED = "box_beavered", gettext_lazy("The box beavered the member's double")


def house_rule_field(rule: HouseRule) -> models.Field:
    """The Session column that stores ``rule``: its type, width and default come from the
    declaration (an integer column is a ``smallint`` when the rule's maximum fits one)."""
    kwargs: dict[str, object] = {"null": True, "blank": True} if rule.nullable else {}
    if rule.default is not None:
        kwargs["default"] = rule.default
    if rule.kind is bool:
        return models.BooleanField(**kwargs)  # type: ignore[arg-type]
    if rule.kind is int:
        small = rule.maximum is not None and rule.maximum <= limits.MAX_INT16
        column = models.PositiveSmallIntegerField if small else models.PositiveIntegerField
        return column(**kwargs)  # type: ignore[arg-type]
    return models.CharField(max_length=rule.max_length, choices=rule.choices, **kwargs)  # type: ignore[arg-type]


if TYPE_CHECKING:

    class HouseRuleFields(models.Model):
        """The columns are built below, so a type checker sees them as dynamic attributes."""

        class Meta:
            abstract = True

        def __getattr__(self, name: str) -> Any: ...

else:
    HouseRuleFields = type(
        "HouseRuleFields",
        (models.Model,),
        {
            "__module__": __name__,
            "__doc__": "A column per declared house rule (``chouette.rules.HOUSE_RULES``).",
            "Meta": type("Meta", (), {"abstract": True}),
            **{rule.name: house_rule_field(rule) for rule in HOUSE_RULES},
        },
    )


class Session(HouseRuleFields):
    """One evening of chouette at a club: its stake, house rules and seats.

    ``opening_order`` is the lineup at the start (box first, then the team in line),
    from the opening rolls (kept in ``opening_rolls``) or given by hand. ``lineup`` is
    the lineup for the next game, derived. ``version`` grows with every write and is
    the ETag clients send back in ``If-Match``.
    """

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="chouette_sessions")
    played_on = models.DateField(default=timezone.localdate)
    stake = models.DecimalField(max_digits=10, decimal_places=2, help_text="Money per point.")
    currency = models.CharField(max_length=3, default="EUR")
    label = models.CharField(max_length=limits.MAX_LABEL, blank=True, validators=[single_line])
    profile = models.CharField(
        max_length=12, choices=RuleProfile.choices, default=RuleProfile.MODERN
    )
    # the house rules are HouseRuleFields' columns (docs/rules.md, "The chouette")
    # the order, recorded and derived
    opening_order = models.JSONField(default=list, help_text="Player ids: box, captain, ...")
    opening_rolls = models.JSONField(null=True, blank=True)
    lineup = models.JSONField(default=list, help_text="Derived: the next game's lineup.")
    status = models.CharField(
        max_length=6, choices=SessionStatus.choices, default=SessionStatus.OPEN
    )
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-played_on", "-id"]
        indexes = [models.Index(fields=["club", "status"])]

    def __str__(self) -> str:
        return f"Chouette at {self.club} on {self.played_on}"

    def get_absolute_url(self) -> str:
        return reverse("chouette:session", kwargs={"pk": self.pk})

    @property
    def etag(self) -> str:
        return f'"{self.version}"'

    @property
    def is_open(self) -> bool:
        return self.status == SessionStatus.OPEN


class Seat(models.Model):
    """A player's seat at the session: when they joined and, if they did, left.

    ``join_order`` is the order in which players first sat down (the opening order,
    then newcomers); a player who leaves and comes back keeps one seat.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="chouette_seats")
    join_order = models.PositiveSmallIntegerField()
    joined_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["session", "join_order"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="unique_chouette_seat")
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.session_id}"

    @property
    def seated(self) -> bool:
        return self.left_at is None


class SessionEvent(models.Model):
    """What happened, in order: a game, a newcomer joining, a player leaving.

    The replay of a session is its opening order followed by these events.
    """

    class Kind(models.TextChoices):
        GAME = "game", gettext_lazy("Game")
        JOIN = "join", gettext_lazy("Join")
        LEAVE = "leave", gettext_lazy("Leave")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="events")
    sequence = models.PositiveIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["session", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "sequence"], name="unique_chouette_event_sequence"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.sequence} of session {self.session_id}"


class ChouetteGame(models.Model):
    """One game: the board result as recorded, and who sat where (derived).

    ``box``, ``partner``, ``captain`` (at the start), ``board_captain`` (who finished
    on the board), ``team_order`` and the points are derived by the replay.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="games")
    event = models.OneToOneField(SessionEvent, on_delete=models.CASCADE, related_name="game")
    number = models.PositiveSmallIntegerField()
    # recorded
    winner = models.CharField(max_length=4, choices=Side.choices, blank=True)
    level = models.CharField(max_length=10, choices=Level.choices, default=Level.SINGLE)
    ending = models.CharField(max_length=8, choices=Ending.choices, blank=True)
    automatic_doubles = models.PositiveSmallIntegerField(default=0)
    given_partner = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The partner as recorded (house rule: named for each game).",
    )
    # derived
    box = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    partner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    captain = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    board_captain = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    board_winner = models.CharField(max_length=4, choices=Side.choices)
    team_order = models.JSONField(default=list, help_text="Player ids in line at the start.")
    box_points = models.IntegerField(default=0)
    partner_points = models.IntegerField(default=0)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"], name="unique_chouette_game_number"
            )
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of chouette {self.session_id}"


class MemberResult(models.Model):
    """One team member's cube in one game, and the points it moved (derived)."""

    game = models.ForeignKey(ChouetteGame, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    line = models.PositiveSmallIntegerField(help_text="Order as recorded.")
    cube = models.PositiveIntegerField(help_text="Final cube; for a drop, before the double.")
    owner = models.CharField(max_length=4, choices=Side.choices, blank=True)
    action = models.CharField(
        max_length=12, choices=MemberAction.choices, default=MemberAction.PLAYED
    )
    raccoon = models.BooleanField(default=False)
    stake = models.PositiveSmallIntegerField(default=1, help_text="Stake multiple: 1, 2 or 4.")
    taken_over = models.BooleanField(default=False)
    points = models.IntegerField(default=0, help_text="Derived: what this member won or lost.")

    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "line"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="unique_member_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.game}"

    @property
    def cube_shown(self) -> int:
        """The cube as the card asks for it and the sheet shows it: for a drop, the
        cube offered (the stored value before the double is what the rules score)."""
        return cube_offered(self.cube, self.action)
