"""Who may do what with players: the object permissions shared by the API and the pages.

Clubs are tenants; a person is not a club's property (docs/reliability.md, "Tenancy").
A :class:`~games.models.Player` is two things at once:

* **the person**: their account, sign-in, e-mail address, language, name and whether
  their page lists their results. These belong to the person: only the person (signed
  in) or a site admin changes them;
* **a membership** of each club they belong to: what that club records about them.
  A club's directors manage their own club's memberships, nobody else's.

One exception keeps a club night running: a **walk-in** the club created, who has no
account of their own yet and belongs to no other club, is still in the club's keeping.
Its directors may correct that record (name, address), print them a sign-in code or
send them an invitation, as they did when they wrote them in. The keeping ends the
moment the person has an account they have signed in to, or belongs to a club that
the director does not direct: from then on the record is the person's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.access import is_site_admin

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from .models import Player

    AnyUser = User | AnonymousUser


def directs_any_club_of(user: AnyUser, player: Player) -> bool:
    """A site admin, or a director of at least one club of the player: may open the
    player's edit page, to manage their own club's membership."""
    if not user.is_authenticated:
        return False
    if is_site_admin(user):
        return True
    return player.clubs.filter(directors=user).exists()


def is_the_person(user: AnyUser, player: Player) -> bool:
    """The signed-in user is this player."""
    return bool(user.is_authenticated and player.user_id is not None and player.user_id == user.pk)


def has_own_account(player: Player) -> bool:
    """The person has an account they have signed in to: their record is theirs.

    An account that was never signed in to is the club's placeholder (made by a
    printed sign-in code or an invitation not yet taken up): it does not end the club's
    keeping, so a lost slip can be printed again."""
    account = player.user if player.user_id is not None else None
    return account is not None and account.last_login is not None


def keeps_record(user: AnyUser, player: Player) -> bool:
    """A director who still keeps a walk-in's record (see the module's docstring): the
    person has no account of their own, and every club they belong to is one this user
    directs (a walk-in belongs to the one club that wrote them in)."""
    if not user.is_authenticated or has_own_account(player):
        return False
    clubs = list(player.clubs.values_list("pk", flat=True))
    if not clubs:
        return False
    directed = set(user.directed_clubs.filter(pk__in=clubs).values_list("pk", flat=True))
    return directed == set(clubs)


def can_edit_person(user: AnyUser, player: Player) -> bool:
    """Name, e-mail, language, account, results' visibility: the person, a site admin,
    or a director who still keeps a walk-in's record."""
    if not user.is_authenticated:
        return False
    if is_the_person(user, player) or is_site_admin(user):
        return True
    return keeps_record(user, player)


def may_enrol(user: AnyUser, player: Player) -> bool:
    """Who may add the player to a club they are not a member of yet: the person
    themself (their consent), a site admin, or the director keeping a walk-in's record
    (the walk-in joins another club of the same director's)."""
    return can_edit_person(user, player)


def can_edit_player(user: AnyUser, player: Player) -> bool:
    """May send a change to the player at all: the person, a director of one of their
    clubs (for their club's membership), or a site admin. Which fields the change may
    touch is decided field by field (:func:`can_edit_person`) by the service."""
    if not user.is_authenticated:
        return False
    if is_the_person(user, player):
        return True
    return directs_any_club_of(user, player)
