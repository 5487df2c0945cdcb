"""A round's own clock policy: the final may require clocks, a side event drop them.

The event's policy (``Tournament.clock_policy``) holds for every round whose own is
blank; ``tournaments.clocks`` reads the round's first. Directors set it per round from
the dashboard or the API; the tournament's version is bumped so a second director's
stale ``If-Match`` is refused rather than silently overwriting this choice.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core.actors import Actor
from core.errors import RuleViolation
from tournaments.models import ClockPolicy, Round

from .common import bump, check_version, lock_tournament, require_director

EVENT_DEFAULT = ""
"""The blank policy: the round follows the event's."""


def allowed_policies() -> list[str]:
    """Every value a round's policy may take (blank first: the event's)."""
    return [EVENT_DEFAULT, *ClockPolicy.values]


@transaction.atomic
def set_round_clock_policy(
    *,
    actor: Actor,
    tournament_id: int,
    round_number: int,
    policy: str,
    stage: str | None = None,
    expected_version: int | None = None,
) -> list[Round]:
    """Set round ``round_number`` of every stage (or of ``stage`` only) to ``policy``.

    Directors of the club only; 400 ``clock_policy_unknown`` naming the allowed values,
    400 ``round_not_found`` when the event has no such round yet. Returns the rounds.
    """
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    check_version(tournament, expected_version)
    if policy not in allowed_policies():
        raise RuleViolation(
            "clock_policy_unknown",
            _("clock_policy is blank (the event's) or one of %(values)s.")
            % {"values": ", ".join(ClockPolicy.values)},
            "clock_policy",
        )
    rounds = Round.objects.filter(stage__tournament=tournament, number=round_number)
    if stage:
        rounds = rounds.filter(stage__kind=stage)
    found = list(rounds.select_related("stage").order_by("stage_id"))
    if not found:
        raise RuleViolation("round_not_found", _("There is no such round here."), "round")
    Round.objects.filter(pk__in=[r.pk for r in found]).update(clock_policy=policy)
    for round_ in found:
        round_.clock_policy = policy
    bump(tournament)
    return found
