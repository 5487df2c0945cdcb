"""The club's federation addresses: where each export is emailed (a club setting).

Kept in the tournaments app (its ``models`` module imports this one) because only the
federation exports read it; one row per club and export, so a club names only the
bodies it reports to.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy


class FederationExport(models.TextChoices):
    """The exports, each named for the body (and ranking) that receives it."""

    WBGF = "wbgf", gettext_lazy("WBGF world ranking")
    ABT = "abt", gettext_lazy("USBGF American Backgammon Tour")
    UKBGF = "ukbgf", gettext_lazy("UKBGF ratings")
    BMAB = "bmab", gettext_lazy("BMAB match files")
    WBIF = "wbif", gettext_lazy("WBIF match files")


class FederationAddress(models.Model):
    """The address the club sends one export to."""

    club = models.ForeignKey(
        "games.Club", on_delete=models.CASCADE, related_name="federation_addresses"
    )
    export = models.CharField(max_length=8, choices=FederationExport.choices)
    email = models.EmailField(max_length=254)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "tournaments"
        constraints = [
            models.UniqueConstraint(fields=["club", "export"], name="unique_federation_export")
        ]

    def __str__(self) -> str:
        return f"{self.export} of {self.club_id}: {self.email}"
