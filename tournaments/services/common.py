"""Guards shared by the tournament services: locking, versions, who may act."""

from __future__ import annotations

from games import access
from games.rules.errors import ConflictError, NotAllowed, RuleViolation, StaleVersionError
from games.services.actors import Actor
from tournaments.models import Tournament, TournamentStatus


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked for this transaction (every write takes this lock)."""
    tournament = (
        Tournament.objects.select_for_update()
        .select_related("club")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        raise RuleViolation("tournament_not_found", f"There is no tournament {tournament_id}.")
    return tournament


def require_director(actor: Actor, tournament: Tournament) -> None:
    if actor.is_admin:
        return
    if actor.user is None or not access.is_director(actor.user, tournament.club):
        raise NotAllowed("directors_only", "Only the club's directors manage its tournaments.")


def check_version(tournament: Tournament, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != tournament.version:
        raise StaleVersionError(
            "stale_version",
            f"The tournament changed since you read it (your version {expected_version}, "
            f"now {tournament.version}): reload and try again.",
            field="If-Match",
        )


def require_status(tournament: Tournament, *allowed: str, doing: str) -> None:
    if tournament.status not in allowed:
        names = " or ".join(TournamentStatus(s).label.lower() for s in allowed)
        raise ConflictError(
            "tournament_status",
            f"Cannot {doing}: the tournament is {tournament.get_status_display().lower()} "
            f"(it must be {names}).",
        )


def bump(tournament: Tournament) -> None:
    tournament.version += 1
    tournament.save()


def system_actor(tournament: Tournament) -> Actor:
    """Who the bracket acts as when it creates or voids matches after a result.

    Advancement happens inside whoever's write finished a match (often a player), so
    the matches it creates are made in the name of a director of the club: the
    tournament's creator while they direct it, else any director of the club.
    """
    user = tournament.created_by
    if user is None or not access.is_director(user, tournament.club):
        user = tournament.club.directors.order_by("pk").first()
    return Actor(user=user, player=None, is_admin=True)
