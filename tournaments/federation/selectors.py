"""Reads of a finished event into the federation rules' plain inputs.

A fixed number of queries whatever the event's size: the standings (two), who played
(one), the rounds' shortest length (one), the event's matches with their players,
rounds and clocks (one), and the buy-in (the money app's reader). Labels written into
the files are in English whatever the director's language: the bodies read English.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.utils import translation

from games.models import Game, Match, MatchClock, MatchStatus

from ..models import EntryStatus, Pairing, Round, StageKind, Tournament
from ..selectors import standings_table
from .buy_in import buy_in_of
from .rules.files import EventInfo
from .rules.matches import Clock, MatchFacts
from .rules.people import Person, who_played
from .rules.wbgf import EventFacts

SIDE_BRACKETS = (StageKind.CONSOLATION, StageKind.LAST_CHANCE)
"""Brackets outside the main competition: their matches do not set the event's length."""


def event_info(tournament: Tournament) -> EventInfo:
    """The event's name, slug and day (its last day, else its first, else when it finished)."""
    day = tournament.ends_on or tournament.starts_on
    if day is None and tournament.finished_at is not None:
        day = tournament.finished_at.date()
    return EventInfo(tournament.name, tournament.slug, day)


def places(tournament: Tournament) -> list[list[Person]]:
    """Every entrant in finishing order, tied players grouped: the elimination places
    in the event's prize order, the standings ranks of a Swiss or round robin. An
    entrant is a player of the draw, or a withdrawn player who played a match
    (``rules.people.who_played``): the waitlist, the no-shows dropped before the draw
    and the players the waitlist replaced are not."""
    groups: list[list[Person]] = []
    present = players_who_played(tournament)
    last_rank: int | None = None
    for standing in standings_table(tournament).rows:
        if standing.entry.status == EntryStatus.WAITLISTED:
            continue
        person = Person(standing.entry.player_id, standing.entry.display_name)
        if standing.entry.status != EntryStatus.WITHDRAWN:
            present.add(person.id)  # in the draw: an entrant, even one who lost by forfeit
        if standing.row.rank == last_rank:
            groups[-1].append(person)
        else:
            groups.append([person])
            last_rank = standing.row.rank
    return who_played(groups, present)


def players_who_played(tournament: Tournament) -> set[int]:
    """The people (player ids) who sat down at one of the event's matches: both
    players of a match played out, the winner of a forfeit (the one who turned up).
    One query."""
    rows = Match.objects.filter(
        tournament_pairing__tournament=tournament,
        status__in=(MatchStatus.FINISHED, MatchStatus.FORFEIT),
    ).values_list("status", "player1_id", "player2_id", "winner_id")
    present: set[int] = set()
    for status, one, two, winner in rows:
        if status == MatchStatus.FINISHED:
            present.update((one, two))
        elif winner is not None:
            present.add(winner)
    return present


def shortest_main_length(tournament: Tournament) -> int:
    """The shortest match length of the main competition's rounds (0: no round)."""
    lengths = (
        Round.objects.filter(stage__tournament=tournament)
        .exclude(stage__kind__in=SIDE_BRACKETS)
        .values_list("match_length", flat=True)
    )
    return min(lengths, default=0)


def wbgf_facts(tournament: Tournament, players: int) -> EventFacts:
    buy_in = buy_in_of(tournament)
    return EventFacts(
        players=players,
        knockout=tournament.is_elimination,
        shortest_length=shortest_main_length(tournament),
        buy_in=buy_in[0] if buy_in else None,
        currency=buy_in[1] if buy_in else "EUR",
    )


def _clock(clock: MatchClock | None) -> Clock | None:
    if clock is None:
        return None
    return Clock(
        preset=clock.preset,
        reserve_ms=clock.initial_reserve_ms,
        left1_ms=clock.reserve1_ms,
        left2_ms=clock.reserve2_ms,
        delay_ms=clock.delay_ms,
    )


def event_matches(tournament: Tournament) -> list[tuple[MatchFacts, Match]]:
    """Every match the event created (byes and empty slots have none), in the order
    the rounds were played, with the facts the rules read and the match row (for its
    ``.mat``)."""
    pairings = (
        Pairing.objects.filter(tournament=tournament, match__isnull=False)
        .select_related(
            "round__stage", "match__player1", "match__player2", "match__winner", "match__clock"
        )
        .annotate(has_games=Exists(Game.objects.filter(match=OuterRef("match_id"))))
        .order_by("round__stage__order", "round__stage__group", "round__number", "slot")
    )
    result = []
    with translation.override("en"):
        for pairing in pairings:
            match = pairing.match
            assert match is not None
            clock = getattr(match, "clock", None)
            has_transcript = bool(match.transcript) or (
                bool(pairing.has_games) and not match.final_score_only
            )
            facts = MatchFacts(
                match_id=match.pk,
                round_label=f"{pairing.round.stage}, round {pairing.round.number}",
                played_on=match.played_on
                or (match.finished_at.date() if match.finished_at else None),
                player1=match.player1.display_name,
                player2=match.player2.display_name,
                length=match.length,
                score1=match.score1,
                score2=match.score2,
                winner=match.winner.display_name if match.winner else None,
                status=match.status,
                rated=match.rated,
                forfeit=pairing.forfeit,
                transcript=has_transcript,
                clock=_clock(clock),
            )
            result.append((facts, match))
    return result
