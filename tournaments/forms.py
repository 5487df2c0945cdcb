"""Forms of the director's pages: creating an event, bulk registration, walk-ins.

As with ``games.forms``, the rules are the services'; the forms read the text.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_lazy

from games.models import Player
from games.rules import limits
from games.rules.names import name_key
from tournaments import options as tournament_options
from tournaments.formats import registry as format_registry
from tournaments.formats.elimination import FeedOrder
from tournaments.formats.schedule import MAX_LENGTH
from tournaments.formats.standings import TieBreak
from tournaments.models import SeedingMethod, StageKind, TournamentFormat
from tournaments.option_fields import add_page_fields
from tournaments.options import OptionKind
from tournaments.services.draws import LARGE_EVENT


class RosterField(forms.ModelMultipleChoiceField):
    """Club members as ticks; namesakes get their player number so they can be told apart."""

    _namesakes: set[str] | None = None

    def label_from_instance(self, obj: Player) -> str:
        if self._namesakes is None:  # one query for the whole list, not one per tick
            assert self.queryset is not None  # the form sets it before rendering
            keys = [name_key(n) for n in self.queryset.values_list("display_name", flat=True)]
            self._namesakes = {k for k in keys if keys.count(k) > 1}
        if name_key(obj.display_name) in self._namesakes:
            return f"{obj.display_name} (#{obj.pk})"
        return obj.display_name


class RegisterPlayersForm(forms.Form):
    names = forms.CharField(
        label=gettext_lazy("Names, one per line"),
        required=False,
        max_length=limits.MAX_BULK_NAMES * (limits.MAX_PLAYER_NAME + 2),
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
        help_text=gettext_lazy(
            "Club members are matched ignoring case and accents; other names "
            "become new players. You see what will happen before anything is saved."
        ),
    )
    players = RosterField(
        label=gettext_lazy("Or tick club members"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, candidates: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        assert isinstance(field, RosterField)
        field.queryset = candidates

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if not self.errors and not (data.get("names") or "").strip() and not data.get("players"):
            raise forms.ValidationError(gettext_lazy("Type at least one name or tick a member."))
        lines = (data.get("names") or "").splitlines()
        if len(lines) > limits.MAX_BULK_NAMES:
            self.add_error(
                "names", f"At most {limits.MAX_BULK_NAMES} lines at a time; split the list."
            )
        data["lines"] = lines
        return data


# -- creating an event ------------------------------------------------------------------

#: The stages of each format whose rounds can have their own match length, as the
#: schedule (``tournaments.formats.schedule``) names them, with the legend shown; the
#: formats declare them (``tournaments.formats.registry``).
FORMAT_STAGES: dict[str, tuple[tuple[str, str], ...]] = {
    f.key: f.stages for f in format_registry.specs()
}

_KNOCKOUT_ROUNDS = (
    ("1", "1", gettext_lazy("Round 1")),
    ("2", "2", gettext_lazy("Round 2")),
    ("3", "3", gettext_lazy("Round 3")),
)
_KNOCKOUT_END = (
    ("-3", "quarter", gettext_lazy("Quarter-finals")),
    ("-2", "semi", gettext_lazy("Semi-finals")),
    ("-1", "final", gettext_lazy("Final")),
)
_ROUNDS_AND_LAST = (
    *_KNOCKOUT_ROUNDS,
    ("-1", "last", gettext_lazy("Last round")),
)
#: The rounds offered per stage: (round in the schedule, field suffix, label). A negative
#: round counts from the end, so "Final" fits any field size.
STAGE_ROUNDS: dict[str, tuple[tuple[str, str, Any], ...]] = {
    StageKind.MAIN: _KNOCKOUT_ROUNDS + _KNOCKOUT_END,
    StageKind.CONSOLATION: _KNOCKOUT_ROUNDS + _KNOCKOUT_END,
    StageKind.LAST_CHANCE: _KNOCKOUT_ROUNDS + _KNOCKOUT_END,
    StageKind.WINNERS: _KNOCKOUT_ROUNDS + _KNOCKOUT_END,
    StageKind.LOSERS: _KNOCKOUT_ROUNDS + _KNOCKOUT_END,
    StageKind.GRAND_FINAL: (
        ("1", "1", gettext_lazy("Grand final")),
        ("2", "2", gettext_lazy("Deciding match")),
    ),
    StageKind.SWISS: _ROUNDS_AND_LAST,
    StageKind.ROUND_ROBIN_GROUP: _ROUNDS_AND_LAST,
    StageKind.PLAYOFF: _KNOCKOUT_END,
}

LENGTHS_HELP = {f.key: f.lengths_help for f in format_registry.specs()}

#: The options of each format (beyond those every event has); the rest are ignored.
FORMAT_OPTIONS: dict[str, tuple[str, ...]] = {f.key: f.options for f in format_registry.specs()}
TIE_BREAK_NAMES = {
    TieBreak.MATCH_WINS: "Match wins",
    TieBreak.BUCHHOLZ: "Buchholz",
    TieBreak.MEDIAN_BUCHHOLZ: "Median Buchholz",
    TieBreak.HEAD_TO_HEAD: "Head to head",
    TieBreak.POINTS_DIFFERENCE: "Points difference",
    TieBreak.WIN_SKILL: "Win + Skill (PR)",
}
TIE_BREAK_SLOTS = len(TieBreak)
PREVIEW_MAX = LARGE_EVENT  # larger previews are a job (the API's drop map)
DEFAULT_LENGTH = 5


def length_field_name(stage: str, suffix: str) -> str:
    return f"length_{stage}_{suffix}"


def _int_list(text: str, what: str) -> list[int]:
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise forms.ValidationError(
            gettext_lazy("Write %(what)s as numbers separated by commas, like 1, 2.")
            % {"what": what}
        ) from None
    if any(n < 1 or n > limits.MAX_INT16 for n in numbers):
        raise forms.ValidationError(
            gettext_lazy("%(capitalize)s are counted from 1.") % {"capitalize": what.capitalize()}
        )
    return numbers


def _names(text: str) -> list[str]:
    return [p for p in re.split(r"[\s,;]+", text.strip()) if p]


class NewTournamentForm(forms.Form):
    """Every option of the tournament-create API, as a page.

    Fields are grouped per format (``FORMAT_OPTIONS``, ``FORMAT_STAGES``); those of
    another format are ignored, so a browser without JavaScript (which shows every
    group) creates the same event as one that hides the groups that do not apply. The
    rules are the service's (``tournaments.services.events.check_config``); the form
    only reads the text, and :meth:`options` builds the service's keyword arguments.
    """

    slug = forms.SlugField(
        label=gettext_lazy("Web address"),
        required=False,
        max_length=limits.MAX_TOURNAMENT_SLUG,
        help_text=gettext_lazy("Letters, digits and hyphens; blank: made from the name."),
    )
    length = forms.IntegerField(
        label=gettext_lazy("Match length"),
        required=False,
        min_value=1,
        max_value=MAX_LENGTH,
        initial=DEFAULT_LENGTH,
        help_text=gettext_lazy(
            "Points, for every round not given its own length below (blank: 5)."
        ),
    )
    preview_entries = forms.IntegerField(
        label=gettext_lazy("Players, for the preview"),
        required=False,
        min_value=2,
        max_value=PREVIEW_MAX,
        initial=16,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The options' own fields, from their declarations (tournaments.option_catalog):
        # the event's, then each group's of format options.
        add_page_fields(self, tournament_options.on_page("event"))
        for group in tournament_options.groups():
            add_page_fields(
                self, tuple(o for o in tournament_options.in_group(group.key) if o.label)
            )
        tie_choices = [("", "—")] + [(t.value, TIE_BREAK_NAMES[t]) for t in TieBreak]
        for n in range(1, TIE_BREAK_SLOTS + 1):
            self.fields[f"tie_break_{n}"] = forms.ChoiceField(
                label=gettext("Tie-break %(n)s") % {"n": n}, choices=tie_choices, required=False
            )
        for stages in FORMAT_STAGES.values():
            for stage, _ in stages:
                for _, suffix, label in STAGE_ROUNDS[stage]:
                    self.fields[length_field_name(stage, suffix)] = forms.IntegerField(
                        label=label,
                        required=False,
                        min_value=1,
                        max_value=MAX_LENGTH,
                        widget=forms.NumberInput(attrs={"placeholder": "—"}),
                    )

    # -- reading the text ----------------------------------------------------------------

    def clean_consolation_from(self) -> list[int]:
        return _int_list(self.cleaned_data["consolation_from"], "main rounds")

    def clean_last_chance_from(self) -> list[int]:
        return _int_list(self.cleaned_data["last_chance_from"], "consolation rounds")

    def clean_feed_orders(self) -> list[str]:
        names = _names(self.cleaned_data["feed_orders"])
        known = [o.value for o in FeedOrder]
        for name in names:
            if name not in known:
                raise forms.ValidationError(
                    gettext_lazy("'%(name)s' is not a drop-in order; use %(join)s.")
                    % {"name": name, "join": ", ".join(known)}
                )
        return names

    def clean_prize_order(self) -> list[str]:
        return _names(self.cleaned_data["prize_order"])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        fmt = data.get("format")
        if fmt in FORMAT_OPTIONS:  # another format's fields are ignored, errors and all
            keep = self.fields_of(fmt)
            for name in list(self.errors):  # the errors so far (full_clean is running)
                if name in self.format_fields() and name not in keep:
                    del self.errors[name]
        chosen = [data.get(f"tie_break_{n}") for n in range(1, TIE_BREAK_SLOTS + 1)]
        data["tie_breaks"] = [t for t in chosen if t]
        return data

    @staticmethod
    def fields_of(fmt: str) -> set[str]:
        """The format-specific fields the format uses."""
        names = {o for o in FORMAT_OPTIONS[fmt] if o != "tie_breaks"}
        if "tie_breaks" in FORMAT_OPTIONS[fmt]:
            names |= {f"tie_break_{n}" for n in range(1, TIE_BREAK_SLOTS + 1)}
        for stage, _ in FORMAT_STAGES[fmt]:
            names |= {length_field_name(stage, s) for _, s, _ in STAGE_ROUNDS[stage]}
        return names

    @classmethod
    def format_fields(cls) -> set[str]:
        """Every format-specific field (those some format ignores)."""
        return set().union(*(cls.fields_of(f) for f in FORMAT_OPTIONS))

    # -- what the service gets -----------------------------------------------------------

    def groups_of(self) -> list[dict[str, Any]]:
        """The per-format groups, for the template: which formats each serves."""
        out = []
        for fmt, label in TournamentFormat.choices:
            stages = [
                {
                    "legend": legend,
                    "fields": [
                        self[length_field_name(stage, suffix)]
                        for _, suffix, _ in STAGE_ROUNDS[stage]
                    ],
                }
                for stage, legend in FORMAT_STAGES[fmt]
            ]
            out.append(
                {
                    "format": fmt,
                    "label": label,
                    "stages": stages,
                    "help": LENGTHS_HELP[fmt],
                }
            )
        return out

    def schedule(self) -> dict[str, Any]:
        """The match-length schedule: the default and the chosen format's rounds."""
        data = self.cleaned_data
        rounds: dict[str, dict[str, int]] = {}
        for stage, _ in FORMAT_STAGES[data["format"]]:
            for key, suffix, _ in STAGE_ROUNDS[stage]:
                length = data.get(length_field_name(stage, suffix))
                if length is not None:
                    rounds.setdefault(str(stage), {})[key] = length
        schedule: dict[str, Any] = {"default": data.get("length") or DEFAULT_LENGTH}
        if rounds:
            schedule["rounds"] = rounds
        return schedule

    def options(self) -> dict[str, Any]:
        """The keyword arguments of ``events.create_tournament``: those every event
        has, and the chosen format's; the fields of other formats are left out."""
        data = self.cleaned_data
        fmt = data["format"]
        options: dict[str, Any] = {
            "name": data["name"],
            "format": fmt,
            "slug": data["slug"] or "",
            "starts_on": data["starts_on"],
            "ends_on": data["ends_on"],
            "seeding": data["seeding"] or SeedingMethod.RATING,
            "match_lengths": self.schedule(),
            "crawford": data["crawford"],
            "rated": data["rated"],
            "variant": data.get("variant") or "standard",
        }
        if data.get("random_seed") is not None:
            options["random_seed"] = data["random_seed"]
        defaults = format_registry.spec(fmt).option_defaults
        for option in FORMAT_OPTIONS[fmt]:
            value = data.get(option)
            options[option] = defaults.get(option) if value is None else value
        return options

    def fieldset_formats(self) -> dict[str, str]:
        """For each group of options (and the preview), the formats it serves, as the
        template's ``data-formats`` (the page's script shows the chosen format's)."""
        served = {
            group.key: " ".join(
                f
                for f, options in FORMAT_OPTIONS.items()
                if {o.name for o in tournament_options.in_group(group.key)} & set(options)
            )
            for group in tournament_options.groups()
        }
        served["preview"] = " ".join(
            f.key for f in format_registry.specs() if f.preview is not None
        )
        return served

    def option_groups(self) -> list[dict[str, Any]]:
        """The create page's groups of format options, for the template: the legend,
        the formats served, the fields (check boxes last, below the others) and whether
        this is the tie-breaks' group (which shows the tie-break slots first)."""
        served = self.fieldset_formats()
        out = []
        for group in tournament_options.groups():
            shown = [o for o in tournament_options.in_group(group.key) if o.label]
            shown.sort(key=lambda o: o.kind == OptionKind.BOOL)
            out.append(
                {
                    "key": group.key,
                    "legend": group.legend,
                    "serves": group.serves,
                    "formats": served[group.key],
                    "pair": group.pair,
                    "fields": [self[o.name] for o in shown if o.kind != OptionKind.BOOL],
                    "checks": [self[o.name] for o in shown if o.kind == OptionKind.BOOL],
                    "tie_breaks": any(
                        o.name == "tie_breaks" for o in tournament_options.in_group(group.key)
                    ),
                }
            )
        return out

    def preview_params(self) -> dict[str, Any] | None:
        """The arguments of ``draws.event_preview``; None while a field it reads is
        wrong (the errors say which) or for a format without a preview."""
        data = self.cleaned_data
        fmt = data.get("format")
        if fmt not in FORMAT_OPTIONS:
            return None
        preview = format_registry.spec(fmt).preview
        if preview is None:
            return None
        needed = {"format", "length", "preview_entries"} | (
            self.fields_of(fmt) - {f"tie_break_{n}" for n in range(1, TIE_BREAK_SLOTS + 1)}
        )
        if needed & set(self.errors):
            return None
        params: dict[str, Any] = {
            "format": fmt,
            "entries": data.get("preview_entries") or 16,
            "match_lengths": self.schedule(),
        }
        for option, default in preview.items():
            value = data.get(option, default)
            params[option] = default if isinstance(default, list) and not value else value
        return params

    def field_for(self, error_field: str | None) -> str | None:
        """The form field a service error names (``match_lengths.rounds.main.-1`` is the
        main draw's final), or None for an error about the whole form."""
        if not error_field:
            return None
        if error_field == "tie_breaks":
            return "tie_break_1"
        if error_field in ("match_lengths", "match_lengths.default"):
            return "length"
        found = re.match(r"^match_lengths\.rounds\.([a-z_]+)\.(-?\d+)$", error_field)
        if found:
            for key, suffix, _ in STAGE_ROUNDS.get(found[1], ()):
                if key == found[2]:
                    return length_field_name(found[1], suffix)
            return "length"
        return error_field if error_field in self.fields else None
