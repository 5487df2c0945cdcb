"""Build a finished event's federation export, email it, and keep the club's addresses.

One keyword-only function per use case: :func:`build_export` (the file and what it
holds, for the download and the preview), :func:`send_export` (the same file emailed
to the address the club set for it) and :func:`set_addresses`. Only the club's
directors may do any of it (403 ``directors_only``); an event not finished yet is 409
``tournament_not_finished`` (its places and matches may still change).
"""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.utils import translation

from core import mail, mail_caps
from core.access import require_director
from core.actors import Actor
from core.errors import N_, ConflictError, RuleViolation
from games.models import Club
from games.rules.addresses import normalize
from games.services import addresses as address_services
from games.services.transcripts import score_sheet_transcript

from ..models import Tournament, TournamentStatus
from . import bodies, selectors
from .models import FederationAddress, FederationExport
from .rules import abt, files, matches, wbgf

log = logging.getLogger(__name__)

ZIP = "application/zip"
CSV = "text/csv; charset=utf-8"
MAX_EMAIL = 254


@dataclass(frozen=True)
class Export:
    """One export: the file (name, type, bytes) and what it holds (the preview's body)."""

    key: str
    filename: str
    content_type: str
    content: bytes
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Options:
    """What the director chooses: the ABT division and how many places earn points."""

    division: str = "open"
    places: int = abt.DEFAULT_PLACES


def options_from(params: Any) -> Options:
    """The ABT choices from a query string or form (400 naming the field when bad)."""
    division = params.get("division") or "open"
    places_text = params.get("places") or str(abt.DEFAULT_PLACES)
    if not (places_text.isascii() and places_text.isdigit()) or len(places_text) > 3:
        raise RuleViolation("invalid_places", N_("Places is a whole number."), "places")
    return Options(division=division[:20], places=int(places_text))


def _require(actor: Actor, club: Club) -> None:
    require_director(actor, club, detail="Only the club's directors send its federation exports.")


def require_club_director(actor: Actor, club: Club) -> None:
    """403 for a stranger, before a body is read (nobody learns from a 400)."""
    require_director(actor, club, detail="Only the club's directors set its federation addresses.")


def export_key(key: str) -> FederationExport:
    """The export named ``key`` (400 ``unknown_export`` otherwise)."""
    try:
        return FederationExport(key)
    except ValueError:
        raise RuleViolation(
            "unknown_export",
            N_("The export is one of: %(names)s.", names=", ".join(FederationExport.values)),
            "export",
        ) from None


def _require_finished(tournament: Tournament) -> None:
    if tournament.status != TournamentStatus.FINISHED:
        raise ConflictError(
            "tournament_not_finished",
            N_("Federation exports are made once the event is finished."),
        )


def _player(person: object) -> str:
    return getattr(person, "name", str(person))


def build_wbgf(tournament: Tournament, info: files.EventInfo, options: Options) -> Export:
    places = selectors.places(tournament)
    facts = selectors.wbgf_facts(tournament, sum(len(group) for group in places))
    checks = wbgf.checks(facts)
    summary = {
        "qualifies": all(c.passed for c in checks),
        "checks": [
            {"code": c.code, "rule": str(c.rule), "found": str(c.found), "passed": c.passed}
            for c in checks
        ],
        "entrants": [
            {"place": rank, "place_label": label, "player": person.name}
            for rank, label, person in files.place_labels(places)
        ],
    }
    content = files.wbgf_csv(info, places, checks)
    return Export("wbgf", f"wbgf-{info.slug}.csv", CSV, content, summary)


def build_abt(tournament: Tournament, info: files.EventInfo, options: Options) -> Export:
    factor = abt.division_factor(options.division)
    places = selectors.places(tournament)
    attendance = abt.attendance(person.id for group in places for person in group)
    awards = abt.abt_points(options.division, attendance, places, awarded=options.places)
    summary = {
        "division": options.division,
        "division_factor": str(factor),
        "attendance": attendance,
        "total_points": str(factor * attendance),
        "places_awarded": options.places,
        "awards": [
            {
                "place": a.place,
                "place_label": a.label,
                "player": _player(a.person),
                "points": str(a.points),
            }
            for a in awards
        ],
    }
    content = files.abt_csv(options.division, factor, attendance, awards)
    return Export("abt", f"abt-{options.division}-{info.slug}.csv", CSV, content, summary)


def _excluded(facts: matches.MatchFacts, reason: str) -> dict[str, Any]:
    return {
        "match_id": facts.match_id,
        "round": facts.round_label,
        "player1": facts.player1,
        "player2": facts.player2,
        "reason": reason,
    }


def build_ukbgf(tournament: Tournament, info: files.EventInfo, options: Options) -> Export:
    kept: list[matches.MatchFacts] = []
    excluded = []
    for facts, _match in selectors.event_matches(tournament):
        reason = matches.ukbgf_exclusion(facts)
        if reason is None:
            kept.append(facts)
        else:
            excluded.append(_excluded(facts, reason))
    summary = {
        "matches": [
            {
                "match_id": m.match_id,
                "round": m.round_label,
                "player1": m.player1,
                "player2": m.player2,
                "length": m.length,
                "score": [m.score1, m.score2],
                "winner": m.winner,
                "clocked": m.clock is not None,
            }
            for m in kept
        ],
        "excluded": excluded,
    }
    return Export("ukbgf", f"ukbgf-{info.slug}.csv", CSV, files.ukbgf_csv(info, kept), summary)


def build_bmab(tournament: Tournament, info: files.EventInfo, options: Options) -> Export:
    return _bundle(tournament, info, FederationExport.BMAB.value)


def build_wbif(tournament: Tournament, info: files.EventInfo, options: Options) -> Export:
    return _bundle(tournament, info, FederationExport.WBIF.value)


def _bundle(tournament: Tournament, info: files.EventInfo, body: str) -> Export:
    kept: list[tuple[matches.MatchFacts, str]] = []
    excluded = []
    for facts, match in selectors.event_matches(tournament):
        reason = matches.bundle_exclusion(facts, body)
        text = (match.transcript or score_sheet_transcript(match)) if reason is None else None
        if reason is None and text is None:
            reason = matches.NO_TRANSCRIPT
        if text is None:
            excluded.append(_excluded(facts, reason or matches.NO_TRANSCRIPT))
        else:
            kept.append((facts, text))
    summary = {
        "files": [
            {
                "file": files.mat_name(m),
                "match_id": m.match_id,
                "round": m.round_label,
                "player1": m.player1,
                "player2": m.player2,
                "length": m.length,
                "clocked": m.clock is not None,
            }
            for m, _text in kept
        ],
        "excluded": excluded,
    }
    content = files.bundle_zip(info, kept)
    return Export(body, f"{body}-{info.slug}.zip", ZIP, content, summary)


def build_export(
    *, actor: Actor, tournament: Tournament, export: str, options: Options | None = None
) -> Export:
    """The export ``export`` of a finished event, built from what is stored now."""
    _require(actor, tournament.club)
    declared = bodies.body(export_key(export))  # tournaments.federation.catalog
    options = options or Options()
    declared.check_options(options)
    _require_finished(tournament)
    return declared.build(tournament, selectors.event_info(tournament), options)


def addresses_of(club: Club) -> dict[str, str]:
    """The club's address for every export ("" where it set none)."""
    found = dict(FederationAddress.objects.filter(club=club).values_list("export", "email"))
    return {key: found.get(key, "") for key in FederationExport.values}


def normal_or_refusal(email: str, key: str) -> None:
    """Raise the rule's own refusal when ``email`` mixes alphabets or holds look-alikes."""
    try:
        normalize(email, field=key)
    except RuleViolation as refused:
        if refused.code in ("email_mixed_scripts", "email_confusable"):
            raise
        return


def confirmed_of(club: Club) -> dict[str, bool]:
    """Whether the owner of each export's address agreed that the club may mail it."""
    return {
        key: bool(email) and address_services.club_address_confirmed(club=club, email=email)
        for key, email in addresses_of(club).items()
    }


def set_addresses(
    *, actor: Actor, club: Club, addresses: dict[str, str], site: str = ""
) -> dict[str, str]:
    """Set (or, with "", clear) the club's address of each export named; all or nothing.

    A new address the club may not mail yet gets one mail: a link for its owner to agree
    (``games.services.addresses``); :func:`send_export` sends it nothing before that."""
    require_club_director(actor, club)
    cleaned: dict[str, str] = {}
    for key, value in addresses.items():
        export_key(key)
        email = (value or "").strip()
        if email:
            try:
                if len(email) > MAX_EMAIL or "\x00" in email:
                    raise ValidationError("too long or NUL")
                validate_email(email)
            except ValidationError:
                normal_or_refusal(email, key)  # a look-alike says so, in its own words
                raise RuleViolation(
                    "invalid_email", N_("Enter a valid email address."), key
                ) from None
            normalize(email, field=key)  # no look-alikes: refused in words, field named
        cleaned[key] = email
    before = addresses_of(club)
    with transaction.atomic():
        for key, email in cleaned.items():
            if email:
                FederationAddress.objects.update_or_create(
                    club=club, export=key, defaults={"email": email}
                )
            else:
                FederationAddress.objects.filter(club=club, export=key).delete()
    asked: set[str] = set()
    for key, email in cleaned.items():
        normal = normalize(email) if email else ""
        if not email or normal in asked or email == before.get(key):
            continue
        if not address_services.club_address_confirmed(club=club, email=email):
            asked.add(normal)
            address_services.send_club_link(
                club=club,
                email=email,
                site=site or settings.SITE_URL,
                why=str(FederationExport(key).label),
            )
    return addresses_of(club)


@dataclass(frozen=True)
class Sent:
    export: Export
    to: str


def send_export(
    *, actor: Actor, tournament: Tournament, export: str, options: Options | None = None
) -> Sent:
    """Email the export, attached, to the address the club set for it.

    409 ``federation_address_missing`` when the club set none and
    ``federation_address_unconfirmed`` when its owner has not agreed yet (nothing is
    sent, not even to the director: the address gets only its confirmation link); a mail
    server that refuses or cannot be reached is 409 ``mail_failed``, never a 500.
    """
    with translation.override("en"):  # the bodies read English
        built = build_export(actor=actor, tournament=tournament, export=export, options=options)
        label = str(FederationExport(built.key).label)
    to = addresses_of(tournament.club)[built.key]
    if not to:
        raise ConflictError(
            "federation_address_missing",
            N_("The club has no address for this export: set one in the federation addresses."),
            "export",
        )
    if not address_services.club_address_confirmed(club=tournament.club, email=to):
        raise ConflictError(
            "federation_address_unconfirmed",
            N_(
                "Nothing was sent: the owner of %(email)s has not yet followed the link "
                "mailed to it when it was set. To mail a new link, clear the address, "
                "save, and set it again.",
                email=to,
            ),
            "export",
        )
    mail_caps.spend(actor=actor, club=tournament.club)  # 429 once a cap is spent
    message = EmailMessage(
        subject=mail.subject(
            f"{label}: {mail.quoted(tournament.name)} ({mail.quoted(tournament.club.name)})"
        ),
        body=_body(tournament, built),
        to=[to],
        reply_to=[actor.user.email] if actor.user is not None and actor.user.email else None,
    )
    message.attach(built.filename, built.content, built.content_type.split(";")[0])
    try:
        message.send()
    except (smtplib.SMTPException, OSError) as error:
        log.warning("federation export not emailed: %s", error)
        raise ConflictError(
            "mail_failed",
            N_("The mail server did not take the message (%(error)s).", error=error),
        ) from error
    return Sent(built, to)


def _body(tournament: Tournament, built: Export) -> str:
    """The message to the body, in English (the bodies read English)."""
    lines = [
        f"{tournament.club.name} sends the results of {tournament.name}.",
        f"Attached: {built.filename}.",
    ]
    lines += bodies.body(built.key).mail_lines(built)
    return "\n".join(lines) + "\n"


def check_abt_options(options: Options) -> None:
    """The ABT's division and places, refused naming the field before anything is read."""
    abt.division_factor(options.division)
    abt.standardized_factors(options.places)


def wbgf_mail_lines(built: Export) -> list[str]:
    """The WBGF's verdict and each condition, in the mail."""
    verdict = "qualifies" if built.summary["qualifies"] else "does not qualify"
    lines = [f"The event {verdict} for the WBGF world ranking:"]
    for check in built.summary["checks"]:
        mark = "yes" if check["passed"] else "no"
        lines.append(f"- {check['rule']}: {check['found']} ({mark})")
    return lines
