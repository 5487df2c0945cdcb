"""The box's partner in a chouette: who it is for a game and how the box's total is shared.

Sources and decisions: :mod:`chouette.rules.payouts` ("Partner"): the partner is taken
once the table reaches ``partner_threshold``; the total is split evenly, the odd point to
the box, in both directions.
"""

from __future__ import annotations

from core.errors import N_
from games.rules.errors import RuleViolation

from .house_rules import ChouetteRules, PartnerChoice
from .order import Lineup
from .types import Player


def partner_for_game(rules: ChouetteRules, lineup: Lineup, given: Player | None) -> Player | None:
    """The box's partner for a game with this lineup, or None.

    The box takes a partner once the seated players reach ``partner_threshold``. With
    ``PartnerChoice.BOTTOM`` it is the last member in line; a recorded partner must be
    that player. With ``PartnerChoice.GIVEN`` the record names any member but the
    captain, who must play the board.
    """
    threshold = rules.partner_threshold
    if threshold is None or len(lineup.players) < threshold:
        if given is not None:
            raise RuleViolation(
                "partner_not_allowed",
                "The box takes a partner only when the house rules allow and the table "
                f"has {threshold} players or more."
                if threshold is not None
                else "The house rules give the box no partner.",
                field="partner",
            )
        return None
    if rules.partner_choice is PartnerChoice.BOTTOM:
        bottom = lineup.team[-1]
        if given is not None and given != bottom:
            raise RuleViolation(
                "partner_not_bottom",
                N_(
                    "The partner is the last member in line (%(bottom)r), not %(given)r.",
                    bottom=bottom,
                    given=given,
                ),
                field="partner",
            )
        return bottom
    if given is None:
        raise RuleViolation(
            "partner_missing", N_("Name the box's partner for this game."), field="partner"
        )
    if given == lineup.box or given not in lineup.team:
        raise RuleViolation(
            "partner_not_on_team",
            N_("%(given)r is not a team member.", given=given),
            field="partner",
        )
    if given == lineup.captain:
        raise RuleViolation(
            "partner_is_captain",
            N_("The captain plays the board for the team and cannot be the box's partner."),
            field="partner",
        )
    return given


def split_with_partner(total: int) -> tuple[int, int]:
    """(box share, partner share) of the box side's total: evenly, the odd point to the box."""
    magnitude = abs(total)
    box_share = (magnitude + 1) // 2
    if total < 0:
        box_share = -box_share
    return box_share, total - box_share
