"""The tenancy wall: the guards every door that touches a person calls before writing.

A person is not a club's property (``games.access`` says who is who). The guards here
turn those rules into refusals with a code, raised before anything is written:

* ``player_not_in_club`` (403): a player id named for a club they are not a member of
  (an event entry, a chouette seat, a match, a payment, a Calcutta buyer). Nobody
  joins a club or its events by being named: the person joins the club themself
  (:func:`join_club`, signed in), or the club writes in a walk-in of its own;
* ``person_not_yours`` (403): a change to the person (name, address, account, sign-in
  code, invitation, results' visibility) by a director who does not keep their record;
* ``consent_required`` (403): a director adding a person to another club of theirs
  without the person's consent.

See docs/reliability.md, "Tenancy", for the matrix of doors.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from core import access as core_access
from core.actors import Actor
from core.errors import N_
from games import access
from games.models import Club, Membership, Player
from games.rules.errors import NotAllowed, RuleViolation


def _user(actor: Actor) -> User | AnonymousUser:
    """The actor's account; an anonymous one for a score link (it speaks for no person)."""
    return actor.user if actor.user is not None else AnonymousUser()


def require_member(*, club: Club, player: Player, field: str = "player") -> None:
    """403 ``player_not_in_club`` unless the player is a member of ``club``."""
    if not Membership.objects.filter(club=club, player=player).exists():
        raise NotAllowed(
            "player_not_in_club",
            N_(
                "%(player)s is not a member of %(club)s: a player joins a club "
                "themself (signed in, on the club's page), or add them as a walk-in.",
                player=player.display_name,
                club=club.name,
            ),
            field,
        )


def require_members(*, club: Club, player_ids: list[int], field: str) -> None:
    """:func:`require_member` for many ids at once (one query); the error names the
    first one that is not a member, as ``field[index]``."""
    members = set(
        Membership.objects.filter(club=club, player_id__in=player_ids).values_list(
            "player_id", flat=True
        )
    )
    for index, pk in enumerate(player_ids):
        if pk not in members:
            player = Player.objects.filter(pk=pk).first()
            if player is None:
                raise RuleViolation(
                    "player_not_found", N_("There is no player %(pk)s.", pk=pk), f"{field}[{index}]"
                )
            require_member(club=club, player=player, field=f"{field}[{index}]")


def require_person_editor(*, actor: Actor, player: Player, field: str) -> None:
    """403 ``person_not_yours`` unless the actor may change the person themself."""
    if actor.is_admin or access.can_edit_person(_user(actor), player):
        return
    raise NotAllowed(
        "person_not_yours",
        N_(
            "%(player)s's name, address and account are theirs: only they change them "
            "(a club keeps them only for a walk-in of its own without an account).",
            player=player.display_name,
        ),
        field,
    )


def require_record_keeper(*, actor: Actor, club: Club, player_id: int) -> None:
    """The guard of sign-in codes and invitations: the player is a member of ``club``,
    and the actor may act for the person (a site admin, or a director keeping a
    walk-in's record). Anything else is refused before a code or a link exists."""
    core_access.require_director(
        actor, club, detail=N_("Only the club's directors give players accounts.")
    )
    player = Player.objects.filter(pk=player_id).select_related("user").first()
    if player is None:
        return  # the service itself answers for an unknown id
    require_member(club=club, player=player)
    require_person_editor(actor=actor, player=player, field="player")


def require_enrolment(*, actor: Actor, player: Player, club: Club, field: str = "clubs") -> None:
    """403 ``consent_required`` unless the actor may add the player to ``club``: the
    person themself, a site admin, or a director keeping a walk-in's record."""
    if actor.is_admin or access.may_enrol(_user(actor), player):
        return
    raise NotAllowed(
        "consent_required",
        N_(
            "%(player)s joins %(club)s only with their consent: they join it themself, "
            "signed in, on the club's page.",
            player=player.display_name,
            club=club.name,
        ),
        field,
    )


@transaction.atomic
def join_club(*, actor: Actor, club: Club) -> tuple[Membership, bool]:
    """The person joins a club themself (their consent): their player, signed in,
    becomes a member. Joining twice is harmless (``created`` False)."""
    if actor.user is None or actor.player is None:
        raise NotAllowed(
            "player_account_required",
            N_("Sign in with a player's account to join a club."),
            "player",
        )
    return Membership.objects.get_or_create(club=club, player=actor.player)
