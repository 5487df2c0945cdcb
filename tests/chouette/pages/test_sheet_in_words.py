"""Issue 41, the chouette sheet in words: a beaver entered at cube 2 is refused saying
why (the API's detail and the page), and a gammon the Jacoby rule counted single is
explained on the sheet, not left as a puzzling 1."""

from __future__ import annotations

import pytest
from django.test import Client

from chouette.models import ChouetteGame
from chouette.services import sessions as session_services
from games.services.actors import actor_for_user
from tests.chouette.helpers import client, make_table, member, sessions_url

pytestmark = pytest.mark.django_db

BEAVER_WORDS = (
    "A beaver turns the cube a second time: the double takes it to 2 and the beaver at "
    "once to 4. Enter the cube as the game ended (4 or more), not 2, or no beaver."
)


@pytest.fixture
def table(club):
    return make_table(club, count=4, accounts=0)


def _open(director, table, **rules):
    return session_services.open_session(
        actor=actor_for_user(director),
        club=table["Ann"].clubs.get(),
        stake="1.00",
        players=[table[n].pk for n in ("Ann", "Ben", "Cat", "Dan")],
        rules={"beavers": True, **rules},
    )


def test_a_beaver_at_cube_2_is_refused_in_words_by_the_api(director, table):
    session = _open(director, table)
    answer = client(director).post(
        sessions_url(session.pk, "games/"),
        {
            "winner": "box",
            "members": [
                member(table["Ben"], 2, "beavered"),
                member(table["Cat"]),
                member(table["Dan"]),
            ],
        },
        format="json",
    )
    assert answer.status_code == 400, answer.json()
    body = answer.json()
    assert (body["code"], body["field"]) == ("cube_too_low_for_beaver", "members[0].cube")
    assert body["detail"] == BEAVER_WORDS
    assert not ChouetteGame.objects.exists()


def test_a_beaver_at_cube_2_is_refused_in_words_on_the_sheet(director, table):
    session = _open(director, table)
    browser = Client()
    browser.force_login(director)
    form = {"number": 1, "winner": "box", "level": "single"}
    for name in ("Ben", "Cat", "Dan"):
        pk = table[name].pk
        form.update({f"m{pk}_cube": 1, f"m{pk}_action": "played", f"m{pk}_owner": ""})
    ben = table["Ben"].pk
    form.update({f"m{ben}_cube": 2, f"m{ben}_action": "beavered", f"m{ben}_owner": "team"})
    response = browser.post(f"/chouette/sessions/{session.pk}/record/", form)
    assert response.status_code == 400
    html = response.content.decode()
    ben_card = html[html.index('aria-label="Ben"') : html.index('aria-label="Cat"')]
    assert f'<p class="error">{BEAVER_WORDS}' in ben_card
    assert not ChouetteGame.objects.exists()


def test_the_sheet_explains_a_gammon_counted_single_by_the_jacoby_rule(director, table):
    session = _open(director, table, jacoby=True)
    recorded = client(director).post(
        sessions_url(session.pk, "games/"),
        {
            "winner": "team",
            "level": "gammon",
            "members": [
                member(table["Ben"], 2, owner="team"),
                member(table["Cat"]),
                member(table["Dan"]),
            ],
        },
        format="json",
    )
    assert recorded.status_code == 201, recorded.json()
    html = Client().get(f"/chouette/sessions/{session.pk}/").content.decode()
    notes = [part.split("</li>")[0] for part in html.split('data-role="jacoby-single">')[1:]]
    assert notes == [
        "Game 1: the gammon counted single for Cat, Dan (Jacoby rule: their cube was not turned)."
    ]
    # Ben's cube was turned: his gammon counts double, 2 × 2; Cat and Dan win 1 each.
    game = ChouetteGame.objects.get()
    assert {m.player.display_name: m.points for m in game.members.all()} == {
        "Ben": 4,
        "Cat": 1,
        "Dan": 1,
    }


def test_no_jacoby_note_without_the_rule(director, table):
    session = _open(director, table, jacoby=False)
    client(director).post(
        sessions_url(session.pk, "games/"),
        {
            "winner": "team",
            "level": "gammon",
            "members": [member(table["Ben"]), member(table["Cat"]), member(table["Dan"])],
        },
        format="json",
    )
    assert (
        'data-role="jacoby-single"'
        not in Client().get(f"/chouette/sessions/{session.pk}/").content.decode()
    )
