"""Guards shared by the tournament services: locking, versions, who may act.

Locking and versions are :mod:`core.locking`'s, with its one lock order: matches
before their tournament. A write that voids or replaces matches takes
:func:`lock_unstarted_matches_then_tournament`; a result reaches the tournament
holding its match already (the bracket's result listener: a new result holds the
tournament only ``FOR KEY SHARE``, see ``results.record_match_result``).
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext

from core import access, locking
from core.actors import Actor
from core.errors import N_
from games.languages import message_language
from games.models import Match, MatchStatus
from games.rules.errors import ConflictError
from tournaments.models import Pairing, Round, Tournament, TournamentStatus


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked for this transaction (every write takes this lock)."""
    return locking.lock_row(
        Tournament.objects.select_related("club"), tournament_id, noun="tournament", field=None
    )


def lock_unstarted_matches_then_tournament(tournament_id: int) -> tuple[Tournament, set[int]]:
    """Lock the tournament's unstarted matches (primary-key order), then the tournament.

    For writes that void matches nobody has started (a redraw, a swap): taking the
    matches first keeps the one lock order (a score entry holds its match and then
    waits for the tournament), so the two can never deadlock. Returns the tournament
    and the ids locked; a match the write then finds outside that set appeared in the
    meantime, and the write is refused (:func:`require_locked`) rather than waiting
    for it while holding the tournament.
    """
    ids = Pairing.objects.filter(
        tournament_id=tournament_id, match__status=MatchStatus.SCHEDULED
    ).values_list("match_id", flat=True)
    locked = {m.pk for m in locking.lock_rows(Match.objects.all(), ids)}
    return lock_tournament(tournament_id), locked


def require_locked(match_ids: set[int], locked: set[int]) -> None:
    """409 when a write would touch a match it did not lock before the tournament."""
    if not match_ids <= locked:
        raise ConflictError(
            "tournament_changed",
            N_("The tournament changed while this ran (a match was added): reload and try again."),
        )


def require_director(actor: Actor, tournament: Tournament) -> None:
    access.require_director(
        actor, tournament.club, detail="Only the club's directors manage its tournaments."
    )


def check_version(tournament: Tournament, expected_version: int | None) -> None:
    locking.check_version(tournament, expected_version, noun="tournament")


def require_status(tournament: Tournament, *allowed: str, doing: str) -> None:
    if tournament.status not in allowed:
        names = " or ".join(TournamentStatus(s).label.lower() for s in allowed)
        raise ConflictError(
            "tournament_status",
            N_(
                "Cannot %(doing)s: the tournament is %(lower)s (it must be %(names)s).",
                doing=doing,
                lower=tournament.get_status_display().lower(),
                names=names,
            ),
        )


def bump(tournament: Tournament) -> None:
    locking.bump(tournament)


def system_creator_id(tournament: Tournament) -> int | None:
    """The id of the user :func:`system_actor` acts as, in one query (the bracket's
    new matches are recorded as theirs; a result's request needs no more of them)."""
    directors = list(tournament.club.directors.order_by("pk").values_list("pk", flat=True))
    if tournament.created_by_id in directors:
        return tournament.created_by_id
    return directors[0] if directors else None


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


def stored_match_label(tournament: Tournament, round_: Round) -> str:
    """The label a pairing's match keeps ("Nord Open: Main round 2"), in the club's
    language: it is stored, and pairing runs in a worker as often as in a request, so
    the request's language would be an accident (docs/languages.md, "Names the code
    builds"). The pages show the slot's own label, built in the reader's language."""
    with translation.override(message_language(None, tournament.club)):
        return gettext("%(name)s: %(stage)s round %(number)s") % {
            "name": tournament.name,
            "stage": round_.stage,
            "number": round_.number,
        }
