"""Creating and changing clubs and players."""

from __future__ import annotations

import secrets
from typing import TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from games.models import Club, Membership, Player
from games.models.clubs import RatingBoost
from games.rules.errors import ConflictError, RuleViolation
from games.rules.limits import MAX_CLUB_SLUG, MAX_PLAYER_SLUG

M = TypeVar("M", Club, Player)

SLUG_ATTEMPTS = 8
"""Tries at a free slug before giving up with a 409 (each try after a lost race)."""


def _unique_slug(
    model: type[Club] | type[Player], base: str, max_length: int, attempt: int = 0
) -> str:
    """A slug from a name, with a counter when the plain one is taken.

    After a lost race (``attempt`` > 1) a random suffix is used instead: every racer
    reads the same "next free counter", so counting again would only race again.
    """
    if attempt > 1:
        root = (slugify(base) or "x")[: max_length - 8]
        return f"{root}-{secrets.token_hex(3)}"
    root = (slugify(base) or "x")[: max_length - 6]
    slug, counter = root, 2
    while model.objects.filter(slug=slug).exists():
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
        f"A {what} with the slug '{slug or candidate}' was created at the same moment; try again.",
        field="slug",
    )


def _check_rating_policy(rating_initial: int | None, rating_boost: str | None) -> None:
    if rating_initial is not None and not 0 < rating_initial <= 10000:
        raise RuleViolation(
            "rating_initial_out_of_range",
            "The starting rating must be between 1 and 10000.",
            field="rating_initial",
        )
    if rating_boost is not None and rating_boost not in RatingBoost.values:
        raise RuleViolation(
            "rating_boost_unknown",
            f"The experience boost must be one of {', '.join(RatingBoost.values)}.",
            field="rating_boost",
        )


@transaction.atomic
def create_club(
    *,
    created_by: AbstractBaseUser,
    name: str,
    slug: str = "",
    description: str = "",
    rating_initial: int = 1500,
    rating_boost: str = RatingBoost.FIBS,
) -> Club:
    """Create a club; its creator becomes its first director."""
    _check_rating_policy(rating_initial, rating_boost)
    if slug and Club.objects.filter(slug=slug).exists():
        raise ConflictError("slug_taken", f"A club with the slug '{slug}' exists.", field="slug")
    club = _create_with_slug(
        Club,
        slug=slug,
        base=name,
        max_length=MAX_CLUB_SLUG,
        name=name,
        description=description,
        rating_initial=rating_initial,
        rating_boost=rating_boost,
    )
    club.directors.add(created_by)
    return club


@transaction.atomic
def update_club(
    *,
    club: Club,
    name: str | None = None,
    description: str | None = None,
    rating_initial: int | None = None,
    rating_boost: str | None = None,
) -> Club:
    """Change a club's name, description or rating policy.

    A change of rating policy changes how future matches are rated; recomputing the
    list from scratch under the new policy is a separate, explicit job.
    """
    _check_rating_policy(rating_initial, rating_boost)
    club = Club.objects.select_for_update().get(pk=club.pk)
    for field, value in (
        ("name", name),
        ("description", description),
        ("rating_initial", rating_initial),
        ("rating_boost", rating_boost),
    ):
        if value is not None:
            setattr(club, field, value)
    club.save()
    return club


@transaction.atomic
def create_player(
    *,
    display_name: str,
    clubs: list[Club] | tuple[Club, ...] = (),
    user: AbstractBaseUser | None = None,
    slug: str = "",
) -> Player:
    """Create a player and enrol them in the given clubs."""
    display_name = display_name.strip()
    if not display_name:
        raise RuleViolation(
            "display_name_blank", "A player needs a display name.", field="display_name"
        )
    if slug and Player.objects.filter(slug=slug).exists():
        raise ConflictError("slug_taken", f"A player with the slug '{slug}' exists.", field="slug")
    if user is not None and Player.objects.filter(user=user).exists():
        raise ConflictError("user_has_player", "That account already has a player.", field="user")
    player = _create_with_slug(
        Player,
        slug=slug,
        base=display_name,
        max_length=MAX_PLAYER_SLUG,
        display_name=display_name,
        user=user,
    )
    Membership.objects.bulk_create([Membership(club=c, player=player) for c in clubs])
    return player


@transaction.atomic
def update_player(*, player: Player, display_name: str | None = None) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    if display_name is not None:
        if not display_name.strip():
            raise RuleViolation(
                "display_name_blank", "A player needs a display name.", field="display_name"
            )
        player.display_name = display_name.strip()
    player.save()
    return player


@transaction.atomic
def add_membership(*, club: Club, player: Player) -> Membership:
    membership, _ = Membership.objects.get_or_create(club=club, player=player)
    return membership
