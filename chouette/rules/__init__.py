"""The chouette's rules in pure Python (no Django): order, rotation, payouts, settlement.

Implements ``docs/rules.md``, "The chouette" and the money-play sections, whose sources
are Thorne 1930 (*Chouette*) and the modern rules (*Doubling cube*); the money-play options
and the value of a cube come from :mod:`games.rules.money`. Each module says which
rule it implements and the decisions it takes where the sources are silent.
"""

from core.settlement import minimum_transfers

from .house_rules import (
    HOUSE_RULE,
    HOUSE_RULES,
    BoxRetention,
    ChouetteRules,
    Consultation,
    CubeMode,
    HouseRule,
    PartnerChoice,
)
from .ledger import Ledger, LedgerRow
from .order import Lineup, order_from_rolls
from .partner import partner_for_game, split_with_partner
from .payouts import score_game
from .records import GameRecord, GameScore, MemberRecord, Position
from .rotation import lineup_after, rotate
from .session import GameReplay, Join, Leave, SessionReplay, next_game, replay_session
from .settlement import Transfer, money_totals, settle
from .types import Player, Side

__all__ = [
    "HOUSE_RULE",
    "HOUSE_RULES",
    "BoxRetention",
    "ChouetteRules",
    "Consultation",
    "CubeMode",
    "GameRecord",
    "GameReplay",
    "GameScore",
    "HouseRule",
    "Join",
    "Leave",
    "Ledger",
    "LedgerRow",
    "Lineup",
    "MemberRecord",
    "PartnerChoice",
    "Player",
    "Position",
    "SessionReplay",
    "Side",
    "Transfer",
    "lineup_after",
    "minimum_transfers",
    "money_totals",
    "next_game",
    "order_from_rolls",
    "partner_for_game",
    "replay_session",
    "rotate",
    "score_game",
    "settle",
    "split_with_partner",
]
