"""Creating a match: directors create any match of their club, players an unrated
friendly they play in. A new match has no result, so nothing is announced."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from core.actors import Actor
from core.errors import N_
from core.text import require_single_line
from games.models import Club, Match, Player
from games.rules.errors import NotAllowed, RuleViolation
from games.rules.scoring import MatchRules


@transaction.atomic
def create_match(
    *,
    actor: Actor,
    club: Club,
    player1: Player,
    player2: Player,
    length: int,
    crawford: bool = True,
    rated: bool = True,
    cube_limit: int | None = None,
    variant: str = "standard",
    label: str = "",
    played_on: date | None = None,
) -> Match:
    """Directors create any match of their club; players an unrated friendly of their own."""
    from core import access

    if actor.via_score_link or (actor.user is None and not actor.is_admin):
        # A private score link speaks for one player of one match: it creates nothing.
        raise NotAllowed(
            "account_required", N_("Sign in to create a match; a score link only scores its match.")
        )
    if player1.pk == player2.pk:
        raise RuleViolation(
            "same_player_twice", N_("A match needs two different players."), "player2"
        )
    MatchRules(length=length, crawford=crawford, cube_limit=cube_limit, variant=variant)  # checks
    require_single_line(label, field="label")
    director = actor.user is not None and access.is_director(actor.user, club)
    if not director:
        if actor.player is None or actor.player.pk not in (player1.pk, player2.pk):
            raise NotAllowed(
                "directors_only",
                N_(
                    "Only the club's directors create matches for others; players may "
                    "create an unrated friendly match they play in."
                ),
            )
        if rated:
            raise NotAllowed(
                "friendly_matches_are_unrated",
                N_(
                    "Players may only create unrated friendly matches; ask a director for "
                    "a rated one."
                ),
                field="rated",
            )
    for player, field in ((player1, "player1"), (player2, "player2")):
        if not player.memberships.filter(club=club).exists():  # tenancy: 403
            raise NotAllowed(
                "player_not_in_club",
                N_("%(player)s is not a member of %(club)s.", player=player, club=club),
                field=field,
            )
    return Match.objects.create(
        club=club,
        player1=player1,
        player2=player2,
        length=length,
        crawford=crawford,
        rated=rated and length > 0,
        cube_limit=cube_limit,
        variant=variant,
        label=label,
        played_on=played_on,
        created_by=actor.user,
    )


def create_event_match(
    *,
    club_id: int,
    player1_id: int,
    player2_id: int,
    length: int,
    crawford: bool,
    rated: bool,
    variant: str,
    label: str,
    created_by_id: int | None,
) -> Match:
    """A match an event's draw makes when a result moves its players on.

    No one's permission is asked and no membership looked up: the event's own service
    calls this inside the result's transaction, for two of the event's entries, under
    the rules its director set (checked then, and again here: they are pure). At a
    championship's round end this is most finishing requests' work, and the checks of
    :func:`create_match` (a director lookup, a membership per player, a savepoint) were
    a fifth of their queries; a player who left the club meanwhile still plays the
    event they entered.
    """
    if player1_id == player2_id:
        raise RuleViolation(
            "same_player_twice", N_("A match needs two different players."), "player2"
        )
    MatchRules(length=length, crawford=crawford, variant=variant)  # checks
    return Match.objects.create(
        club_id=club_id,
        player1_id=player1_id,
        player2_id=player2_id,
        length=length,
        crawford=crawford,
        rated=rated and length > 0,
        variant=variant,
        label=label,
        created_by_id=created_by_id,
    )
