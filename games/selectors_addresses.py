"""Whether a club may mail a player: the one read every door that mails a player asks.

Why (issue #37, "Clubs among strangers"): a director is a stranger to the people whose
addresses they type, so a player's address is not one Boxcars may mail until its owner
said so. A player of a club may be mailed when the owner of ``player.email``

- followed the club's link for it (``games.ConfirmedAddress`` of that club, confirmed),
  or
- confirmed it as the address of **the player's own account** (``games.AccountAddress``
  of ``player.user``, the same address as the account's now).

An address that is some *other* account's confirmed address does not count: its owner
agreed to Boxcars mailing their account, not to a director mailing whatever player
record the director typed it into. Until then a door sends the address only the club's
link (``games.services.addresses.send_club_link``) and reports the player as not
confirmed, so the director hands them a slip.

The states, read in two queries for any number of players:

- ``CONFIRMED``: may be mailed;
- ``WAITING``: a link was sent (``ConfirmedAddress`` row, not yet confirmed);
- ``NOT_ASKED``: no link yet (the address was set before this rule, or the mail cap
  held the link back): the director sends one from the player's page;
- ``NO_ADDRESS``: the player has none.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.models import AccountAddress, Club, ConfirmedAddress, Player
from games.rules.addresses import normalize
from games.rules.errors import RuleViolation

CONFIRMED = "confirmed"
WAITING = "waiting"
NOT_ASKED = "not_asked"
NO_ADDRESS = "none"


def _normal(email: str) -> str | None:
    try:
        return normalize(email)
    except RuleViolation:
        return None


def address_states(club: Club, players: Iterable[Player]) -> dict[int, str]:
    """Each player's address state for ``club`` (module docstring), by player id."""
    players = list(players)
    normals = {p.pk: _normal(p.email) if p.email else None for p in players}
    wanted = {n for n in normals.values() if n}
    asked: dict[str, bool] = {}
    if wanted:
        asked = {
            normal: confirmed_at is not None
            for normal, confirmed_at in ConfirmedAddress.objects.filter(
                club=club, normalized__in=wanted
            ).values_list("normalized", "confirmed_at")
        }
    user_ids = {p.user_id for p in players if p.user_id is not None and normals[p.pk]}
    accounts: dict[int, str] = {}
    if user_ids:
        for user_id, normal, email, user_email in AccountAddress.objects.filter(
            user_id__in=user_ids, confirmed_at__isnull=False, normalized__isnull=False
        ).values_list("user_id", "normalized", "email", "user__email"):
            if normal and email == user_email:  # a changed account's row is stale
                accounts[user_id] = normal
    states: dict[int, str] = {}
    for player in players:
        normal = normals[player.pk]
        if not player.email:
            states[player.pk] = NO_ADDRESS
        elif normal is not None and (
            asked.get(normal) is True
            or (player.user_id is not None and accounts.get(player.user_id) == normal)
        ):
            states[player.pk] = CONFIRMED
        elif normal is not None and normal in asked:
            states[player.pk] = WAITING
        else:
            states[player.pk] = NOT_ASKED
    return states


def mailable(club: Club, players: Iterable[Player]) -> set[int]:
    """The ids of the players ``club`` may mail (their address is confirmed)."""
    return {pk for pk, state in address_states(club, players).items() if state == CONFIRMED}


def may_mail_player(club: Club, player: Player) -> bool:
    """Whether ``club`` may send ``player`` anything but its link (module docstring)."""
    return address_states(club, [player])[player.pk] == CONFIRMED
