"""Opening a chouette session (stake, house rules, the opening order) and closing it."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, cast

from django.db import transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from core.actors import Actor
from core.errors import N_
from core.numbers import is_ascii_number
from core.text import require_single_line
from games.models import Club
from games.rules.errors import NotAllowed, RuleViolation

from ..models import RuleProfile, Seat, Session, SessionStatus
from ..records import build_rules, rules_values
from ..rules import Lineup
from ..rules import order_from_rolls as rules_order_from_rolls
from ..rules.settlement import stake_in_cents
from .common import (
    authored,
    bump,
    check_version,
    is_director,
    lock_session,
    players_of,
    require_open,
    require_writer,
)


def _parse_stake(stake: Any) -> Decimal:
    if isinstance(stake, str) and not is_ascii_number(stake):  # Decimal reads "١" as 1
        raise RuleViolation(
            "invalid_stake", N_("%(stake)r is not an amount such as 1.00.", stake=stake), "stake"
        )
    try:
        value = Decimal(str(stake))
    except (InvalidOperation, ValueError):
        raise RuleViolation(
            "invalid_stake", N_("%(stake)r is not an amount such as 1.00.", stake=stake), "stake"
        ) from None
    stake_in_cents(value)  # above zero, whole cents
    if value >= Decimal("100000000"):
        raise RuleViolation("invalid_stake", N_("The stake per point is too large."), "stake")
    return value


@transaction.atomic
def open_session(
    *,
    actor: Actor,
    club: Club,
    stake: Any,
    currency: str = "EUR",
    played_on: date | None = None,
    label: str = "",
    profile: str = RuleProfile.MODERN,
    rules: Mapping[str, Any] | None = None,
    players: Sequence[int] | None = None,
    rolls: Mapping[int, int | Sequence[int]] | None = None,
) -> Session:
    """Open a session with an order given by hand (``players``) or from opening ``rolls``.

    Directors open any session of their club; a club member opens one they sit in.
    """
    if actor.user is None:
        raise NotAllowed("login_required", N_("Log in to open a chouette."))
    if (players is None) == (rolls is None):
        raise RuleViolation(
            "order_required",
            N_("Give the opening order either as 'players' (box first) or as 'rolls'."),
            "players",
        )
    chouette_rules = build_rules(profile, rules)
    value = _parse_stake(stake)
    if not currency or len(currency) != 3 or not currency.isalpha():
        raise RuleViolation("invalid_currency", N_("The currency is a 3-letter code."), "currency")
    require_single_line(label, field="label")
    if rolls is not None:
        ids = list(rolls)
        players_of(club, ids, "rolls")
        lineup = rules_order_from_rolls(cast("Mapping[Hashable, int | Sequence[int]]", rolls))
    else:
        ids = list(players or [])
        if len(set(ids)) != len(ids):
            duplicate = next(pk for pk in ids if ids.count(pk) > 1)
            raise RuleViolation(
                "player_seated_twice",
                N_(
                    "Player %(duplicate)s is seated twice: every player has one seat.",
                    duplicate=duplicate,
                ),
                f"players[{ids.index(duplicate, ids.index(duplicate) + 1)}]",
            )
        players_of(club, ids, "players")
        lineup = Lineup.from_order(ids)
    if len(lineup.players) < 3:
        raise RuleViolation(
            "too_few_players", N_("A chouette is played by three or more players."), "players"
        )
    director = is_director(actor, club)
    if not director and (actor.player is None or actor.player.pk not in lineup.players):
        raise NotAllowed(
            "directors_or_players_only",
            N_(
                "Only the club's directors, or a club member who sits at the table, "
                "open a chouette."
            ),
        )
    session = Session(
        club=club,
        stake=value,
        currency=currency.upper(),
        played_on=played_on or timezone.localdate(),
        label=label,
        profile=profile,
        opening_order=list(lineup.players),
        opening_rolls=({str(k): v for k, v in rolls.items()} if rolls is not None else None),
        lineup=list(lineup.players),
        created_by=actor.user,
        **rules_values(chouette_rules),
    )
    authored(actor, session).save()
    bulk_create_with_history(
        [
            # the rules' players are Hashable; ours are pks
            Seat(session=session, player_id=cast(int, pk), join_order=index)
            for index, pk in enumerate(lineup.players)
        ],
        Seat,
        default_user=actor.user,
    )
    return session


@transaction.atomic
def close_session(*, actor: Actor, session_id: int, expected_version: int | None = None) -> Session:
    """Close the session: the ledger is final and the settlement stands."""
    session = lock_session(session_id)
    require_writer(actor, session)
    check_version(session, expected_version)
    require_open(session)
    session.status = SessionStatus.CLOSED
    session.closed_at = timezone.now()
    bump(session, actor)
    return session
