"""Score links: one match's two links (the API action), and for a whole round (or one
match) at once the director's sheet of slips and the same links emailed to the players
who gave an address.

The per-match action (:func:`score_link_tokens`) checks the actor and the match one
match at a time; a sheet checks the director once for the club and each match's
state with the same rule (:func:`~games.services.match_guards.require_writable` with
``Write.SCORE_LINKS``), so a round of any size costs the same few queries and a closed
match is left out (with a note) instead of failing the whole sheet.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.urls import reverse
from django.utils.translation import gettext

from core import mail, mail_caps
from core.actors import Actor
from core.errors import N_
from games import score_links
from games.languages import speaking_to
from games.models import Club, Match, Membership, Player
from games.rules.errors import ConflictError, NotAllowed, RuleViolation
from games.selectors_addresses import mailable

from .actors import is_match_director, participant_side
from .match_guards import Write, require_writable

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Slip:
    """One player's private link to one match, with what the slip prints beside it."""

    match: Match
    player: Player
    opponent: Player
    token: str

    @property
    def path(self) -> str:
        return reverse("score-link", kwargs={"token": self.token})

    @property
    def table(self) -> object:
        # ``Match.table`` arrives with the table numbers; until then there is none.
        return self.match.table


@dataclass(frozen=True)
class MatchLinks:
    match: Match
    slips: tuple[Slip, Slip]

    @property
    def table(self) -> object:
        return self.match.table


@dataclass(frozen=True)
class LinkSheet:
    """The live matches' slips, and the closed matches that get none."""

    matches: list[MatchLinks] = field(default_factory=list)
    closed: list[Match] = field(default_factory=list)

    @property
    def slips(self) -> list[Slip]:
        return [slip for m in self.matches for slip in m.slips]


@dataclass(frozen=True)
class MailReport:
    """Who was emailed, who has no address, and whose address waits for its owner's
    consent (``games.selectors_addresses``): both of the last get their slip by hand."""

    sent: list[Player]
    no_address: list[Player]
    unconfirmed: list[Player] = field(default_factory=list)


def score_link_tokens(*, actor: Actor, match_id: int) -> list[tuple[Player, str]]:
    """The private score links of a match: both for its directors, a player's own only
    for a player (never the opponent's: a link acts in its player's name).

    Signing stores nothing, but handing out links is a write in effect (they let the
    holders score the match), so it follows :func:`require_writable`: no links for a
    closed match (they would be dead on arrival), and a score link never begets links.
    """
    match = Match.objects.select_related("club", "player1", "player2").filter(pk=match_id).first()
    if match is None:
        raise RuleViolation(
            "match_not_found",
            N_("There is no match %(match_id)s.", match_id=match_id),
            field="match",
        )
    director = is_match_director(actor, match)
    side = participant_side(actor, match)
    if actor.via_score_link or not (director or side is not None):
        raise NotAllowed(
            "not_a_participant", N_("Only the match's players and directors get its score links.")
        )
    require_writable(match, Write.SCORE_LINKS, director=director)
    players = [match.player1, match.player2]
    if not director:
        # a player's link is theirs alone: the opponent's would let its holder confirm
        # or dispute in the opponent's name (issue #25)
        players = [match.player_at(side)]  # type: ignore[arg-type]
    return [(p, score_links.make_token(match, p)) for p in players]


def _require_director(actor: Actor, club: Club) -> None:
    if actor.via_score_link or not (
        actor.is_admin
        or (actor.user is not None and club.directors.filter(pk=actor.user.pk).exists())
    ):
        raise NotAllowed("directors_only", N_("Only the club's directors hand out score links."))


def link_sheet(*, actor: Actor, club: Club, matches: Iterable[Match]) -> LinkSheet:
    """Both players' links for each match that is still open, in the order given.

    ``matches`` come with their players loaded (``select_related``); they must belong to
    ``club``, whose directors alone get the sheet. Signing stores nothing.
    """
    _require_director(actor, club)
    sheet = LinkSheet()
    for match in matches:
        if match.club_id != club.pk:
            raise RuleViolation(
                "match_not_in_club",
                N_("Match %(pk)s is not %(name)s's.", pk=match.pk, name=club.name),
                field="match",
            )
        try:
            require_writable(match, Write.SCORE_LINKS, director=True)
        except ConflictError:
            sheet.closed.append(match)
            continue
        one, two = match.player1, match.player2
        sheet.matches.append(
            MatchLinks(
                match,
                (
                    Slip(match, one, two, score_links.make_token(match, one)),
                    Slip(match, two, one, score_links.make_token(match, two)),
                ),
            )
        )
    return sheet


def _length(match: Match) -> str:
    if match.length:
        return gettext("a %(length)s-point match") % {"length": match.length}
    return gettext("an unlimited session")


def _message(slip: Slip, heading: str, site_url: str, club: Club) -> EmailMessage:
    """The player's email in their language, else the club's (docs/languages.md)."""
    with speaking_to(slip.player, club):
        return _email(slip, heading, site_url)


def _email(slip: Slip, heading: str, site_url: str) -> EmailMessage:
    names = {"heading": heading, "opponent": slip.opponent.display_name}
    table = ""
    if slip.table not in (None, ""):
        table = gettext("Table: %(table)s") % {"table": slip.table} + "\n"
    body = (
        gettext("Hello %(name)s,") % {"name": slip.player.display_name}
        + "\n\n"
        + gettext("%(heading)s: you play %(opponent)s, %(length)s.")
        % {**names, "length": _length(slip.match)}
        + "\n"
        + f"{table}\n"
        + gettext(
            "Enter and confirm the score from your phone with your private link "
            "(no account needed; keep it to yourself):"
        )
        + f"\n\n{site_url}{slip.path}\n\n"
        + gettext("Good luck!")
        + "\n"
    )
    return EmailMessage(
        subject=mail.subject(gettext("%(heading)s: your match against %(opponent)s") % names),
        body=body,
        to=[slip.player.email],
    )


def email_score_links(
    *, actor: Actor, club: Club, matches: Iterable[Match], heading: str, site_url: str = ""
) -> MailReport:
    """Email each player with a confirmed address their link, opponent, table and length.

    One connection sends every message; players without an address (or no longer members
    of the club: tenancy) and those whose address its owner has not confirmed for the
    club (``games.selectors_addresses``) are named in the report, apart, so the director
    hands them a slip instead. A mail server that refuses or
    cannot be reached is a :class:`ConflictError` (``mail_failed``), never a 500.
    """
    sheet = link_sheet(actor=actor, club=club, matches=matches)
    mail_caps.spend(actor=actor, club=club)  # one press of the button: one count
    base = (site_url or settings.SITE_URL).rstrip("/")
    sent: list[Player] = []
    no_address: list[Player] = []
    messages = []
    # tenancy: a club mails only its own members (whose address the person, or the
    # club keeping a walk-in, gave); anyone else is handed a slip
    members = set(
        Membership.objects.filter(
            club=club, player_id__in={slip.player.pk for slip in sheet.slips}
        ).values_list("player_id", flat=True)
    )
    confirmed = mailable(club, [slip.player for slip in sheet.slips])
    unconfirmed: list[Player] = []
    for slip in sheet.slips:
        if not (slip.player.email and slip.player.pk in members):
            no_address.append(slip.player)
        elif slip.player.pk not in confirmed:
            unconfirmed.append(slip.player)
        else:
            messages.append(_message(slip, heading, base, club))
            sent.append(slip.player)
    if messages:
        try:
            get_connection().send_messages(messages)
        except (smtplib.SMTPException, OSError) as error:
            log.warning("score links not emailed: %s", error)
            raise ConflictError(
                "mail_failed",
                N_("The mail server did not take the messages (%(error)s).", error=error),
            ) from error
    return MailReport(sent=sent, no_address=no_address, unconfirmed=unconfirmed)
