"""Winning chances of matches as the pages and the API show them (docs/chances.md).

One read for any number of matches, in at most two queries whatever their number: the
players' ratings on their clubs' lists, and which of the matches have played their
Crawford game (only asked for matches where someone needs one point, and skipped when
the caller already knows). The arithmetic is :mod:`games.rules.match_chances`; the
club's table comes from :mod:`games.met_tables` (parsed once per process).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.met_tables import club_table
from games.models import Game, Match, MatchStatus, Rating
from games.rules import variants
from games.rules.errors import RuleViolation
from games.rules.match_chances import match_winning_chance, pre_match_chance
from games.rules.scoring import MatchRules, next_game_facts

DECIMALS = 6


@dataclass(frozen=True, slots=True)
class Chances:
    """Each player's chance to win the match from where it stands, summing to 1.

    ``basis``: ``pre_match`` (0-0: the FIBS probability for the length), ``table``
    (equal ratings: the club's table), ``model`` (the table shifted by the rating gap),
    ``formula`` (a variant no match equity table covers: the FIBS probability for the
    length at any score, which the page says), ``final`` (decided: 1 and 0).
    ``rating1``/``rating2`` are the ratings used.
    """

    player1: float
    player2: float
    basis: str
    rating1: float
    rating2: float

    def as_list(self) -> list[float]:
        return [self.player1, self.player2]


def _ratings(matches: Sequence[Match]) -> dict[tuple[int, int], float]:
    """(club id, player id) -> rating on the club's list, one query for all matches."""
    found: dict[tuple[int, int], float] = {}
    unread = []
    for m in matches:
        if hasattr(m, "list_rating1"):  # read with the row by the locking query of a write
            for player_id, rating in (
                (m.player1_id, getattr(m, "list_rating1", None)),
                (m.player2_id, getattr(m, "list_rating2", None)),
            ):
                if rating is not None:
                    found[(m.club_id, player_id)] = float(rating)
        else:
            unread.append(m)
    clubs = {m.club_id for m in unread}
    players = {p for m in unread for p in (m.player1_id, m.player2_id)}
    if not clubs:
        return found
    rows = Rating.objects.filter(
        rating_list__club_id__in=clubs, rating_list__variant="standard", player_id__in=players
    ).values_list("rating_list__club_id", "player_id", "rating")
    found.update({(club, player): rating for club, player, rating in rows})
    return found


def _crawford_played(matches: Sequence[Match]) -> set[int]:
    """Ids of the matches (among those at match point) whose Crawford game is played."""
    at_match_point = [
        m.pk for m in matches if m.length > 1 and m.length - 1 in (m.score1, m.score2)
    ]
    if not at_match_point:
        return set()
    return set(
        Game.objects.filter(match_id__in=at_match_point, crawford=True).values_list(
            "match_id", flat=True
        )
    )


def _rounded(p1: float) -> tuple[float, float]:
    first = round(p1, DECIMALS)
    return first, round(1.0 - first, DECIMALS)


def _one(match: Match, rating1: float, rating2: float, crawford_played: bool) -> Chances | None:
    if match.status == MatchStatus.VOID or match.length < 1:
        return None
    if match.status in (MatchStatus.FINISHED, MatchStatus.FORFEIT) or match.winner_id:
        if match.winner_id is None:
            return None
        won = 1.0 if match.winner_id == match.player1_id else 0.0
        return Chances(won, 1.0 - won, "final", rating1, rating2)
    if not variants.match_equity_applies(match.variant):
        # no table for this variant's gammons and cube: the rating formula alone
        p1 = pre_match_chance(length=match.length, rating_a=rating1, rating_b=rating2)
        return Chances(*_rounded(p1), "formula", rating1, rating2)
    if match.score1 == 0 and match.score2 == 0:
        p1 = pre_match_chance(length=match.length, rating_a=rating1, rating_b=rating2)
        return Chances(*_rounded(p1), "pre_match", rating1, rating2)
    crawford, post = next_game_facts(
        MatchRules(match.length, crawford=match.crawford, variant=match.variant),
        (match.score1, match.score2),
        crawford_played,
    )
    try:
        p1 = match_winning_chance(
            club_table(match.club.match_equity_table),
            length=match.length,
            score_a=match.score1,
            score_b=match.score2,
            crawford_game=crawford,
            post_crawford=post,
            rating_a=rating1,
            rating_b=rating2,
        )
    except RuleViolation:
        return None  # a match longer than the table covers: no chances shown
    basis = "table" if rating1 == rating2 else "model"
    return Chances(*_rounded(p1), basis, rating1, rating2)


def winning_chances(
    matches: Iterable[Match], *, crawford_played: Mapping[int, bool] | None = None
) -> dict[int, Chances | None]:
    """Match id -> its chances (None: void, an unlimited session, or beyond the table).

    The matches come with their clubs loaded (``matches_queryset``). A player without
    a rating on the club's list counts at the club's starting rating.
    ``crawford_played`` (match id -> bool) spares the Crawford query for callers that
    have read the games anyway.
    """
    matches = list(matches)
    ratings = _ratings(matches)
    if crawford_played is None:
        played = _crawford_played(matches)
        crawford_played = {m.pk: m.pk in played for m in matches}
    result: dict[int, Chances | None] = {}
    for match in matches:
        initial = float(match.club.rating_initial)
        rating1 = ratings.get((match.club_id, match.player1_id), initial)
        rating2 = ratings.get((match.club_id, match.player2_id), initial)
        result[match.pk] = _one(match, rating1, rating2, crawford_played.get(match.pk, False))
    return result


def chances_of(match: Match, *, crawford_played: bool | None = None) -> Chances | None:
    """One match's chances (the match page, the entry page)."""
    known = None if crawford_played is None else {match.pk: crawford_played}
    return winning_chances([match], crawford_played=known)[match.pk]
