"""A Swiss event ordered by Win + Skill: the standings read the analysed matches' PR."""

from __future__ import annotations

import pytest

from games.models import Match
from games.services import clubs as club_services
from tests.factories import MatchAnalysisFactory, PlayerAnalysisFactory
from tests.tournaments.api.test_tournaments_api import (
    API,
    bracket,
    create_event,
    play,
    register_all,
    swiss_round,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(club):
    def make(n: int):
        return [
            club_services.create_player(display_name=f"W{i + 1:02d}", clubs=[club])
            for i in range(n)
        ]

    return make


def _analysed(match: Match, pr1: float, pr2: float) -> None:
    """Stored figures of an analysed match (what the analysis job writes)."""
    analysis = MatchAnalysisFactory.create(match=match)
    for side, pr in ((0, pr1), (1, pr2)):
        PlayerAnalysisFactory.create(analysis=analysis, side=side, pr=pr)


def test_win_skill_as_the_score_of_a_swiss(client_for, director, club, players):
    client = client_for(director)
    event = create_event(
        client, club, format="swiss", swiss_rounds=1, tie_breaks=["win_skill", "match_wins"]
    )
    slug = event["slug"]
    register_all(client, slug, players(4))
    assert client.post(f"{API}{slug}/start/").status_code == 200
    pairings = swiss_round(bracket(client, slug), 1)
    winners = []
    for k, p in enumerate(pairings):
        play(client, p, 0)
        match = Match.objects.get(pk=p["match"])
        winner_side = match.side_of(match.winner)
        # first pairing: the winner outplayed the loser; second: the loser played better
        prs = (3.0, 9.0) if k == 0 else (9.0, 3.0)
        _analysed(match, *(prs if winner_side == 0 else prs[::-1]))
        winners.append(p["player1"]["entry"])
    table = client.get(f"{API}{slug}/standings/").json()["standings"]
    scores = {row["player"]["entry"]: row["tie_breaks"]["win_skill"] for row in table}
    assert sorted(scores.values()) == [0.0, 1.0, 1.0, 2.0]
    assert table[0]["tie_breaks"]["win_skill"] == 2.0 and table[0]["player"]["entry"] in winners
    assert table[-1]["tie_breaks"]["win_skill"] == 0.0
