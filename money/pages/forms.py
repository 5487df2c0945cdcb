"""The money pages' write forms: one Django form per action, so that parsing the POST is
declared once (each field's type, its blank value, its label in words) and a refusal
names the field it belongs to.

A form only reads what was posted into the values its service takes (amounts as
Decimals, chosen ids as ints, a payout table, a sale's buyers, an award order); the
rules stay the services'. A refusal, the form's or the service's, becomes one
:func:`page_error`: the form it came from, the field's input name (so the template
marks that field and writes the rule beside it) and the field's label (the summary at
the top of the form says "Label: rule"). Nothing is written when the form is invalid:
the service is not called.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import N_, BoxcarsError, RuleViolation
from games.rules.limits import MAX_ID
from money.models import PaidBy, Remainder

from .common import AMOUNT_LIMIT, WEIGHT_LIMIT, amount


def _with_percent(message: str) -> Any:
    """A label the templates already translate with a "%" in it, whose catalog msgid is
    therefore written with "%%" (as ``{% translate %}`` escapes it)."""
    return lazy(lambda: gettext(message) % {}, str)()


def _refused(error: RuleViolation) -> ValidationError:
    return ValidationError(error.message, code=error.code)


def _is_id(text: str) -> bool:
    """A row's id as a list posts it: ASCII digits, no larger than an id can be (a
    bigger number would overflow the database's integer, a 500, not a refusal)."""
    return text.isascii() and text.isdigit() and int(text) <= MAX_ID


class AmountField(forms.Field):
    """An amount ("12,50" and "12.50" both read); ``blank`` is the value of an empty
    input (None: no amount). The words for bad input are :func:`.common.amount`'s."""

    def __init__(
        self, *, blank: Decimal | None = Decimal(0), limit: Decimal = AMOUNT_LIMIT, **kwargs: Any
    ) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.blank, self.limit = blank, limit

    def clean(self, value: Any) -> Decimal | None:
        try:
            return amount(value, "", blank=self.blank, limit=self.limit)
        except RuleViolation as error:
            raise _refused(error) from None


class ChoiceIdField(forms.Field):
    """One id chosen from a list (a select). ``blank``: the value of no choice (None:
    a choice is required)."""

    default_error_messages: ClassVar[dict[str, Any]] = {"invalid": _("Choose from the list.")}

    def __init__(self, *, blank: int | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.blank = blank

    def clean(self, value: Any) -> int:
        text = (value or "").strip()
        if not text:
            if self.blank is None:
                raise ValidationError(self.error_messages["invalid"], code="invalid_choice")
            return self.blank
        if not _is_id(text):
            raise ValidationError(self.error_messages["invalid"], code="invalid_choice")
        return int(text)


class PostedText(forms.Field):
    """Text as posted (not stripped: the service decides what it accepts); ``default``
    when the form did not post the field at all."""

    def __init__(self, *, default: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.default = default

    def clean(self, value: Any) -> str:
        return self.default if value is None else str(value)


class ListField(forms.Field):
    """Every value posted under the name (check boxes, repeated rows), as text."""

    widget = forms.MultipleHiddenInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def clean(self, value: Any) -> list[str]:
        return [str(v) for v in (value or [])]


class IdListField(ListField):
    """The ids ticked in a list (blank ones ignored)."""

    def clean(self, value: Any) -> list[int]:  # type: ignore[override]
        chosen = [v.strip() for v in super().clean(value) if v.strip()]
        if not all(_is_id(v) for v in chosen):
            raise ValidationError(_("Choose from the list."), code="invalid_choice")
        return [int(v) for v in chosen]


class WholeNumberField(forms.Field):
    """A whole number typed in (0 or more); ``blank``: the value of an empty input."""

    def __init__(self, *, blank: int | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.blank = blank

    def clean(self, value: Any) -> int | None:
        text = (value or "").strip()
        if not text:
            return self.blank
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            raise ValidationError(_("Enter a whole number such as 3."), code="invalid_number")
        return int(text)


def _split_parts(text: str) -> list[str]:
    """ "40 / 30 / 20", "40;30;20" and "40,30,20" are the same list."""
    return [p for p in text.replace(";", "/").replace(",", "/").split("/") if p.strip()]


class MoneyForm(forms.Form):
    """A money page's form. ``service_fields`` maps the field a service names in a
    refusal to the form's field it came from (when they differ)."""

    service_fields: ClassVar[dict[str, str]] = {}
    #: Fields the page does not show as an input (hidden, or a check box): a rule about
    #: them is written in the form's summary, not beside a field.
    summary_only: ClassVar[frozenset[str]] = frozenset()

    def field_for(self, service_field: str | None) -> str:
        name = self.service_fields.get(service_field or "", service_field or "")
        return name if name in self.fields else ""


class PayoutTableMixin(forms.Form):
    """A preset (``winner_takes_all``...) or a custom table of percentages by place."""

    preset = forms.CharField(required=False, label=_("Payout table"))
    table = forms.CharField(required=False, strip=False, label=_("Payout table"))

    def clean_table(self) -> list[Decimal] | str:
        preset = self.data.get("preset", "")
        if preset and preset != "custom":
            return preset
        parts = _split_parts(self.data.get("table", ""))
        try:
            return [amount(p, "table") or Decimal(0) for p in parts] or "winner_takes_all"
        except RuleViolation as error:
            raise _refused(error) from None


class ClubMoneyForm(MoneyForm):
    currency = PostedText(label=_("Currency"))
    payout_unit = AmountField(label=_("Smallest unit paid out"))
    publish_payouts = forms.BooleanField(required=False, label=_("Publish payouts"))
    publish_calcutta = forms.BooleanField(required=False, label=_("Publish the Calcutta"))
    summary_only = frozenset({"publish_payouts", "publish_calcutta"})


class RegistrationFeeForm(MoneyForm):
    registration_fee = AmountField(label=_("Registration fee"))


class PoolForm(PayoutTableMixin, MoneyForm):
    key = forms.CharField(required=False, label=_("Short name (key)"))
    name = PostedText(label=_("Name"))
    side = forms.BooleanField(
        required=False, label=_("Side pool (only its entrants pay and are paid)")
    )
    paid_by = PostedText(default=PaidBy.EVENT, label=_("Paid by"))
    fee = AmountField(label=_("Entry fee"))
    added = AmountField(label=_("Added money"))
    rake_percent = AmountField(label=_with_percent("Rake %%"))
    rake_fixed = AmountField(label=_("Fixed rake"))
    remainder = PostedText(default=Remainder.FIRST, label=_("Rounding remainder"))
    buy_back_fee = AmountField(blank=None, label=_("Buy-back fee (blank: none)"))
    buy_back_until_round = WholeNumberField(label=_("Buy-backs open for players out by round"))
    summary_only = frozenset({"side"})

    def clean_key(self) -> str:
        return str(self.cleaned_data["key"]).lower()


class PoolKeyForm(MoneyForm):
    """The pool a small form acts on (remove it)."""

    key = PostedText(label=_("Pool"))
    summary_only = frozenset({"key"})
    service_fields: ClassVar[dict[str, str]] = {"pool": "key"}


class EntrantsForm(PoolKeyForm):
    entries = IdListField(label=_("Players"))


class BuyBackForm(PoolKeyForm):
    entry = ChoiceIdField(blank=0, label=_("Player"))


class PaymentForm(MoneyForm):
    player = ChoiceIdField(label=_("Player"))
    amount = AmountField(label=_("Amount"))
    method = PostedText(label=_("How"))
    note = PostedText(label=_("Note"))


class UndoPaymentForm(MoneyForm):
    payment = ChoiceIdField(label=_("Payment"))
    summary_only = frozenset({"payment"})


class PrizeOrderForm(MoneyForm):
    """The prize order as typed: steps separated by commas ("main:2, consolation:2");
    blank is the default order."""

    prize_order = PostedText(label=_("Prize order"))

    def clean_prize_order(self) -> list[str]:
        return [
            step.strip() for step in self.cleaned_data["prize_order"].split(",") if step.strip()
        ]


class SplitForm(MoneyForm):
    entries = IdListField(label=_("Players"))


class NothingForm(MoneyForm):
    """An action with no fields (clear the splits)."""


class CalcuttaForm(PayoutTableMixin, MoneyForm):
    rake_percent = AmountField(label=_with_percent("Rake %%"))
    rake_fixed = AmountField(label=_("Fixed rake"))
    buy_back_limit = AmountField(
        blank=Decimal(50), label=_with_percent("Players may buy back up to (%% of their lot)")
    )
    remainder = PostedText(default=Remainder.FIRST, label=_("Rounding remainder"))


class LotForm(MoneyForm):
    label = PostedText(label=_("Label (blank: the players' names)"))
    entries = IdListField(label=_("Players in the lot"))


class SaleForm(MoneyForm):
    """A winning bid: the price and the buyer, or up to four syndicate members with
    their shares (a buyer without a share: 100 %)."""

    lot = ChoiceIdField(label=_("Lot"))
    price = AmountField(label=_("Price"))
    buyer = ListField(label=_("Buyers"))
    share = ListField(label=_("Buyers"))
    summary_only = frozenset({"lot"})
    service_fields: ClassVar[dict[str, str]] = {"buyers": "buyer"}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        buyers = []
        pairs = zip(data.get("buyer", []), data.get("share", []), strict=False)
        try:
            for player, percent in pairs:
                if not player:
                    continue
                if not _is_id(player):
                    raise RuleViolation("invalid_choice", N_("Choose from the list."), "buyers")
                share = amount(percent, "buyers", blank=None)
                buyers.append((int(player), share if share is not None else Decimal(100)))
        except RuleViolation as error:
            self.add_error("buyer", _refused(error))
        data["buyers"] = buyers
        return data


class LotBuyBackForm(MoneyForm):
    lot = ChoiceIdField(label=_("Lot"))
    entry = ChoiceIdField(label=_("Buy-back by"))
    percent = AmountField(label=_with_percent("Buy-back %%"))
    summary_only = frozenset({"lot"})


class AwardForm(MoneyForm):
    """Who a pool pays: one select per position (blank: none), "tied with the one
    above" ticks; ``clear`` pays the pool by the places again (``groups`` None)."""

    key = PostedText(label=_("Pool"))
    clear = forms.CharField(required=False, label=_("Clear: pay by the places"))
    place = ListField(label=_("Who a pool pays"))
    tie = ListField(label=_("tied with the one above"))
    summary_only = frozenset({"key", "clear", "tie"})
    service_fields: ClassVar[dict[str, str]] = {"award_order": "place", "pool": "key"}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("clear"):
            data["groups"] = None
            return data
        ties = set(data.get("tie", []))
        groups: list[list[int]] = []
        for i, value in enumerate(data.get("place", [])):
            if not value:
                continue
            if not _is_id(value):
                self.add_error("place", ValidationError(_("Choose from the list.")))
                return data
            if str(i) in ties and groups:
                groups[-1].append(int(value))
            else:
                groups.append([int(value)])
        data["groups"] = groups
        return data


class VersionedForm(MoneyForm):
    """A club's points settings form: the version read with the page (``If-Match``)."""

    version = forms.CharField(required=False)
    summary_only = frozenset({"version"})

    def clean_version(self) -> int | None:
        read = self.cleaned_data["version"]
        return int(read) if read.isascii() and read.isdigit() else None


class SeasonForm(VersionedForm):
    day = WholeNumberField(blank=0, label=_("Starts on day"))
    month = WholeNumberField(blank=0, label=_("of month"))
    service_fields: ClassVar[dict[str, str]] = {
        "season_start_day": "day",
        "season_start_month": "month",
        "day": "day",
        "month": "month",
    }


class ClubTableForm(VersionedForm):
    """The club's points table: one row per bracket of field sizes (blank rows
    ignored), its points by place as "10/6/3/3", and the points per match won."""

    per_match_won = AmountField(label=_("Points per match won"))
    min_players = ListField(label=_("From players"))
    max_players = ListField(label=_("To players"))
    points = ListField(label=_("Points by place"))

    def field_for(self, service_field: str | None) -> str:
        """A service names a row's field as ``brackets[2].points``: the column's field."""
        name = (service_field or "").rsplit(".", 1)[-1]
        return name if name in self.fields else super().field_for(service_field)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        brackets = []
        rows = zip(
            data.get("min_players", []),
            data.get("max_players", []),
            data.get("points", []),
            strict=False,
        )
        for low, high, points in rows:
            if not (low.strip() or high.strip() or points.strip()):
                continue
            bracket: dict[str, Any] = {}
            for name, text, blank in (("min_players", low, 0), ("max_players", high, None)):
                try:
                    bracket[name] = WholeNumberField(blank=blank).clean(text)
                except ValidationError as error:
                    self.add_error(name, error)
                    return data
            try:
                bracket["points"] = [str(amount(p, "points")) for p in _split_parts(points)]
            except RuleViolation as error:
                self.add_error("points", _refused(error))
                return data
            brackets.append(bracket)
        data["brackets"] = brackets
        if "per_match_won" in data:
            data["per_match_won"] = str(data["per_match_won"])
        return data


class MasterPointsForm(MoneyForm):
    formula = PostedText(label=_("Formula"))
    event_weight = AmountField(blank=Decimal(1), limit=WEIGHT_LIMIT, label=_("Event weight"))
    division_weight = AmountField(blank=Decimal(1), limit=WEIGHT_LIMIT, label=_("Division weight"))


def page_error(form_id: str, form: MoneyForm, error: BoxcarsError | None = None) -> dict[str, Any]:
    """A refusal as the templates show it: the form it belongs to, the field's input
    ``name`` (marked, with the rule beside it), the field's label in words and the
    rule. ``error``: the service's refusal; without it, the form's first error."""
    detail: Any
    if error is not None:
        name, detail = form.field_for(error.field), error.message
        words = "" if name else (error.field or "")
    else:
        name, messages = next(iter(form.errors.items()))
        name, detail, words = ("" if name == "__all__" else name), messages[0], ""
    if name:
        words = str(form.fields[name].label or name)
    beside = name if name and name not in form.summary_only else ""
    return {"form": form_id, "name": beside, "field": words, "detail": detail}
