"""Event money: fees, pools, buy-backs, payments, splits and the Calcutta.

What is stored is what the director decided and what people paid; every amount owed or
won is derived from it by :mod:`money.rules` (the ledger is computed, never stored), so
a correction to the bracket re-derives the payouts. Amounts are ``DecimalField``
(two places: cents), never floats; percentages are ``DecimalField`` too.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from core.validators import single_line

MONEY: dict[str, Any] = {
    "max_digits": 12,
    "decimal_places": 2,
    "validators": [MinValueValidator(Decimal(0))],
}
PERCENT: dict[str, Any] = {
    "max_digits": 6,
    "decimal_places": 3,
    "validators": [MinValueValidator(Decimal(0))],
}


class ClubMoney(models.Model):
    """A club's money settings: currency, the smallest unit paid out, what is public, and
    the day its master-points season starts (1 January: the calendar year)."""

    club = models.OneToOneField("games.Club", on_delete=models.CASCADE, related_name="money")
    currency = models.CharField(max_length=3, default="EUR")
    payout_unit = models.DecimalField(default=Decimal("1.00"), **MONEY)
    publish_payouts = models.BooleanField(default=True)
    publish_calcutta = models.BooleanField(default=True)
    season_start_month = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    season_start_day = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(28)]
    )
    points_version = models.PositiveIntegerField(default=1)
    """The ETag of the club's master-points settings (its table and season start): each
    save of either bumps it, so two directors editing at once cannot overwrite blindly."""

    history = HistoricalRecords()

    def __str__(self) -> str:
        return f"money of {self.club}"

    @property
    def points_etag(self) -> str:
        return f'"{self.points_version}"'


class Remainder(models.TextChoices):
    FIRST = "first", gettext_lazy("To the top-placed player")
    HOUSE = "house", gettext_lazy("Kept by the club")


class EventMoney(models.Model):
    """An event's money: its registration fee (no pool), the recorded splits, a version.

    ``splits`` is a list of groups of entry ids who agreed to split what their places
    pay (recorded by the director). ``version`` is the ETag of every money write.
    """

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="money"
    )
    registration_fee = models.DecimalField(default=Decimal(0), **MONEY)
    splits = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=1)

    history = HistoricalRecords()

    def __str__(self) -> str:
        return f"money of {self.tournament}"

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


class PaidBy(models.TextChoices):
    EVENT = "event", gettext_lazy("The event's places (prize order)")
    MAIN = "main", gettext_lazy("Main bracket places")
    CONSOLATION = "consolation", gettext_lazy("Consolation places")
    LAST_CHANCE = "last_chance", gettext_lazy("Last chance places")
    MAIN_CONSOLATION = (
        "main_consolation",
        gettext_lazy("Main 1–2, then consolation 1–2 (whatever the prize order)"),
    )


class Pool(models.Model):
    """A prize pool: the main pool (every entry pays ``fee``) or a side pool (its entrants).

    ``paid_by`` says whose places pay it: the event's (in its prize order), one
    bracket's (a consolation pool fed by buy-backs pays the consolation's places, among
    the players who bought in), or main 1–2 then consolation 1–2 (what the "main +
    consolation" preset pays, so it does not depend on the event's prize order).
    ``table`` is the payout table (percentages by position, as strings: "12.5").
    ``buy_back_fee`` and ``buy_back_until_round`` allow buy-backs into this pool.
    ``award_order`` (entry ids, best first, as groups) is the director's decision when
    the places do not say who is paid (a side pool nobody eligible reached far).
    """

    event = models.ForeignKey(EventMoney, on_delete=models.CASCADE, related_name="pools")
    key = models.SlugField(max_length=40)
    name = models.CharField(max_length=80, validators=[single_line])
    side = models.BooleanField(default=False)
    paid_by = models.CharField(max_length=20, choices=PaidBy.choices, default=PaidBy.EVENT)
    fee = models.DecimalField(default=Decimal(0), **MONEY)
    added = models.DecimalField(default=Decimal(0), **MONEY)
    rake_percent = models.DecimalField(default=Decimal(0), **PERCENT)
    rake_fixed = models.DecimalField(default=Decimal(0), **MONEY)
    table = models.JSONField(default=list)
    remainder = models.CharField(max_length=5, choices=Remainder.choices, default=Remainder.FIRST)
    buy_back_fee = models.DecimalField(null=True, blank=True, **MONEY)
    buy_back_until_round = models.PositiveSmallIntegerField(null=True, blank=True)
    award_order = models.JSONField(null=True, blank=True)
    entrants = models.ManyToManyField("tournaments.Entry", blank=True, related_name="side_pools")
    order = models.PositiveSmallIntegerField(default=0)

    history = HistoricalRecords(m2m_fields=[entrants])

    class Meta:
        ordering = ["event", "order", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "key"], name="unique_pool_key")]

    def __str__(self) -> str:
        return self.name


class BuyBack(models.Model):
    """A player knocked out early who paid ``amount`` into ``pool`` to play on."""

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="buy_backs")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(**MONEY)
    out_in_round = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["pool", "id"]
        constraints = [models.UniqueConstraint(fields=["pool", "entry"], name="unique_buy_back")]

    def __str__(self) -> str:
        return f"buy-back of entry {self.entry_id} into {self.pool_id}"


class PaymentMethod(models.TextChoices):
    CASH = "cash", gettext_lazy("Cash")
    TRANSFER = "transfer", gettext_lazy("Transfer")
    OWING = "owing", gettext_lazy("Marked owing")


class Payment(models.Model):
    """Money a person handed the club for this event (cash or transfer), or a note that
    they owe it (``owing``: counts for nothing, but says the director asked)."""

    event = models.ForeignKey(EventMoney, on_delete=models.CASCADE, related_name="payments")
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(**MONEY)
    method = models.CharField(max_length=8, choices=PaymentMethod.choices)
    note = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "recorded_at", "id"]

    def __str__(self) -> str:
        return f"{self.amount} by player {self.player_id} ({self.method})"


class Calcutta(models.Model):
    """An event's Calcutta auction: rake, payout table, the players' buy-back limit."""

    event = models.OneToOneField(EventMoney, on_delete=models.CASCADE, related_name="calcutta")
    rake_percent = models.DecimalField(default=Decimal(0), **PERCENT)
    rake_fixed = models.DecimalField(default=Decimal(0), **MONEY)
    table = models.JSONField(default=list)
    remainder = models.CharField(max_length=5, choices=Remainder.choices, default=Remainder.FIRST)
    buy_back_limit = models.DecimalField(default=Decimal(50), **PERCENT)

    history = HistoricalRecords()

    def __str__(self) -> str:
        return f"Calcutta of {self.event}"


class Lot(models.Model):
    """One lot: a player, or a group of entries sold together ("the field")."""

    calcutta = models.ForeignKey(Calcutta, on_delete=models.CASCADE, related_name="lots")
    label = models.CharField(max_length=80, validators=[single_line])
    entries = models.ManyToManyField("tournaments.Entry", related_name="+")
    order = models.PositiveSmallIntegerField(default=0)
    price = models.DecimalField(null=True, blank=True, **MONEY)

    history = HistoricalRecords(m2m_fields=[entries])

    class Meta:
        ordering = ["calcutta", "order", "id"]

    def __str__(self) -> str:
        return self.label


class LotShare(models.Model):
    """Part of a sold lot: a buyer's share of the sale (percent), or a player's buy-back."""

    lot = models.ForeignKey(Lot, on_delete=models.CASCADE, related_name="shares")
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    percent = models.DecimalField(**PERCENT)
    buy_back = models.BooleanField(default=False)

    history = HistoricalRecords()

    class Meta:
        ordering = ["lot", "buy_back", "id"]
        constraints = [
            models.UniqueConstraint(fields=["lot", "player", "buy_back"], name="unique_lot_share")
        ]

    def __str__(self) -> str:
        return f"{self.percent} % of lot {self.lot_id}"


class EventMasterPoints(models.Model):
    """Master points for an event: the formula version and the weights it is awarded with.

    The points are derived from the event's places and match wins with this version
    (:mod:`money.rules.master_points`), so a later formula never changes them.
    """

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="master_points"
    )
    formula = models.CharField(max_length=20, default="usbgf-2019")
    event_weight = models.DecimalField(max_digits=6, decimal_places=3, default=Decimal(1))
    division_weight = models.DecimalField(max_digits=6, decimal_places=3, default=Decimal(1))
    club_table = models.ForeignKey(
        "ClubPointsTable", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    def __str__(self) -> str:
        return f"master points of {self.tournament} ({self.formula})"


class ClubPointsTable(models.Model):
    """One version of a club's own master-points table (points per place by field size,
    and per match won; the higher counts), as :mod:`money.rules.club_points` stores it.

    Versions are never edited: saving the table creates the next version, and an event
    awarded with the club table keeps the version it named
    (:attr:`EventMasterPoints.club_table`), so later edits never change its points.
    """

    club = models.ForeignKey("games.Club", on_delete=models.CASCADE, related_name="points_tables")
    version = models.PositiveIntegerField()
    data = models.JSONField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["club", "version"], name="unique_points_table_version")
        ]

    def __str__(self) -> str:
        return f"points table v{self.version} of {self.club}"
