"""Creating, configuring, opening and finishing a tournament."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from core.actors import Actor
from core.errors import N_
from core.text import require_single_line
from games.models import Club
from games.rules import variants
from games.rules.clock import MINUTE, SECOND, FlagRule, Preset
from games.rules.errors import ConflictError, RuleViolation
from tournaments import options as tournament_options
from tournaments.formats import registry as format_registry
from tournaments.formats.clock_plan import check_clock_plan
from tournaments.formats.elimination import FeedOrder
from tournaments.formats.places import parse_prize_order
from tournaments.formats.schedule import check_schedule
from tournaments.formats.standings import TieBreak
from tournaments.models import (
    ClockPolicy,
    PairingStatus,
    SeedingMethod,
    StageKind,
    Tournament,
    TournamentStatus,
)

from .common import bump, check_version, lock_tournament, require_director, require_status


def default_tie_breaks(format: str) -> list[str]:
    return list(format_registry.spec(format).tie_breaks)


def check_config(config: dict[str, Any]) -> dict[str, Any]:
    """Validate a whole configuration before anything is written; returns it normalised."""
    if isinstance(config.get("name"), str):
        require_single_line(config["name"], field="name")
    fmt = config.get("format")
    format_spec = format_registry.spec(str(fmt))  # format_unknown, naming the field
    if config.get("seeding", SeedingMethod.RATING) not in SeedingMethod.values:
        raise RuleViolation(
            "seeding_unknown",
            N_("Seeding is one of %(join)s.", join=", ".join(SeedingMethod.values)),
            "seeding",
        )
    for field in ("consolation_from", "last_chance_from"):
        rounds = config.get(field) or []
        format_registry.check_foreign_option(config, field)
        if any(not isinstance(r, int) or r < 1 for r in rounds):
            raise RuleViolation("feeding_round_invalid", N_("Feeding rounds are 1, 2, ..."), field)
    if config.get("last_chance_from") and not config.get("consolation_from"):
        raise RuleViolation(
            "last_chance_without_consolation",
            N_("A last chance is fed by the consolation: add a consolation first."),
            "last_chance_from",
        )
    for order in config.get("feed_orders") or []:
        if order not in [o.value for o in FeedOrder]:
            raise RuleViolation(
                "feed_order_unknown",
                N_("Feed orders are %(join)s.", join=", ".join([o.value for o in FeedOrder])),
                "feed_orders",
            )
    tie_breaks = config.get("tie_breaks") or default_tie_breaks(format_spec.key)
    for tie_break in tie_breaks:
        if tie_break not in [t.value for t in TieBreak]:
            raise RuleViolation(
                "tie_break_unknown",
                N_("Tie-breaks are %(join)s.", join=", ".join([t.value for t in TieBreak])),
                "tie_breaks",
            )
    if len(set(tie_breaks)) != len(tie_breaks):
        raise RuleViolation("duplicate_tie_break", N_("A tie-break is listed twice."), "tie_breaks")
    config["tie_breaks"] = list(tie_breaks)
    format_spec.check(config)
    if config.get("groups", 1) < 1:
        raise RuleViolation("groups_invalid", N_("There is at least one group."), "groups")
    format_registry.check_foreign_option(config, "playoff_qualifiers")
    starts, ends = config.get("starts_on"), config.get("ends_on")
    if starts and ends and ends < starts:
        raise RuleViolation("ends_before_start", N_("The event ends before it starts."), "ends_on")
    config["match_lengths"] = check_schedule(config.get("match_lengths") or {})
    _check_variant(config)
    prize_order = config.get("prize_order") or []
    if not isinstance(prize_order, list):
        raise RuleViolation("bad_prize_order", N_("The prize order is a list."), "prize_order")
    parse_prize_order(prize_order)  # raises a FormatError naming the bad step
    config["prize_order"] = list(prize_order)
    _check_clock(config)
    capacity = config.get("capacity")
    if capacity is not None and (
        isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 2
    ):
        raise RuleViolation(
            "capacity_invalid", N_("A capped field holds at least two players."), "capacity"
        )
    return config


def _check_variant(config: dict[str, Any]) -> None:
    """The event's game: a registered variant or a rotation (tavli); standard if unsaid."""
    variant = config.setdefault("variant", variants.DEFAULT)
    if not isinstance(variant, str) or not variants.is_known(variant):
        raise RuleViolation(
            "unknown_variant", N_("There is no variant %(key)s.", key=str(variant)), "variant"
        )


def _check_clock(config: dict[str, Any]) -> None:
    """The event's clock settings, each a known value (docs/clocks.md)."""
    known = {
        "clock_policy": ClockPolicy.values,
        "clock_preset": [p.value for p in Preset],
        "clock_flag_rule": [r.value for r in FlagRule],
    }
    for field, values in known.items():
        if field in config and config[field] not in values:
            raise RuleViolation(
                f"{field}_unknown",
                N_("%(field)s is one of %(values)s.", field=field, values=", ".join(values)),
                field,
            )
    config["clock_rounds"] = check_clock_plan(
        config.get("clock_rounds") or [], [s.value for s in StageKind]
    )
    overtime = config.get("clock_overtime_ms")
    if overtime is not None and not SECOND <= overtime <= 10 * MINUTE:
        raise RuleViolation(
            "clock_overtime_out_of_range",
            N_("Overtime is 1 s to 10 minutes."),
            "clock_overtime_ms",
        )


def _unique_slug(name: str) -> str:
    root = (slugify(name) or "event")[:70]
    slug, counter = root, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug = f"{root}-{counter}"
        counter += 1
    return slug


@transaction.atomic
def create_tournament(
    *,
    actor: Actor,
    club: Club,
    name: str,
    format: str,
    slug: str = "",
    starts_on: date | None = None,
    **options: Any,
) -> Tournament:
    """A new event in draft, configured in one go (everything checked first)."""
    probe = Tournament(club=club)
    require_director(actor, probe)
    if not require_single_line(name, field="name").strip():
        raise RuleViolation("name_blank", N_("The tournament needs a name."), "name")
    if slug and Tournament.objects.filter(slug=slug).exists():
        raise ConflictError(
            "slug_taken", N_("A tournament with the slug '%(slug)s' exists.", slug=slug), "slug"
        )
    unknown = set(options) - set(tournament_options.names())
    if unknown:
        raise RuleViolation(
            "option_unknown",
            N_("Unknown option %(value)s.", value=sorted(unknown)[0]),
            sorted(unknown)[0],
        )
    config = check_config({"format": format, "starts_on": starts_on, **options})
    return Tournament.objects.create(
        club=club,
        name=name.strip(),
        slug=slug or _unique_slug(name),
        created_by=actor.user,
        **config,
    )


@transaction.atomic
def configure_tournament(
    *, actor: Actor, tournament_id: int, expected_version: int | None = None, **changes: Any
) -> Tournament:
    """Change the configuration; the format and its options only before the start."""
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    check_version(tournament, expected_version)
    unknown = set(changes) - set(tournament_options.names())
    if unknown:
        raise RuleViolation(
            "option_unknown",
            N_("Unknown option %(value)s.", value=sorted(unknown)[0]),
            sorted(unknown)[0],
        )
    # the name, dates, prize order, clocks (docs/clocks.md) and calling rounds
    # automatically: any time (the options declared ``any_time``)
    if set(changes) - tournament_options.any_time():
        require_status(
            tournament,
            TournamentStatus.DRAFT,
            TournamentStatus.REGISTRATION,
            doing="change the format once the event has started",
        )
    config = {field: getattr(tournament, field) for field in tournament_options.names()}
    if "format" in changes and "tie_breaks" not in changes:
        config["tie_breaks"] = []
    config.update(changes)
    config = check_config(config)
    for field in tournament_options.names():
        if config[field] != getattr(tournament, field):
            for guard in tournament_options.change_guards(field):
                guard(tournament)  # another app's rule (money: prizes paid by this order)
    for field in tournament_options.names():
        setattr(tournament, field, config[field])
    bump(tournament)
    return tournament


@transaction.atomic
def open_registration(
    *, actor: Actor, tournament_id: int, expected_version: int | None = None
) -> Tournament:
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    check_version(tournament, expected_version)
    require_status(tournament, TournamentStatus.DRAFT, doing="open registration")
    tournament.status = TournamentStatus.REGISTRATION
    bump(tournament)
    return tournament


@transaction.atomic
def finish_tournament(
    *, actor: Actor, tournament_id: int, expected_version: int | None = None
) -> Tournament:
    """Close the event once every pairing is decided (stale pairings must be settled)."""
    tournament = lock_tournament(tournament_id)
    require_director(actor, tournament)
    check_version(tournament, expected_version)
    require_status(tournament, TournamentStatus.RUNNING, doing="finish the event")
    open_pairings = tournament.pairings.filter(
        status__in=[PairingStatus.READY, PairingStatus.WAITING]
    ).count()
    stale = tournament.pairings.filter(stale=True).count()
    if open_pairings or stale:
        raise ConflictError(
            "tournament_not_done",
            N_(
                "%(open_pairings)s pairing(s) are still to be played and %(stale)s "
                "flagged for review.",
                open_pairings=open_pairings,
                stale=stale,
            ),
        )
    from .rounds import more_rounds_due

    if more_rounds_due(tournament):
        raise ConflictError(
            "rounds_remaining", N_("More rounds are due: pair the next round or finish it first.")
        )
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = timezone.now()
    bump(tournament)
    return tournament
