"""Real concurrency on PostgreSQL: two tables' phones post the same chouette game at once.

Threads with their own connections are released together by a barrier; the session
row lock serialises them, so exactly one game is recorded and the other is told 409
(it named game 1, which is now taken), and the final state is that of a serial order.
"""

from __future__ import annotations

import pytest

from chouette.models import ChouetteGame, Session
from chouette.selectors import session_sheet
from chouette.services import sessions as session_services
from games.services.actors import actor_for_user
from tests.chouette.helpers import client, make_table, member, sessions_url
from tests.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(requests):
    return race(requests)


@pytest.mark.parametrize("attempt", range(3))
def test_two_posts_of_game_one_record_exactly_one(attempt, club, director):
    table = make_table(club, count=3, accounts=3)
    ann, ben, cat = table["Ann"], table["Ben"], table["Cat"]
    session = session_services.open_session(
        actor=actor_for_user(director), club=club, stake="1", players=[ann.pk, ben.pk, cat.pk]
    )
    url = sessions_url(session.pk, "games/")
    box_won = {"number": 1, "winner": "box", "members": [member(ben), member(cat)]}
    team_won = {"number": 1, "winner": "team", "members": [member(ben, 2), member(cat)]}
    responses = _race(
        [
            lambda: client(ben.user).post(url, box_won, format="json"),
            lambda: client(cat.user).post(url, team_won, format="json"),
        ]
    )
    codes = sorted(r.status_code for r in responses)
    assert codes == [201, 409], [r.json() for r in responses]
    loser = next(r for r in responses if r.status_code == 409)
    assert loser.json()["code"] == "game_already_recorded"
    assert ChouetteGame.objects.filter(session=session).count() == 1
    assert Session.objects.get(pk=session.pk).version == 2
    # the state is exactly that of the winning request played alone
    winner = next(r for r in responses if r.status_code == 201).json()
    sheet = session_sheet(session.pk)
    assert {t["player"]: t["points"] for t in winner["ledger"]["totals"]} == sheet.totals
    assert sum(sheet.totals.values()) == 0


def test_games_without_numbers_posted_at_once_are_numbered_one_after_the_other(club, director):
    table = make_table(club, count=3, accounts=0)
    ann, ben, cat = table["Ann"], table["Ben"], table["Cat"]
    session = session_services.open_session(
        actor=actor_for_user(director), club=club, stake="1", players=[ann.pk, ben.pk, cat.pk]
    )
    url = sessions_url(session.pk, "games/")
    # the box wins: the lineup after game 1 is Ann; Cat, Ben. A second entry naming
    # the same members in either order is valid against either lineup.
    body = {"winner": "box", "members": [member(ben), member(cat)]}
    responses = _race([lambda: client(director).post(url, body, format="json")] * 2)
    assert sorted(r.status_code for r in responses) == [201, 201]
    numbers = sorted(r.json()["game"]["number"] for r in responses)
    assert numbers == [1, 2]
    assert Session.objects.get(pk=session.pk).version == 3
    assert session_sheet(session.pk).totals == {ann.pk: 4, ben.pk: -2, cat.pk: -2}
