"""Creating and changing clubs and players."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from core import access, locking
from core.actors import Actor
from core.club_zones import default_time_zone, validate_time_zone
from core.errors import N_
from core.languages import default_language, language_codes, validate_language
from core.name_cleaning import look_alike_keys, normalised_name
from core.text import require_single_line
from games import club_slugs
from games.met_tables import CHOOSABLE_TABLES, DEFAULT_TABLE
from games.models import Club, Membership, Player
from games.models.clubs import RatingBoost
from games.rules import variants
from games.rules.errors import ConflictError, NotAllowed, RuleViolation
from games.rules.limits import (
    MAX_CLUB_SLUG,
    MAX_EMAIL,
    MAX_PLAYER_NAME,
    MAX_PLAYER_SLUG,
    MAX_RATING,
)
from games.rules.names import clean_name, name_key
from games.services import tenancy
from games.services.ratings import lists as rating_lists
from games.services.ratings import recompute as rating_recompute

M = TypeVar("M", Club, Player)

SLUG_ATTEMPTS = 8
"""Tries at a free slug before giving up with a 409 (each try after a lost race)."""


def _unique_slug(
    model: type[Club] | type[Player], base: str, max_length: int, attempt: int = 0
) -> str:
    """A slug from a name, with a counter when the plain one is taken (or reserved:
    a club named "New" gets ``new-2``, never ``new``, :mod:`games.club_slugs`).

    After a lost race (``attempt`` > 1) a random suffix is used instead: every racer
    reads the same "next free counter", so counting again would only race again.
    """
    if attempt > 1:
        root = (slugify(base) or "x")[: max_length - 8]
        return f"{root}-{secrets.token_hex(3)}"
    root = (slugify(base) or "x")[: max_length - 6]
    slug, counter = root, 2
    while (model is Club and club_slugs.is_reserved(slug)) or model.objects.filter(
        slug=slug
    ).exists():
        slug = f"{root}-{counter}"
        counter += 1
    return slug


def _create_with_slug(
    model: type[M], *, slug: str, base: str, max_length: int, **fields: object
) -> M:
    """Create ``model`` under a unique slug, even when others create the same name at once.

    The slug's unique index is the arbiter: each try runs in a savepoint, and an
    ``IntegrityError`` on the slug means someone else took it between our check and
    our insert. A slug the client chose is then a 409; a generated one is tried again.
    """
    for attempt in range(SLUG_ATTEMPTS):
        candidate = slug or _unique_slug(model, base, max_length, attempt)
        try:
            with transaction.atomic():
                return model.objects.create(slug=candidate, **fields)
        except IntegrityError:
            if not model.objects.filter(slug=candidate).exists():
                raise  # another constraint: not ours to retry
            if slug:
                break
    what = model._meta.verbose_name
    raise ConflictError(
        "slug_taken",
        N_(
            "A %(what)s with the slug '%(value)s' was created at the same moment; try again.",
            what=what,
            value=slug or candidate,
        ),
        field="slug",
    )


def _check_rating_policy(
    rating_initial: int | None, rating_boost: str | None, match_equity_table: str | None = None
) -> None:
    if rating_initial is not None and not 0 < rating_initial <= 10000:
        raise RuleViolation(
            "rating_initial_out_of_range",
            N_("The starting rating must be between 1 and 10000."),
            field="rating_initial",
        )
    if rating_boost is not None and rating_boost not in RatingBoost.values:
        raise RuleViolation(
            "rating_boost_unknown",
            N_("The experience boost must be one of %(join)s.", join=", ".join(RatingBoost.values)),
            field="rating_boost",
        )
    if match_equity_table is not None and match_equity_table not in CHOOSABLE_TABLES:
        raise RuleViolation(
            "match_equity_table_unknown",
            N_("The match equity table must be one of %(join)s.", join=", ".join(CHOOSABLE_TABLES)),
            field="match_equity_table",
        )


CLUB_NAMES = "club-names"
"""The topic of :func:`core.locking.serialise` for founding and renaming clubs."""


@transaction.atomic
def create_club(
    *,
    created_by: User,
    name: str,
    slug: str = "",
    description: str = "",
    rating_initial: int = 1500,
    rating_boost: str = RatingBoost.FIBS,
    match_equity_table: str = DEFAULT_TABLE,
    time_zone: str | None = None,
    language: str | None = None,
) -> Club:
    """Create a club; its creator becomes its first director.

    Refused before anything is written: a creator who directs ``CLUBS_PER_USER`` clubs
    already (site admins excepted; their row is locked, so two creations at once cannot
    both pass), a name that is empty once normalised or reads like an existing club's
    (:func:`check_club_name`), a reserved slug (:mod:`games.club_slugs`).
    """
    _check_club_count(created_by)
    locking.serialise(CLUB_NAMES)
    name = check_club_name(name)
    _check_rating_policy(rating_initial, rating_boost, match_equity_table)
    time_zone = time_zone or default_time_zone()
    _check_time_zone(time_zone)
    language = language or default_language()
    _check_language(language)
    if slug and club_slugs.is_reserved(slug):
        raise RuleViolation(
            "slug_reserved",
            N_(
                "The slug '%(slug)s' is a word the site's addresses use; choose another.", slug=slug
            ),
            field="slug",
        )
    if slug and Club.objects.filter(slug=slug).exists():
        raise ConflictError(
            "slug_taken", N_("A club with the slug '%(slug)s' exists.", slug=slug), field="slug"
        )
    club = _create_with_slug(
        Club,
        slug=slug,
        base=name,
        max_length=MAX_CLUB_SLUG,
        name=name,
        description=description,
        rating_initial=rating_initial,
        rating_boost=rating_boost,
        match_equity_table=match_equity_table,
        time_zone=time_zone,
        language=language,
    )
    club.directors.add(created_by)
    return club


def _check_club_count(user: User) -> None:
    """At most ``settings.CLUBS_PER_USER`` clubs directed by one account (issue #37,
    item 7: one account made 40 clubs); site admins are not limited."""
    if access.is_site_admin(user):
        return
    User.objects.select_for_update().filter(pk=user.pk).first()  # one creation at a time
    cap = settings.CLUBS_PER_USER
    if cap and Club.objects.filter(directors=user).count() >= cap:
        raise RuleViolation(
            "too_many_clubs",
            N_(
                "You direct %(count)s clubs, the most one account may create. Ask a "
                "site admin if your clubs need more.",
                count=cap,
            ),
            field="name",
        )


def check_club_name(name: str, *, club: Club | None = None) -> str:
    """The name as stored (NFKC, no invisible characters, single spaces), or a 400.

    A name left empty is refused, and so is one that reads like another club's
    (``Аlpha`` with a Cyrillic А beside ``Alpha``, ``ALPHA``, ``Alpha`` with a zero-width
    space): strangers would take one club for the other (``core.name_cleaning``'s
    skeletons, after Unicode's UTS #39). Every club's name is compared; a site has
    hundreds of clubs, not millions. ``club`` is the club being renamed (its own name
    is not a conflict).
    """
    require_single_line(name, field="name")
    cleaned = normalised_name(name)
    if not cleaned:
        raise RuleViolation(
            "name_blank", N_("A club needs a name of visible letters."), field="name"
        )
    keys = look_alike_keys(cleaned)
    others = Club.objects.exclude(pk=club.pk) if club is not None else Club.objects.all()
    for other in others.only("name").iterator():
        if keys & look_alike_keys(other.name):
            raise RuleViolation(
                "name_confusable",
                N_(
                    "'%(name)s' reads like the name of the club '%(other)s': choose a "
                    "name nobody could take for another club's.",
                    name=cleaned,
                    other=other.name,
                ),
                field="name",
            )
    return cleaned


def _check_time_zone(name: str) -> None:
    """The club's zone must be one the zone database knows: its pages are shown in it."""
    _check(validate_time_zone, name, code="invalid_time_zone", field="time_zone")


def _check_language(code: str) -> None:
    """The club's language must have a catalog: its players' emails are written in it."""
    _check(validate_language, code, code="invalid_language", field="language")


def _check(validate: Callable[[str], None], value: str, *, code: str, field: str) -> None:
    """A model field's validator as a rule: its message, named by the API's field."""
    try:
        validate(value)
    except ValidationError as error:
        raise RuleViolation(code, " ".join(error.messages), field=field) from None


@transaction.atomic
def update_club(
    *,
    club: Club,
    name: str | None = None,
    description: str | None = None,
    rating_initial: int | None = None,
    rating_boost: str | None = None,
    match_equity_table: str | None = None,
    time_zone: str | None = None,
    language: str | None = None,
    rated_variants: list[str] | None = None,
) -> Club:
    """Change a club's name, description, rating policy, match equity table, time zone,
    language (that of its emails and pushes to players who chose none) or the variants
    it rates.

    A variant newly rated gets its own list, computed at once from the club's finished
    matches of that variant (few, next to the English game's); a variant no longer
    rated keeps its list as it stands, and no new result reaches it.

    A change of rating policy changes how future matches are rated; recomputing the
    list from scratch under the new policy is a separate, explicit job. A new table
    changes every winning chance shown from then on (nothing stored depends on it).
    """
    if name is not None:
        locking.serialise(CLUB_NAMES)
        name = check_club_name(name, club=club)
    _check_rating_policy(rating_initial, rating_boost, match_equity_table)
    if time_zone is not None:
        _check_time_zone(time_zone)
    if language is not None:
        _check_language(language)
    if rated_variants is not None:
        rated_variants = _check_rated_variants(rated_variants)
    club = Club.objects.select_for_update().get(pk=club.pk)
    newly_rated = set(rated_variants or []) - set(club.rated_variants or [])
    for field, value in (
        ("name", name),
        ("description", description),
        ("rating_initial", rating_initial),
        ("rating_boost", rating_boost),
        ("match_equity_table", match_equity_table),
        ("time_zone", time_zone),
        ("language", language),
        ("rated_variants", rated_variants),
    ):
        if value is not None:
            setattr(club, field, value)
    club.save()
    for variant in sorted(newly_rated):
        rating_recompute.recompute_list(rating_list_id=rating_lists.club_list(club, variant).pk)
    return club


def _check_rated_variants(keys: list[str]) -> list[str]:
    """Known variants (or rotations), each once, in the registry's order; the English
    game is always rated and is not one of them."""
    for key in keys:
        if key == variants.DEFAULT or not variants.is_known(key):
            raise RuleViolation(
                "variant_not_ratable",
                N_("%(key)s is not a variant a club rates on its own list.", key=key),
                "rated_variants",
            )
    wanted = set(keys)
    return [key for key, _ in variants.match_choices() if key in wanted]


def remember_language(*, user: User, language: str) -> Player | None:
    """Store the language a signed-in user picked on the player linked to their account,
    so the emails and pushes sent to them later (by a worker, with no browser to ask)
    are in it. Nothing happens for an account without a player or an unknown language
    (the picker itself ignores one too).
    """
    if language not in language_codes():
        return None
    player = Player.objects.filter(user=user).first()
    if player is not None and player.language != language:
        player.language = language
        player.save(update_fields=["language"])
    return player


@transaction.atomic
def create_player(
    *,
    display_name: str,
    clubs: list[Club] | tuple[Club, ...] = (),
    user: User | None = None,
    slug: str = "",
    email: str = "",
) -> Player:
    """Create a player and enrol them in the given clubs (each listed once)."""
    display_name = require_single_line(display_name, field="display_name").strip()
    if not display_name:
        raise RuleViolation(
            "display_name_blank", N_("A player needs a display name."), field="display_name"
        )
    if len(display_name) > MAX_PLAYER_NAME:  # every importer's last bound: never a 500
        raise RuleViolation(
            "display_name_too_long",
            N_(
                "A name is at most %(MAX_PLAYER_NAME)s characters.", MAX_PLAYER_NAME=MAX_PLAYER_NAME
            ),
            field="display_name",
        )
    if len(set(clubs)) != len(clubs):
        raise RuleViolation("club_listed_twice", N_("Each club is listed once."), field="clubs")
    if slug and Player.objects.filter(slug=slug).exists():
        raise ConflictError(
            "slug_taken", N_("A player with the slug '%(slug)s' exists.", slug=slug), field="slug"
        )
    if user is not None and Player.objects.filter(user=user).exists():
        raise ConflictError(
            "user_has_player", N_("That account already has a player."), field="user"
        )
    player = _create_with_slug(
        Player,
        slug=slug,
        base=display_name,
        max_length=MAX_PLAYER_SLUG,
        display_name=display_name,
        user=user,
        email=check_email(email),
    )
    Membership.objects.bulk_create([Membership(club=c, player=player) for c in clubs])
    return player


@transaction.atomic
def update_player(
    *,
    player: Player,
    display_name: str | None = None,
    email: str | None = None,
    clubs: list[Club] | tuple[Club, ...] | None = None,
    public_results: bool | None = None,
    by: Actor | None = None,
) -> Player:
    """Change a player's name, e-mail, clubs or whether their page lists their past
    results to everyone (``None``: leave it as it is; a value equal to the stored one
    is no change).

    The name and the address are the person's (``games.access``): changed only by the
    person, a site admin, or the director who still keeps a walk-in's record (403
    ``person_not_yours`` for anyone else; ``by`` ``None`` is a trusted caller such as
    an import). So is showing their past results again; hiding them (at the person's
    request) is open to any director of their clubs, as it only narrows who sees.

    ``clubs`` is the set of clubs, among those ``by`` directs, the player should
    belong to: memberships of clubs ``by`` does not direct are neither added nor
    removed (a director of one club cannot take a player out of another), a club is
    added only with the person's consent (403 ``consent_required``), and a player
    is never left in no club at all. Checked before anything is written.
    """
    if clubs is not None and len(set(clubs)) != len(clubs):
        raise RuleViolation("club_listed_twice", N_("Each club is listed once."), field="clubs")
    player = Player.objects.select_for_update().select_related("user").get(pk=player.pk)
    changes: dict[str, object] = {}
    if display_name is not None and (name := check_player_name(display_name)) != (
        player.display_name
    ):
        changes["display_name"] = name
    if email is not None and (address := check_email(email)) != player.email:
        changes["email"] = address
    person = dict(changes)
    if public_results is not None and public_results != player.public_results:
        changes["public_results"] = public_results
        if public_results:  # hiding, at the person's request, narrows who sees: any club
            person["public_results"] = public_results
    if person and by is not None:
        tenancy.require_person_editor(actor=by, player=player, field=next(iter(person)))
    for field, value in changes.items():
        setattr(player, field, value)
    if clubs is not None:
        _set_clubs(player, list(clubs), by)
    player.save()
    return player


def _set_clubs(player: Player, clubs: list[Club], by: Actor | None) -> None:
    if by is None or by.user is None:
        raise NotAllowed(
            "directors_only", N_("Only a club's directors change its players."), "clubs"
        )
    current = set(player.clubs.all())
    managed = set(Club.objects.all()) if by.is_admin else set(by.user.directed_clubs.all())
    wanted = set(clubs)
    foreign = wanted - managed - current
    if foreign:
        names = ", ".join(sorted(c.name for c in foreign))
        raise NotAllowed(
            "not_director_of_club",
            N_("You do not direct %(names)s: you cannot add to it.", names=names),
            "clubs",
        )
    removed = (current & managed) - wanted
    if not (current - removed) | wanted:
        raise RuleViolation(
            "clubs_empty", N_("A player stays in at least one club: tick one."), "clubs"
        )
    for club in sorted(wanted - current, key=lambda c: c.name):
        tenancy.require_enrolment(actor=by, player=player, club=club)
    Membership.objects.filter(player=player, club__in=removed).delete()
    for club in wanted - current:
        Membership.objects.create(club=club, player=player)


def check_player_name(display_name: str) -> str:
    """The cleaned name, or a 400 naming ``display_name`` and the rule."""
    name = clean_name(require_single_line(display_name, field="display_name"))
    if not name:
        raise RuleViolation(
            "display_name_blank", N_("A player needs a display name."), field="display_name"
        )
    if len(name) > MAX_PLAYER_NAME:
        raise RuleViolation(
            "display_name_too_long",
            N_(
                "A name is at most %(MAX_PLAYER_NAME)s characters.", MAX_PLAYER_NAME=MAX_PLAYER_NAME
            ),
            field="display_name",
        )
    return name


def check_email(email: str) -> str:
    """The trimmed address ('' for none), or a 400 naming ``email``."""
    email = email.strip()
    if not email:
        return ""
    if len(email) > MAX_EMAIL:
        raise RuleViolation(
            "email_too_long",
            N_("An e-mail address is at most %(MAX_EMAIL)s characters.", MAX_EMAIL=MAX_EMAIL),
            "email",
        )
    try:
        validate_email(email)
    except ValidationError:
        raise RuleViolation(
            "email_invalid", N_("That is not an e-mail address (name@example.org)."), "email"
        ) from None
    return email


def check_rating(rating: int | None) -> int | None:
    if rating is not None and not 1 <= rating <= MAX_RATING:
        raise RuleViolation(
            "rating_out_of_range",
            N_("A starting rating is between 1 and %(MAX_RATING)s.", MAX_RATING=MAX_RATING),
            "rating",
        )
    return rating


def require_club_director(actor: Actor, club: Club) -> None:
    access.require_director(actor, club, detail="Only the club's directors add its players.")


def roster_by_name(club: Club) -> dict[str, list[Player]]:
    """The club's players under their comparison key (``games.rules.names``)."""
    roster: dict[str, list[Player]] = {}
    for player in club.players.order_by("display_name", "pk"):
        roster.setdefault(name_key(player.display_name), []).append(player)
    return roster


@transaction.atomic
def add_walk_in(
    *,
    club: Club,
    display_name: str,
    email: str = "",
    rating: int | None = None,
    by: Actor,
) -> Player:
    """A new player and their membership of ``club``, in one step and one transaction.

    A name the club already has (ignoring case and accents) is refused: the director
    most likely means that player, and registers them instead; two real namesakes
    are told apart by an initial. ``rating`` is kept as the player's declared rating
    (seeding uses it until they are rated; the rating list starts everyone at the
    club's initial rating, see docs/ratings.md).
    """
    require_club_director(by, club)
    name = check_player_name(display_name)
    email = check_email(email)
    rating = check_rating(rating)
    Club.objects.select_for_update().filter(pk=club.pk).first()  # one walk-in at a time
    same = roster_by_name(club).get(name_key(name))
    if same:
        raise ConflictError(
            "name_in_club",
            N_(
                "%(name)s already has a player called %(display_name)s: register them "
                "instead, or add an initial to tell two players apart.",
                name=club.name,
                display_name=same[0].display_name,
            ),
            field="display_name",
        )
    player = create_player(display_name=name, clubs=[club])
    if email or rating is not None:
        player.email = email
        player.declared_rating = rating
        player.save(update_fields=["email", "declared_rating"])
    return player


@transaction.atomic
def add_membership(*, club: Club, player: Player) -> Membership:
    membership, _ = Membership.objects.get_or_create(club=club, player=player)
    return membership
