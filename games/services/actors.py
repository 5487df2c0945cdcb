"""Finding the actor (:class:`core.actors.Actor`) of a request, and where it stands on a
match: the player a user or a score link speaks for, a match's directors and sides."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import AnonymousUser, User

from core import access
from core.actors import Actor
from core.errors import N_
from games.models import Match, Player
from games.rules.errors import NotAllowed


def actor_for_user(user: User | AnonymousUser | None) -> Actor:
    if user is None or not user.is_authenticated:
        return Actor(user=None, player=None)
    return Actor(user=user, player=_player_of(user), is_admin=access.is_site_admin(user))


#: ``user.player``, the reverse side of ``Player.user``.
_USER_PLAYER = Player._meta.get_field("user").remote_field


def _player_of(user: User) -> Player | None:
    """The user's player: no query when it came with the user (the API's token check
    selects it with the token), else one."""
    if _USER_PLAYER.is_cached(user):
        # the stubs type the cache as any Model; this relation's holds a Player (or None)
        return cast("Player | None", _USER_PLAYER.get_cached_value(user))
    return Player.objects.filter(user=user).first()


def actor_for_score_link(player: Player) -> Actor:
    return Actor(user=None, player=player, via_score_link=True)


def is_match_director(actor: Actor, match: Match) -> bool:
    if actor.is_admin:
        return True
    if actor.user is None:
        return False
    return match.club.directors.filter(pk=actor.user.pk).exists()


def participant_side(actor: Actor, match: Match) -> int | None:
    return match.side_of(actor.player)


def require_own_link(actor: Actor, match: Match, link_player_id: int) -> None:
    """Refuse a signed-in player who presents their *opponent's* private link.

    A link speaks for one player; a person whose account is the other player of the
    match holds a link that is not theirs (it leaked, or was handed to the wrong
    side), and acting through it would let them confirm, dispute or undo on the
    opponent's behalf. Directors keep their authority whatever link they carry (they
    may confirm for either side anyway); an account that plays no part in the match
    is checked by the write itself. 403 ``link_not_yours``.
    """
    side = participant_side(actor, match)
    if side is None or (match.player1_id, match.player2_id)[side] == link_player_id:
        return
    if is_match_director(actor, match):
        return
    raise NotAllowed(
        "link_not_yours",
        N_(
            "This is your opponent's private score link: you are signed in as the other "
            "player of this match. Use your own link or your account."
        ),
        field="link",
    )


def actor_for_link(user: User | AnonymousUser | None, match: Match, player: Player) -> Actor:
    """Who acts on a score-link page: the link's player; but a signed-in person who is
    the match's *other* player is refused (:func:`require_own_link`), unless they direct
    the match, and then they act as themselves (a director), not in the opponent's name."""
    link = actor_for_score_link(player)
    if user is None or not user.is_authenticated:
        return link
    account = actor_for_user(user)
    require_own_link(account, match, player.pk)
    side = participant_side(account, match)
    if side is not None and (match.player1_id, match.player2_id)[side] != player.pk:
        return account
    return link
