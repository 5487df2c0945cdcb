"""The clock policy of a tournament's match (games.clock_policies): the round's
policy when it sets one, else the event's; the event's preset and flag rule."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.clock_policies import MatchClockPolicy
from games.rules.clock import FlagRule, Preset

from .models import Pairing


def tournament_clock_policy(match_id: int) -> MatchClockPolicy | None:
    """Read on every final result (is a clock required?): the few columns it needs in
    one query, not the tournament's whole row (its JSON options cost a third of the
    read, profiled on a championship's final scores)."""
    row = (
        Pairing.objects.filter(match_id=match_id)
        .values(
            "round__clock_policy",
            "round__number",
            "tournament__clock_policy",
            "tournament__clock_preset",
            "tournament__clock_flag_rule",
            "tournament__clock_overtime_ms",
            "tournament__name",
        )
        .first()
    )
    if row is None:
        return None
    try:
        preset = Preset(row["tournament__clock_preset"])
        flag_rule = FlagRule(row["tournament__clock_flag_rule"])
    except ValueError:  # a value no form offers: the defaults, rather than a 500
        preset, flag_rule = Preset.USBGF, FlagRule.LOSS
    return MatchClockPolicy(
        policy=row["round__clock_policy"] or row["tournament__clock_policy"],
        preset=preset,
        flag_rule=flag_rule,
        overtime_ms=row["tournament__clock_overtime_ms"],
        # the clock page's title line: "Tuesday Swiss, round 3", in the page's language
        event=_("%(event)s, round %(number)s")
        % {"event": row["tournament__name"], "number": row["round__number"]},
    )
