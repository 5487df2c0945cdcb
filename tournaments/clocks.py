"""The clock policy of a tournament's match (games.clock_policies): the round's
policy when it sets one, else the event's; the event's preset and flag rule."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.clock_policies import MatchClockPolicy
from games.rules.clock import FlagRule, Preset

from .models import Pairing


def tournament_clock_policy(match_id: int) -> MatchClockPolicy | None:
    pairing = (
        Pairing.objects.select_related("round", "tournament").filter(match_id=match_id).first()
    )
    if pairing is None:
        return None
    event = pairing.tournament
    try:
        preset = Preset(event.clock_preset)
        flag_rule = FlagRule(event.clock_flag_rule)
    except ValueError:  # a value no form offers: the defaults, rather than a 500
        preset, flag_rule = Preset.USBGF, FlagRule.LOSS
    return MatchClockPolicy(
        policy=pairing.round.clock_policy or event.clock_policy,
        preset=preset,
        flag_rule=flag_rule,
        overtime_ms=event.clock_overtime_ms,
        # the clock page's title line: "Tuesday Swiss, round 3", in the page's language
        event=_("%(event)s, round %(number)s")
        % {"event": event.name, "number": pairing.round.number},
    )
