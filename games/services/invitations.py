"""Accounts from the pages: a co-director invited by email, players given accounts.

An invitation to a **new** address is Django's password-reset machinery used for a
first password: the service makes the account, and the email carries a set-password link
(``uidb64`` and a ``default_token_generator`` token), which stops working once the
password is set, as a reset link does. The link's page is Django's own
``PasswordResetConfirmView`` (``config/urls.py``), which signs the person in; following
it confirms the account's address (``games.services.addresses``).

An invitation to an address that is an **existing** account's (compared in the normal
form of ``games.rules.addresses``, never by the database's case folding) mails no
password link: it is a :class:`~games.models.ClubInvitation` the person accepts or
declines signed in (``/accounts/invitations/``), and nothing changes for them until they
accept. Staff and superusers are offered a role the same way and are sent nothing.

A player without an email gets a **sign-in code** instead: the director prints it (with
the player's user name and the page to enter it), the player enters it once on
``/accounts/code/`` and chooses a password. The code is kept only as the account's
password hash and is replaced by the password the player chooses, so it works once. It
also lapses ``settings.SIGN_IN_CODE_DAYS`` after it was printed (14 days by default): a
slip lost in a drawer does not open the account months later. An expired code is
refused in words, and the director prints a new one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from core import access, mail_caps
from core.actors import Actor
from core.errors import N_
from core.mail import subject
from games.models import Club, ClubInvitation, InvitationRole, InvitationStatus, Player
from games.rules.addresses import normalize
from games.rules.errors import ConflictError, RuleViolation

from . import addresses, tenancy
from .clubs import check_email

#: Letters and digits a printed code is made of: no 0/O, 1/I/L to misread.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10


@dataclass(frozen=True)
class Invitation:
    """What an invitation did: a new account mailed its link, or a role offered to an
    existing account (``pending``: nothing mailed but a notice, nothing granted yet)."""

    user: User
    email: str
    new_account: bool
    pending: ClubInvitation | None = None


def set_password_path(user: User) -> str:
    """The set-password link's path for ``user`` (Django's reset token)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse(
        "password-set", kwargs={"uidb64": uid, "token": default_token_generator.make_token(user)}
    )


def _send(user: User, email: str, site: str, text: str, title: str) -> None:
    link = site.rstrip("/") + set_password_path(user)
    send_mail(
        subject=subject(title),
        message=f"{text}\n\n{link}\n\n"
        + _("Your user name: %(name)s. The link works once.") % {"name": user.username},
        from_email=None,
        recipient_list=[email],
    )


def _free_username(wanted: str) -> str:
    """``wanted``, or it with a short suffix when an account has that exact name."""
    username = wanted[:140]
    while User.objects.filter(username=username).exists():
        username = f"{wanted[:140]}-{secrets.token_hex(2)}"
    return username


def _deliverable(typed: str, normal: str) -> str:
    """The address to keep and mail: as typed when it is a plain address, else its normal
    form (a fullwidth or compatibility spelling is mailed as the letters it stands for)."""
    try:
        return check_email(typed)
    except RuleViolation:
        return check_email(normal)


def _new_account(email: str, normal: str, username: str = "") -> User:
    """A new account for ``email`` (no usable password yet) with its address's form."""
    user = User.objects.create_user(username=_free_username(username or normal), email=email)
    addresses.record_new_account(user)
    return user


def _tell_existing(invitation: ClubInvitation, site: str, role_words: str) -> None:
    """An existing account hears of the offer at its own stored address, never at the
    address a director typed: a notice with no password link if that address is
    confirmed, else only the link to confirm it. Nothing at all for staff accounts."""
    user = invitation.user
    if user.is_staff or user.is_superuser or not user.email:
        return
    if not addresses.account_confirmed(user):
        addresses.send_account_link(user=user, email=user.email, site=site)
        return
    club = invitation.club
    send_mail(
        subject=subject(_("%(club)s invites you on Boxcars") % {"club": club.name}),
        message=_(
            "%(club)s invites you to be %(role)s. Sign in to Boxcars as %(user)s to "
            "accept or decline:"
        )
        % {"club": club.name, "role": role_words, "user": user.username}
        + "\n\n"
        + site.rstrip("/")
        + reverse("my-invitations"),
        from_email=None,
        recipient_list=[user.email],
    )


def _offer(
    *, actor: Actor, club: Club, user: User, role: str, player: Player | None = None
) -> ClubInvitation:
    if ClubInvitation.objects.filter(
        club=club, user=user, role=role, status=InvitationStatus.PENDING
    ).exists():
        raise ConflictError(
            "already_invited",
            N_("This person already has an invitation of %(club)s to answer.", club=club.name),
            "email" if role == InvitationRole.DIRECTOR else "player",
        )
    return ClubInvitation.objects.create(
        club=club, user=user, role=role, player=player, invited_by=actor.user
    )


@transaction.atomic
def invite_director(*, actor: Actor, club: Club, email: str, site: str) -> Invitation:
    """Make ``email`` a director of ``club``.

    A new address gets a new account, made a director, and a set-password link. An
    address that is an existing account's (compared in normal form, never by the
    database's case folding) gets **no** password link: the person is offered the role
    and accepts or declines it signed in; until then they are not a director."""
    access.require_director(actor, club, detail=N_("Only the club's directors invite directors."))
    mail_caps.spend(actor=actor, club=club)  # 429 once the club or the sender spent its cap
    if not email.strip():
        raise RuleViolation("email_blank", N_("Give the new director's e-mail address."), "email")
    normal = normalize(email, field="email")
    email = _deliverable(email, normal)
    existing = addresses.account_with(normal)
    if existing is not None:
        if club.directors.filter(pk=existing.pk).exists():
            raise ConflictError(
                "already_director",
                N_("%(email)s is already a director of %(club)s.", email=email, club=club.name),
                "email",
            )
        offer = _offer(actor=actor, club=club, user=existing, role=InvitationRole.DIRECTOR)
        _tell_existing(offer, site, _("a director of the club"))
        return Invitation(user=existing, email=email, new_account=False, pending=offer)
    user = _new_account(email, normal)
    club.directors.add(user)
    _send(
        user,
        email,
        site,
        _("You are now a director of %(club)s on Boxcars. Set your password here:")
        % {"club": club.name},
        _("Director of %(club)s: set your password") % {"club": club.name},
    )
    return Invitation(user=user, email=email, new_account=True)


def _player_of(actor: Actor, club: Club, player_id: int) -> Player:
    access.require_director(
        actor, club, detail=N_("Only the club's directors give players accounts.")
    )
    player = club.players.filter(pk=player_id).select_for_update().first()
    if player is None:
        raise RuleViolation(
            "player_not_in_club", N_("Pick a player of %(club)s.", club=club.name), "player"
        )
    return player


def _new_player_account(player: Player, email: str = "") -> User:
    if player.user_id is not None:
        raise ConflictError(
            "player_has_account",
            N_("%(name)s already has an account.", name=player.display_name),
            "player",
        )
    user = User.objects.create_user(username=_free_username(player.slug), email=email)
    addresses.record_new_account(user)
    player.user = user
    player.save(update_fields=["user"])
    return user


@transaction.atomic
def invite_player(*, actor: Actor, club: Club, player_id: int, site: str) -> Invitation:
    """Give a player with an email an account: a set-password link goes to them.

    When the address is an existing account's, that account is offered the player
    instead (no password link): the person links it, or not, signed in."""
    tenancy.require_record_keeper(actor=actor, club=club, player_id=player_id)
    player = _player_of(actor, club, player_id)
    mail_caps.spend(actor=actor, club=club)  # 429 once the club or the sender spent its cap
    if not player.email:
        raise RuleViolation(
            "player_has_no_email",
            N_(
                "%(name)s has no e-mail address: print a sign-in code instead.",
                name=player.display_name,
            ),
            "player",
        )
    normal = normalize(player.email, field="player")
    existing = addresses.account_with(normal)
    if existing is not None:  # their own account: they link it, or not, signed in
        if player.user_id is not None:
            raise ConflictError(
                "player_has_account",
                N_("%(name)s already has an account.", name=player.display_name),
                "player",
            )
        offer = _offer(
            actor=actor, club=club, user=existing, role=InvitationRole.PLAYER, player=player
        )
        _tell_existing(
            offer, site, _("%(name)s, a player of the club") % {"name": player.display_name}
        )
        return Invitation(user=existing, email=player.email, new_account=False, pending=offer)
    user = _new_player_account(player, player.email)
    _send(
        user,
        player.email,
        site,
        _("%(club)s gave you an account on Boxcars. Set your password here:") % {"club": club.name},
        _("Your account at %(club)s: set your password") % {"club": club.name},
    )
    return Invitation(user=user, email=player.email, new_account=True)


@dataclass(frozen=True)
class SignInCode:
    player: Player
    username: str
    code: str
    expires_at: datetime


def code_lifetime() -> timedelta:
    """How long a printed code works (``SIGN_IN_CODE_DAYS``, 14 days by default)."""
    return timedelta(days=settings.SIGN_IN_CODE_DAYS)


@transaction.atomic
def issue_sign_in_code(*, actor: Actor, club: Club, player_id: int) -> SignInCode:
    """A one-time code for a player without an email, for the director to print.

    A player whose account was never signed in to gets a fresh code (the last one
    printed is the one that works); one who has signed in keeps their password."""
    tenancy.require_record_keeper(actor=actor, club=club, player_id=player_id)
    player = _player_of(actor, club, player_id)
    mail_caps.spend(actor=actor, club=club)  # 429 once the club or the sender spent its cap
    if player.user_id is None:
        user = _new_player_account(player)
    else:
        user = User.objects.select_for_update().get(pk=player.user_id)
        if user.last_login is not None:  # they have signed in: their password is theirs
            raise ConflictError(
                "player_has_account",
                N_("%(name)s already has an account.", name=player.display_name),
                "player",
            )
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    user.set_password(code)
    user.save(update_fields=["password"])
    player.sign_in_code_issued_at = timezone.now()
    player.save(update_fields=["sign_in_code_issued_at"])
    return SignInCode(
        player=player,
        username=user.username,
        code=code,
        expires_at=player.sign_in_code_issued_at + code_lifetime(),
    )


def slip_spellings(typed: str) -> list[str]:
    """The user names a typed one may stand for, compared exactly by the database.

    Why: the database's case folding must never match people (issue #37: PostgreSQL's
    ``UPPER`` takes the dotless ``ı`` for ``I``). A slip's user name is a slug, lower
    case ASCII, so only ASCII letters are folded, in Python: ``DANA`` is ``dana``, but
    ``dana`` with a Kelvin sign ``K`` or a dotless ``ı`` is nobody's name."""
    typed = typed.strip()
    return [typed, typed.lower()] if typed.isascii() else [typed]


@transaction.atomic
def redeem_sign_in_code(*, username: str, code: str, password: str) -> User:
    """The player's first password, in exchange for the printed code (once)."""
    user = User.objects.select_for_update().filter(username__in=slip_spellings(username)).first()
    cleaned = code.strip().upper().replace(" ", "").replace("-", "")
    if user is None or not user.check_password(cleaned):
        raise RuleViolation(
            "sign_in_code_wrong",
            N_("That user name and code do not match: check the slip, or ask a director."),
            "code",
        )
    player = Player.objects.select_for_update().filter(user=user).first()
    # a code printed before codes were dated counts from the account's creation
    issued = (player.sign_in_code_issued_at if player else None) or user.date_joined
    if timezone.now() > issued + code_lifetime():
        raise ConflictError(
            "sign_in_code_expired",
            N_(
                "This code has expired: it worked until %(until)s. Ask a director of your "
                "club to print a new one.",
                until=(issued + code_lifetime()).date().isoformat(),
            ),
            "code",
        )
    user.set_password(password)
    user.save(update_fields=["password"])
    if player is not None:
        player.sign_in_code_issued_at = None
        player.save(update_fields=["sign_in_code_issued_at"])
    return user


def pending_invitations(user: User) -> list[ClubInvitation]:
    """The invitations ``user`` has yet to answer, oldest first (their page lists them)."""
    return list(
        ClubInvitation.objects.filter(user=user, status=InvitationStatus.PENDING)
        .select_related("club", "player", "invited_by")
        .order_by("created_at", "pk")
    )


def club_pending(club: Club) -> list[ClubInvitation]:
    """The club's invitations waiting for an answer (its people page shows them)."""
    return list(
        ClubInvitation.objects.filter(club=club, status=InvitationStatus.PENDING)
        .select_related("user", "player")
        .order_by("created_at", "pk")
    )


def _pending_of(user: User, invitation_id: int) -> ClubInvitation:
    invitation = (
        ClubInvitation.objects.select_for_update(of=("self",))
        .select_related("club", "player")
        .filter(pk=invitation_id, user=user, status=InvitationStatus.PENDING)
        .first()
    )
    if invitation is None:
        raise RuleViolation(
            "invitation_not_found",
            N_("There is no such invitation waiting for you (answered already?)."),
            "invitation",
        )
    return invitation


@transaction.atomic
def accept_invitation(*, user: User, invitation_id: int) -> ClubInvitation:
    """The person says yes, signed in: the role is theirs from now on."""
    invitation = _pending_of(user, invitation_id)
    club = invitation.club
    if invitation.role == InvitationRole.DIRECTOR:
        club.directors.add(user)
    else:
        assert invitation.player_id is not None  # a player's invitation names the record
        player = Player.objects.select_for_update().get(pk=invitation.player_id)
        if player.user_id is not None or Player.objects.filter(user=user).exists():
            raise ConflictError(
                "player_has_account",
                N_(
                    "%(name)s is linked to an account already, or yours is another "
                    "player's: ask the club.",
                    name=player.display_name,
                ),
                "invitation",
            )
        player.user = user
        player.save(update_fields=["user"])
    invitation.status, invitation.decided_at = InvitationStatus.ACCEPTED, timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    return invitation


@transaction.atomic
def decline_invitation(*, user: User, invitation_id: int) -> ClubInvitation:
    """The person says no: nothing changes for them, and the club sees the answer."""
    invitation = _pending_of(user, invitation_id)
    invitation.status, invitation.decided_at = InvitationStatus.DECLINED, timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    return invitation
