"""Addresses their owners confirmed: an account's own, and the ones a club mails.

Why: a club's founder is a stranger, so an address a director typed is not yet an
address Boxcars may use. Its first mail is a link to confirm it; nothing else goes to
it until the link is followed (``docs/directors.md``, "Addresses and invitations").

- An **account's address** (:class:`~games.models.AccountAddress`) is confirmed by a
  link mailed to it (:func:`send_account_link`, :func:`confirm_account_link`) or by
  the set-password link of an invitation (:func:`confirm_by_password_link`: following
  it proves the mailbox is the person's). A person changes their address the same way:
  the link goes to the **new** address, and the old one stays theirs until it is
  followed.
- A **club's address** for someone else (a player's, a federation's) is confirmed for
  that club (:class:`~games.models.ConfirmedAddress`, :func:`send_club_link`,
  :func:`confirm_club_link`).

Links are signed (``django.core.signing``) and carry what they confirm, so nothing
secret is stored; they lapse after ``LINK_DAYS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import N_
from core.mail import subject
from games.models import AccountAddress, Club, ConfirmedAddress
from games.rules.addresses import normalize
from games.rules.errors import ConflictError, RuleViolation

LINK_DAYS = 7
ACCOUNT_SALT = "boxcars.addresses.account"
CLUB_SALT = "boxcars.addresses.club"


def normal_or_none(email: str) -> str | None:
    """The normal form of ``email``, or None when the rule refuses it."""
    try:
        return normalize(email)
    except RuleViolation:
        return None


def _store(user: User) -> AccountAddress:
    """Take ``user.email``'s normal form again (a new account, or one changed elsewhere)."""
    normal = normal_or_none(user.email) if user.email else None
    if normal and AccountAddress.objects.filter(normalized=normal).exclude(user=user).exists():
        normal = None  # an older account holds it: this one is not found by address
    row, created = AccountAddress.objects.get_or_create(
        user=user, defaults={"email": user.email, "normalized": normal}
    )
    if not created and (row.email != user.email or row.normalized != normal):
        row.email, row.normalized, row.confirmed_at = user.email, normal, None
        row.save(update_fields=["email", "normalized", "confirmed_at"])
    return row


def refresh_stale() -> None:
    """Rows for accounts made or changed outside the services (createsuperuser, the
    admin): an account with an address and no row, or a row whose address changed."""
    stale = User.objects.filter(
        (Q(address__isnull=True) & ~Q(email="")) | ~Q(address__email=F("email"))
    ).order_by("pk")
    for user in stale:
        _store(user)


def account_with(normal: str) -> User | None:
    """The account whose address has the normal form ``normal`` (exact comparison)."""
    refresh_stale()
    row = AccountAddress.objects.select_related("user").filter(normalized=normal).first()
    return row.user if row is not None else None


def record_new_account(user: User) -> AccountAddress:
    """The normal form of a new account's address; a race for one address is a 409."""
    try:
        with transaction.atomic():
            return _store(user)
    except IntegrityError:
        raise ConflictError(
            "email_taken", N_("An account with this address exists already."), "email"
        ) from None


def confirm_by_password_link(user: User) -> None:
    """The invitation's set-password link reached its owner: their address is confirmed."""
    row = _store(user)
    if row.confirmed_at is None and row.normalized:
        row.confirmed_at = timezone.now()
        row.save(update_fields=["confirmed_at"])


def account_confirmed(user: User) -> bool:
    """Whether mail other than a confirmation link may go to ``user.email`` (a read:
    pages ask it on GET; a row whose address changed since is not confirmed)."""
    row = AccountAddress.objects.filter(user=user).first()
    return (
        row is not None
        and bool(row.normalized)
        and row.email == user.email
        and row.confirmed_at is not None
    )


def address_confirmed(*, club: Club, email: str) -> bool:
    """Whether ``club`` may mail ``email``: its owner confirmed it for the club, or it is
    the confirmed address of the owner's account. For the other doors that mail people
    (a player's address, a director's): ask this before sending anything else."""
    normal = normal_or_none(email)
    if normal is None:
        return False
    if ConfirmedAddress.objects.filter(
        club=club, normalized=normal, confirmed_at__isnull=False
    ).exists():
        return True
    refresh_stale()
    return AccountAddress.objects.filter(normalized=normal, confirmed_at__isnull=False).exists()


def club_address_confirmed(*, club: Club, email: str) -> bool:
    """Whether the owner of ``email`` confirmed that ``club`` may mail it (only that)."""
    normal = normal_or_none(email)
    return normal is not None and (
        ConfirmedAddress.objects.filter(
            club=club, normalized=normal, confirmed_at__isnull=False
        ).exists()
    )


def _absolute(site: str, path: str) -> str:
    return site.rstrip("/") + path


def send_account_link(*, user: User, email: str, site: str) -> str:
    """Mail a confirmation link to ``email`` for ``user``: their own address (to confirm
    it) or a new one (to change to it once followed). Returns the normal form."""
    normal = normalize(email)
    holder = account_with(normal)
    if holder is not None and holder.pk != user.pk:
        raise ConflictError(
            "email_taken", N_("Another account has this address: choose another."), "email"
        )
    current = _store(user)
    token = signing.dumps(
        {"u": user.pk, "e": email.strip(), "was": current.normalized or ""}, salt=ACCOUNT_SALT
    )
    link = _absolute(site, reverse("address-confirm", kwargs={"token": token}))
    send_mail(
        subject=subject(_("Confirm your e-mail address on Boxcars")),
        message=_(
            "Follow this link, signed in as %(user)s, to confirm that %(email)s is your "
            "address on Boxcars:"
        )
        % {"user": user.username, "email": email.strip()}
        + f"\n\n{link}\n\n"
        + _("If you did not ask for it, ignore this mail: nothing changes."),
        from_email=None,
        recipient_list=[email.strip()],
    )
    return normal


def _link_payload(token: str, salt: str) -> dict[str, object]:
    try:
        payload = signing.loads(token, salt=salt, max_age=LINK_DAYS * 86400)
    except signing.SignatureExpired:
        raise ConflictError(
            "link_expired",
            N_("This link has expired: ask for a new one."),
            "token",
        ) from None
    except signing.BadSignature:
        raise RuleViolation("link_invalid", N_("This link is not valid."), "token") from None
    return dict(payload)


@dataclass(frozen=True)
class Confirmed:
    email: str
    changed: bool


@transaction.atomic
def confirm_account_link(*, user: User, token: str) -> Confirmed:
    """Follow a link of :func:`send_account_link`, signed in as the account it names."""
    payload = _link_payload(token, ACCOUNT_SALT)
    if payload.get("u") != user.pk:
        raise RuleViolation(
            "link_other_account",
            N_("This link is for another account: sign in as its owner and follow it again."),
            "token",
        )
    locked = User.objects.select_for_update().get(pk=user.pk)
    row = _store(locked)
    AccountAddress.objects.select_for_update().filter(pk=row.pk).first()
    if (row.normalized or "") != payload.get("was"):
        raise ConflictError(
            "link_outdated",
            N_("Your address changed since this link was sent: ask for a new one."),
            "token",
        )
    email = str(payload["e"])
    normal = normalize(email)
    holder = account_with(normal)
    if holder is not None and holder.pk != locked.pk:
        raise ConflictError("email_taken", N_("Another account has this address now."), "email")
    changed = normal != row.normalized or email != locked.email
    if changed:
        locked.email = email
        locked.save(update_fields=["email"])
    row.email, row.normalized, row.confirmed_at = email, normal, timezone.now()
    try:
        with transaction.atomic():
            row.save(update_fields=["email", "normalized", "confirmed_at"])
    except IntegrityError:
        raise ConflictError(
            "email_taken", N_("Another account has this address now."), "email"
        ) from None
    return Confirmed(email=email, changed=changed)


def send_club_link(*, club: Club, email: str, site: str, why: str) -> None:
    """Ask the owner of ``email`` to confirm that ``club`` may mail it (``why`` says for
    what). The one mail an unconfirmed address gets."""
    normal = normalize(email)
    ConfirmedAddress.objects.get_or_create(club=club, normalized=normal)
    token = signing.dumps({"c": club.pk, "n": normal, "e": email.strip()}, salt=CLUB_SALT)
    link = _absolute(site, reverse("club-address-confirm", kwargs={"token": token}))
    send_mail(
        subject=subject(_("%(club)s asks to send you mail") % {"club": club.name}),
        message=_(
            "%(club)s, a club on Boxcars, set %(email)s as the address for %(why)s. "
            "Nothing is sent to it until you agree: follow this link to agree."
        )
        % {"club": club.name, "email": email.strip(), "why": why}
        + f"\n\n{link}\n\n"
        + _("If this is not your address or you do not want the mail, ignore this message."),
        from_email=None,
        recipient_list=[email.strip()],
    )


@dataclass(frozen=True)
class ClubLink:
    club: Club
    email: str


def read_club_link(*, token: str) -> ClubLink:
    """What a club link confirms (for its page), or the link's refusal."""
    payload = _link_payload(token, CLUB_SALT)
    club_id = payload.get("c")
    club = Club.objects.filter(pk=club_id).first() if isinstance(club_id, int) else None
    if club is None:
        raise RuleViolation("link_invalid", N_("This link is not valid."), "token")
    return ClubLink(club=club, email=str(payload.get("e", payload.get("n"))))


@transaction.atomic
def confirm_club_link(*, token: str) -> ClubLink:
    """The owner agreed: ``club`` may mail the address the link names."""
    link = read_club_link(token=token)
    normal = normalize(link.email)
    row, _created = ConfirmedAddress.objects.select_for_update().get_or_create(
        club=link.club, normalized=normal
    )
    if row.confirmed_at is None:
        row.confirmed_at = timezone.now()
        row.save(update_fields=["confirmed_at"])
    return link
