"""The weekend's settings of an event, on the create page and the event's settings page:
capacity (registrations beyond it wait on the waitlist), required check-in, and the
clock policy, for the event and per round (``tournaments.formats.clock_plan``).

A form of its own, next to the create page's format form (``tournaments.forms``) rather
than inside it: the format options change with the format, these never do. The rules
are the service's (``events.check_config``); the form reads the text and says a broken
rule next to its field.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from core.wording import mid_sentence
from tournaments import options as tournament_options
from tournaments.models import ClockPolicy, StageKind, Tournament
from tournaments.option_catalog import POLICY_CHOICES
from tournaments.option_fields import add_page_fields

#: The rounds a clock plan item can start from: a number, or counted from the end.
FROM_ROUNDS = (
    ("1", gettext_lazy("Round 1")),
    ("2", gettext_lazy("Round 2")),
    ("3", gettext_lazy("Round 3")),
    ("4", gettext_lazy("Round 4")),
    ("-3", gettext_lazy("Quarter-finals (3rd round from the end)")),
    ("-2", gettext_lazy("Semi-finals (2nd round from the end)")),
    ("-1", gettext_lazy("Final (last round)")),
)
#: The names the service's errors use, and the field each is shown next to.
SERVICE_FIELDS = {"clock_rounds": "clock_from_round"}


class EventSettingsForm(forms.Form):
    clock_from_stage = forms.ChoiceField(
        label=gettext_lazy("Per round: stage"),
        required=False,
        choices=[("", "—"), *StageKind.choices],
    )
    clock_from_round = forms.ChoiceField(
        label=gettext_lazy("From round"),
        required=False,
        choices=[("", "—"), *FROM_ROUNDS],
    )
    clock_from_policy = forms.ChoiceField(
        label=gettext_lazy("Policy from that round on"),
        required=False,
        choices=[("", "—"), *POLICY_CHOICES],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # capacity, check_in_required, clock_policy: declared in tournaments.option_catalog
        # (clock_policy blank, a form without this block: clocks allowed)
        fields = dict(self.fields)
        self.fields.clear()
        add_page_fields(self, tournament_options.on_page("settings"))
        self.fields.update(fields)

    @classmethod
    def for_event(cls, tournament: Tournament, data: Any = None) -> EventSettingsForm:
        """The form filled with the event's settings (its first per-round item)."""
        initial: dict[str, Any] = {
            "capacity": tournament.capacity,
            "check_in_required": tournament.check_in_required,
            "clock_policy": tournament.clock_policy,
        }
        if tournament.clock_rounds:
            item = tournament.clock_rounds[0]
            initial |= {
                "clock_from_stage": item["stage"],
                "clock_from_round": str(item["from"]),
                "clock_from_policy": item["policy"],
            }
        return cls(data, initial=initial)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        parts = ("clock_from_stage", "clock_from_round", "clock_from_policy")
        given = [name for name in parts if data.get(name)]
        if given and len(given) < len(parts):
            for name in parts:
                if not data.get(name):
                    self.add_error(
                        name,
                        gettext(
                            "A per-round clock policy needs the stage, the round it "
                            "starts from and the policy: fill in all three or none."
                        ),
                    )
        return data

    def options(self) -> dict[str, Any]:
        """The service's keyword arguments (``events.create_tournament`` and
        ``configure_tournament``)."""
        data = self.cleaned_data
        plan = []
        if data.get("clock_from_stage"):
            plan.append(
                {
                    "stage": data["clock_from_stage"],
                    "from": int(data["clock_from_round"]),
                    "policy": data["clock_from_policy"],
                }
            )
        return {
            "capacity": data.get("capacity"),
            "check_in_required": bool(data.get("check_in_required")),
            "clock_policy": data.get("clock_policy") or ClockPolicy.ALLOWED.value,
            "clock_rounds": plan,
        }

    def changes(self, tournament: Tournament) -> dict[str, Any]:
        """Only what differs from the event (capacity and check-in are fixed once the
        event has started; the clocks may change at any time)."""
        return {
            name: value
            for name, value in self.options().items()
            if getattr(tournament, name) != value
        }

    def field_for(self, error_field: str | None) -> str | None:
        """The form field a service error names, None when it is not one of these."""
        if not error_field:
            return None
        name = SERVICE_FIELDS.get(error_field, error_field)
        return name if name in self.fields else None


def settings_summary(tournament: Tournament) -> str:
    """The settings in one sentence, for the message after a save or a create."""
    parts = [
        gettext("capacity %(n)s (a waitlist beyond it)") % {"n": tournament.capacity}
        if tournament.capacity
        else gettext("no capacity limit"),
        gettext("check-in required") if tournament.check_in_required else gettext("no check-in"),
        mid_sentence(dict(POLICY_CHOICES)[tournament.clock_policy])
        if tournament.clock_policy in dict(POLICY_CHOICES)
        else tournament.clock_policy,
    ]
    for item in tournament.clock_rounds:
        parts.append(
            gettext("%(policy)s from %(round)s of %(stage)s")
            % {
                "policy": mid_sentence(dict(POLICY_CHOICES)[item["policy"]]),
                "round": mid_sentence(dict(FROM_ROUNDS).get(str(item["from"]), item["from"])),
                "stage": mid_sentence(StageKind(item["stage"]).label),
            }
        )
    return ", ".join(str(p) for p in parts)
