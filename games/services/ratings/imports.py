"""Importing a club's past results: the matches, then the lists replayed from the earliest."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from core import access
from core.errors import N_
from games.models import Club, Match, MatchSource, MatchStatus, Player
from games.rules.errors import NotAllowed
from games.rules.results_file import parse_results

from .lists import lists_of_club, lock_list
from .recompute import recompute_list


@dataclass
class ImportReport:
    matches: int
    players_created: int
    first_date: str
    last_date: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "players_created": self.players_created,
            "first_date": self.first_date,
            "last_date": self.last_date,
        }


@transaction.atomic
def import_results(*, user: Any, club: Club, text: str) -> ImportReport:
    """Record a club's past results as finished rated matches and bring its ratings
    (and the site list) up to date. The whole file or nothing: any unreadable row
    raises ``ResultsFileInvalid`` with every bad line, before anything is written.

    Players are matched to the club's members by name (case-insensitive) and created
    when new. Each match is dated at noon UTC of its date; matches of the same day are
    ordered as in the file (by id), so the list replays them in file order.
    """
    from simple_history.utils import bulk_create_with_history

    from games.services import clubs as club_services

    if user is None or not access.is_director(user, club):
        raise NotAllowed("directors_only", N_("Only the club's directors import its results."))
    rows = parse_results(text)
    members = {p.display_name.casefold(): p for p in Player.objects.filter(clubs=club)}
    created = 0
    for name in dict.fromkeys(n for r in rows for n in (r.winner, r.loser)):
        if name.casefold() not in members:
            members[name.casefold()] = club_services.create_player(display_name=name, clubs=[club])
            created += 1
    matches = []
    for row in rows:
        winner, loser = members[row.winner.casefold()], members[row.loser.casefold()]
        matches.append(
            Match(
                club=club,
                player1=winner,
                player2=loser,
                length=row.length,
                rated=True,
                status=MatchStatus.FINISHED,
                source=MatchSource.IMPORTED,
                score1=row.length,
                score2=0,
                winner=winner,
                final_score_only=True,
                confirmation="confirmed",
                played_on=row.played_on,
                finished_at=datetime.combine(row.played_on, time(12, 0), tzinfo=UTC),
                created_by=user,
                label=gettext("Imported (line %(line)s)") % {"line": row.line},
            )
        )
    created_matches = bulk_create_with_history(matches, Match, batch_size=1000)
    earliest = min(created_matches, key=lambda m: (m.finished_at, m.pk))
    list_ids = lists_of_club(club.pk)
    for list_id in list_ids:  # both locked before either's history is touched
        lock_list(list_id)
    for list_id in list_ids:
        recompute_list(rating_list_id=list_id, from_match_id=earliest.pk)
    return ImportReport(
        matches=len(created_matches),
        players_created=created,
        first_date=min(r.played_on for r in rows).isoformat(),
        last_date=max(r.played_on for r in rows).isoformat(),
    )
