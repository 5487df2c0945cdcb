"""Addresses people own: an account's address in normal form, the addresses a club
may mail because their owner said so, and invitations waiting for a person's yes.

Why each exists (``docs/directors.md``, "Addresses and invitations"):

- :class:`AccountAddress` keeps an account's address in the one normal form of
  :mod:`games.rules.addresses`, unique, so an invitation finds an account by an exact
  comparison of stored forms and never by the database's case folding (``auth.User``
  is Django's, so the form lives beside it, keyed to the user).
- :class:`ConfirmedAddress` records that the owner of an address followed the link
  sent to it and lets one club mail it (a player's address, a federation's): until
  then the club's mail to it is only that link.
- :class:`ClubInvitation` is a role offered to an account that exists already: the
  person accepts or declines it signed in; nothing changes for them until they accept.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from games.rules import limits


class AccountAddress(models.Model):
    """An account's address in normal form, and whether its owner confirmed it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="address"
    )
    email = models.CharField(
        max_length=limits.MAX_EMAIL,
        blank=True,
        help_text="user.email when the normal form was taken: a row whose user's address "
        "changed since (the admin, a shell) is taken again before any lookup.",
    )
    normalized = models.CharField(
        max_length=limits.MAX_EMAIL,
        null=True,
        blank=True,
        unique=True,
        help_text="games.rules.addresses.normalize(user.email); empty (NULL) when the "
        "address is not valid or an older account holds the same address.",
    )
    confirmed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the owner followed a link sent to this address (a confirmation "
        "or an invitation's set-password link); mail other than that link waits for it.",
    )

    class Meta:
        app_label = "games"

    def __str__(self) -> str:
        return f"{self.normalized} of {self.user_id}"


class ConfirmedAddress(models.Model):
    """An address (normal form) its owner agreed that ``club`` may mail."""

    club = models.ForeignKey(
        "games.Club", on_delete=models.CASCADE, related_name="confirmed_addresses"
    )
    normalized = models.CharField(max_length=limits.MAX_EMAIL)
    requested_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(
                fields=["club", "normalized"], name="unique_confirmed_address_per_club"
            )
        ]

    def __str__(self) -> str:
        return f"{self.normalized} for {self.club_id}"


class InvitationRole(models.TextChoices):
    DIRECTOR = "director", gettext_lazy("director")
    PLAYER = "player", gettext_lazy("player")


class InvitationStatus(models.TextChoices):
    PENDING = "pending", gettext_lazy("waiting for an answer")
    ACCEPTED = "accepted", gettext_lazy("accepted")
    DECLINED = "declined", gettext_lazy("declined")


class ClubInvitation(models.Model):
    """A club's role offered to an existing account, waiting for the person's answer."""

    club = models.ForeignKey("games.Club", on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_invitations"
    )
    role = models.CharField(max_length=10, choices=InvitationRole.choices)
    player = models.ForeignKey(
        "games.Player",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
        help_text="For a player's invitation: the club's record the account would take.",
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    status = models.CharField(
        max_length=10, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user", "role"],
                condition=models.Q(status="pending"),
                name="one_pending_invitation_per_role",
            )
        ]

    def __str__(self) -> str:
        return f"{self.role} of {self.club_id} for {self.user_id} ({self.status})"
