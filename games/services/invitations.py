"""Accounts from the pages: a co-director invited by email, players given accounts.

An invitation is Django's password-reset machinery used for a first password: the
service makes (or finds) the account, and the email carries a set-password link
(``uidb64`` and a ``default_token_generator`` token), which stops working once the
password is set, as a reset link does. The link's page is Django's own
``PasswordResetConfirmView`` (``config/urls.py``), which signs the person in.

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
from games.models import Club, Player
from games.rules.errors import ConflictError, RuleViolation

from . import tenancy
from .clubs import check_email

#: Letters and digits a printed code is made of: no 0/O, 1/I/L to misread.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10


@dataclass(frozen=True)
class Invitation:
    user: User
    email: str
    new_account: bool


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


def _account_for(email: str) -> tuple[User, bool]:
    found = User.objects.filter(email__iexact=email).order_by("pk").first()
    if found is not None:
        return found, False
    if User.objects.filter(username__iexact=email).exists():
        raise ConflictError(
            "username_taken", N_("An account named %(email)s exists.", email=email), "email"
        )
    user = User.objects.create_user(username=email, email=email)  # no usable password yet
    return user, True


@transaction.atomic
def invite_director(*, actor: Actor, club: Club, email: str, site: str) -> Invitation:
    """Make ``email`` a director of ``club`` and email them a set-password link."""
    access.require_director(actor, club, detail=N_("Only the club's directors invite directors."))
    mail_caps.spend(actor=actor, club=club)  # 429 once the club or the sender spent its cap
    email = check_email(email)
    if not email:
        raise RuleViolation("email_blank", N_("Give the new director's e-mail address."), "email")
    user, new = _account_for(email)
    if club.directors.filter(pk=user.pk).exists():
        raise ConflictError(
            "already_director",
            N_("%(email)s is already a director of %(club)s.", email=email, club=club.name),
            "email",
        )
    club.directors.add(user)
    _send(
        user,
        email,
        site,
        _("You are now a director of %(club)s on Boxcars. Set your password here:")
        % {"club": club.name},
        _("Director of %(club)s: set your password") % {"club": club.name},
    )
    return Invitation(user=user, email=email, new_account=new)


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
    username = player.slug
    if User.objects.filter(username__iexact=username).exists():
        username = f"{player.slug}-{secrets.token_hex(2)}"
    user = User.objects.create_user(username=username, email=email)
    player.user = user
    player.save(update_fields=["user"])
    return user


@transaction.atomic
def invite_player(*, actor: Actor, club: Club, player_id: int, site: str) -> Invitation:
    """Give a player with an email an account: a set-password link goes to them."""
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


@transaction.atomic
def redeem_sign_in_code(*, username: str, code: str, password: str) -> User:
    """The player's first password, in exchange for the printed code (once)."""
    user = User.objects.select_for_update().filter(username__iexact=username.strip()).first()
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
