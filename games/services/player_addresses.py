"""A player's address as a director sets it: the write, then one link to its owner.

Why (issue #37): a director typing an address is no proof that its owner wants the
club's mail, so the address's first and only mail is the club's link asking them to
agree (``addresses.send_club_link``); the score links and round calls wait for it
(``games.selectors_addresses``). The doors that set an address (a player made or
changed through the API and the pages, a walk-in of the club or of an event) call the
functions here, which write through ``games.services.clubs`` and then ask.

Asking spends the mail caps like any send (``core.mail_caps``), but a spent cap never
undoes the write: the address is saved, no link goes out, and the answer says so
(``LINK_HELD``); the director sends it later with :func:`resend_link`, which *is* the
mail action and so answers 429 when the cap is spent. An address already confirmed
(for the club, or the player's own account's) gets nothing: a person who registers
themself with their confirmed account address needs nothing more.
"""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

from core import access, mail_caps
from core.actors import Actor
from core.errors import N_
from games.models import Club, Membership, Player
from games.rules.addresses import normalize
from games.rules.errors import ConflictError, RuleViolation
from games.selectors_addresses import NO_ADDRESS, address_states, may_mail_player

from . import addresses, tenancy
from . import clubs as club_services

log = logging.getLogger(__name__)

LINK_SENT = "sent"
LINK_HELD = "cap_reached"
LINK_FAILED = "mail_failed"
ALREADY_CONFIRMED = "confirmed"
NOTHING = "none"

WORDS = {
    LINK_SENT: N_(
        "A link went to the address: nothing else is mailed to it until its owner agrees."
    ),
    LINK_HELD: N_(
        "The address is saved, but the club's mail cap held its link back: send it from "
        "the player's page later."
    ),
    LINK_FAILED: N_(
        "The address is saved, but the mail server did not take its link: send it again "
        "from the player's page."
    ),
    ALREADY_CONFIRMED: N_("The address is confirmed: the club may mail it."),
    NOTHING: N_("No address to confirm."),
}


@dataclass(frozen=True)
class Asked:
    """What became of the link for one address: ``state`` (the constants above), and
    for a held link the seconds until the cap opens again."""

    state: str
    retry_after: int = 0

    @property
    def detail(self) -> str:
        return str(WORDS[self.state])

    def as_dict(self) -> dict[str, object]:
        return {"state": self.state, "detail": self.detail, "retry_after": self.retry_after}


def _why(player: Player) -> str:
    """What the address is for, in the link's sentence ("... as the address for ...")."""
    return gettext("the score links and round calls of its player %(name)s") % {
        "name": player.display_name
    }


def _send(*, club: Club, player: Player, site: str) -> Asked:
    """The link itself; its row rolls back when the mail server refuses it."""
    try:
        with transaction.atomic():
            addresses.send_club_link(
                club=club, email=player.email, site=site or settings.SITE_URL, why=_why(player)
            )
    except (smtplib.SMTPException, OSError) as error:
        log.warning("club link not mailed: %s", error)
        return Asked(LINK_FAILED)
    return Asked(LINK_SENT)


def ask_owner(*, actor: Actor, club: Club, player: Player, site: str = "") -> Asked:
    """After a write that set ``player.email``: its one link for ``club``, unless the
    address is confirmed already; a spent cap holds the link back (never a refusal)."""
    if not player.email:
        return Asked(NOTHING)
    if may_mail_player(club, player):
        return Asked(ALREADY_CONFIRMED)
    try:
        mail_caps.spend(actor=actor, club=club)
    except mail_caps.MailCapReached as held:
        return Asked(LINK_HELD, held.retry_after)
    return _send(club=club, player=player, site=site)


def _asked_clubs(actor: Actor, player: Player) -> list[Club]:
    """The clubs that ask for a changed address: those of the player's the actor directs
    (every one for a site admin or the person themself), in name order."""
    mine = Club.objects.filter(memberships__player=player).order_by("name", "pk")
    if actor.is_admin or (actor.user is not None and actor.user.pk == player.user_id):
        return list(mine)
    if actor.user is None:
        return []
    return list(mine.filter(directors=actor.user))


def _first(asked: list[Asked]) -> Asked:
    """One answer for several clubs' links: the first that was not sent, else sent."""
    for one in asked:
        if one.state not in (LINK_SENT, ALREADY_CONFIRMED):
            return one
    return asked[0] if asked else Asked(NOTHING)


@dataclass(frozen=True)
class Saved:
    player: Player
    link: Asked


def check_address(email: str | None) -> None:
    """Refuse, before anything is written, an address no link could go to (a
    look-alike, mixed alphabets): 400 naming ``email``."""
    if email and (address := club_services.check_email(email)):
        normalize(address, field="email")


def add_walk_in(
    *,
    club: Club,
    by: Actor,
    display_name: str,
    email: str = "",
    rating: int | None = None,
    site: str = "",
) -> Saved:
    """``clubs.add_walk_in``, then the address's link."""
    check_address(email)
    player = club_services.add_walk_in(
        club=club, by=by, display_name=display_name, email=email, rating=rating
    )
    return Saved(player, ask_owner(actor=by, club=club, player=player, site=site))


def create_player(
    *,
    actor: Actor,
    display_name: str,
    clubs: list[Club],
    slug: str = "",
    email: str = "",
    site: str = "",
) -> Saved:
    """``clubs.create_player``, then the address's link for each club named."""
    check_address(email)
    player = club_services.create_player(
        display_name=display_name, clubs=clubs, slug=slug, email=email
    )
    asked = [ask_owner(actor=actor, club=c, player=player, site=site) for c in clubs]
    return Saved(player, _first(asked))


def update_player(
    *,
    player: Player,
    by: Actor,
    display_name: str | None = None,
    email: str | None = None,
    clubs: list[Club] | None = None,
    public_results: bool | None = None,
    site: str = "",
) -> Saved:
    """``clubs.update_player``; a new address then gets its link for each club that
    asks (:func:`_asked_clubs`)."""
    check_address(email)
    before = player.email
    player = club_services.update_player(
        player=player,
        by=by,
        display_name=display_name,
        email=email,
        clubs=clubs,
        public_results=public_results,
    )
    if player.email == before or not player.email:
        return Saved(player, Asked(NOTHING))
    asked = [
        ask_owner(actor=by, club=c, player=player, site=site) for c in _asked_clubs(by, player)
    ]
    return Saved(player, _first(asked))


def resend_link(*, actor: Actor, club: Club, player_id: int, site: str = "") -> Asked:
    """The director's button: the club's link again to a member's unconfirmed address.

    400 ``player_has_no_email``, 409 ``address_confirmed_already``, 429
    ``mail_cap_reached`` (the cap is this action's own: nothing is sent)."""
    access.require_director(actor, club, detail=N_("Only the club's directors send links."))
    player = Player.objects.filter(pk=player_id).select_related("user").first()
    if player is None or not Membership.objects.filter(club=club, player=player).exists():
        if player is not None:
            tenancy.require_member(club=club, player=player)
        raise RuleViolation(
            "player_not_in_club", N_("Pick a player of %(club)s.", club=club.name), "player"
        )
    if address_states(club, [player])[player.pk] == NO_ADDRESS:
        raise RuleViolation(
            "player_has_no_email",
            N_("%(name)s has no e-mail address: hand them their slip.", name=player.display_name),
            "player",
        )
    if may_mail_player(club, player):
        raise ConflictError(
            "address_confirmed_already",
            N_("%(name)s's address is confirmed already.", name=player.display_name),
            "player",
        )
    mail_caps.spend(actor=actor, club=club)  # 429 once a cap is spent
    return _send(club=club, player=player, site=site)
