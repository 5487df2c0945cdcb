"""Chouette pages: the live sheet, the record form without JavaScript, settlement, print."""

from __future__ import annotations

import pytest
from django.test import Client

from chouette.models import ChouetteGame
from chouette.records import GameInput, MemberInput
from chouette.services import recording as recording_services
from chouette.services import sessions as session_services
from games.services.actors import actor_for_user
from tests.chouette.helpers import make_table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(club):
    return make_table(club, count=5, accounts=1)


@pytest.fixture
def session(director, table):
    ids = [table[n].pk for n in ("Ann", "Ben", "Cat", "Dan")]
    return session_services.open_session(
        actor=actor_for_user(director), club=table["Ann"].clubs.get(), stake="0.25", players=ids
    )


def _play(director, session, count):
    """``count`` games the box wins on centred cubes (the box stays, the line turns)."""
    for _ in range(count):
        lineup = session.__class__.objects.get(pk=session.pk).lineup
        recording_services.record_game(
            actor=actor_for_user(director),
            session_id=session.pk,
            game=GameInput(members=tuple(MemberInput(pk) for pk in lineup[1:]), winner="box"),
        )


def _logged_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def test_sheet_shows_box_captain_team_and_ledger(director, session, table):
    _play(director, session, 2)
    page = Client().get(f"/chouette/sessions/{session.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<span class="role">Box</span>Ann' in html
    assert '<span class="role">Captain</span>Dan' in html  # Ben, then Cat went down
    assert "Game 3" in html
    assert "Record game" not in html  # anonymous visitors read only
    assert ">6<" in html  # Ann's running total after two games of +3


def test_record_form_records_a_game_without_javascript(director, session, table):
    browser = _logged_in(director)
    page = browser.get(f"/chouette/sessions/{session.pk}/")
    assert "Record game 1" in page.content.decode()
    form = {"number": 1, "winner": "team", "level": "gammon", "ending": ""}
    for name in ("Ben", "Cat", "Dan"):
        pk = table[name].pk
        form.update({f"m{pk}_cube": 2 if name == "Ben" else 1, f"m{pk}_action": "played"})
    response = browser.post(f"/chouette/sessions/{session.pk}/record/", form, follow=True)
    assert response.status_code == 200
    assert "Game 1 recorded." in response.content.decode()
    game = ChouetteGame.objects.get(session=session)
    assert (game.box_points, game.board_captain.display_name) == (-6, "Ben")


def test_record_form_shows_the_rule_that_refused_the_game(director, session, table):
    browser = _logged_in(director)
    form = {"number": 1, "winner": "box", "level": "single"}
    for name in ("Ben", "Cat", "Dan"):
        pk = table[name].pk
        form.update({f"m{pk}_cube": 3, f"m{pk}_action": "played"})
    response = browser.post(f"/chouette/sessions/{session.pk}/record/", form)
    assert response.status_code == 400
    assert "cube_not_power_of_two" in response.content.decode()
    assert not ChouetteGame.objects.exists()


def test_join_leave_undo_and_close_by_forms(director, session, table):
    browser = _logged_in(director)
    url = f"/chouette/sessions/{session.pk}/"
    browser.post(url + "join/", {"player": table["Eve"].pk})
    _play(director, session, 1)
    browser.post(url + "leave/", {"player": table["Ben"].pk})
    session.refresh_from_db()
    assert table["Eve"].pk in session.lineup and table["Ben"].pk not in session.lineup
    browser.post(url + "undo/", {"number": 1})
    assert not ChouetteGame.objects.exists()
    browser.post(url + "close/")
    session.refresh_from_db()
    assert session.status == "closed"
    assert "Record game" not in browser.get(url).content.decode()


def test_a_visitor_cannot_record_through_the_form(session, table):
    response = Client().post(f"/chouette/sessions/{session.pk}/record/", {"number": 1})
    assert response.status_code == 400
    assert not ChouetteGame.objects.exists()


def test_settlement_page_lists_the_transfers(director, session, table):
    _play(director, session, 1)
    html = Client().get(f"/chouette/sessions/{session.pk}/settlement/").content.decode()
    assert "Ben pays Ann <strong>0.25 EUR</strong>" in html
    assert html.count(" EUR</strong></li>") == 3


def test_printable_sheet_has_a_print_stylesheet(director, session):
    _play(director, session, 1)
    page = Client().get(f"/chouette/sessions/{session.pk}/print/")
    assert page.status_code == 200
    assert "chouette/chouette.css" in page.content.decode()
    assert "Opening order: Ann (box), Ben" in page.content.decode()


def test_club_page_links_open_sessions(session, club):
    html = Client().get(f"/clubs/{club.slug}/").content.decode()
    assert f"/chouette/sessions/{session.pk}/" in html


def test_session_list(session):
    assert f"/chouette/sessions/{session.pk}/" in Client().get("/chouette/").content.decode()


@pytest.mark.parametrize("path", ["", "settlement/", "print/"])
def test_page_queries_do_not_grow_with_the_number_of_games(
    director, session, path, django_assert_max_num_queries
):
    browser = _logged_in(director)
    url = f"/chouette/sessions/{session.pk}/{path}"
    _play(director, session, 2)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        assert browser.get(url).status_code == 200
    _play(director, session, 12)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert browser.get(url).status_code == 200


def test_the_sheet_shows_the_audit_trail_to_the_table_and_its_directors(director, session, table):
    _play(director, session, 1)
    url = f"/chouette/sessions/{session.pk}/"
    html = _logged_in(director).get(url).content.decode()
    assert "Audit trail" in html
    assert "director recorded game 1: box Ann won" in html
    assert "director opened the session: Ann, Ben, Cat, Dan" in html
    assert "opening_order" not in html and "None" not in html.split("Audit trail")[1]
    assert "Audit trail" not in Client().get(url).content.decode()
    ann = table["Ann"]  # seated, with an account
    assert "Audit trail" in _logged_in(ann.user).get(url).content.decode()
    stranger = UserFactory.create(username="stranger", password=None)
    assert "Audit trail" not in _logged_in(stranger).get(url).content.decode()


def test_a_member_row_on_the_record_form_is_a_set_of_chips(director, session, table):
    html = _logged_in(director).get(f"/chouette/sessions/{session.pk}/").content.decode()
    ben = table["Ben"].pk
    for value in (1, 2, 4, 8, 16, 32, 64):
        assert f'name="m{ben}_cube" value="{value}"' in html
    assert 'aria-label="Ben"' in html and "captain" in html
    assert f'hx-post="/chouette/sessions/{session.pk}/record/"' in html


def test_a_refusal_is_marked_on_the_member_it_names(director, session, table):
    form = {"number": 1, "winner": "box", "level": "single"}
    for name in ("Ben", "Cat", "Dan"):
        pk = table[name].pk
        form.update({f"m{pk}_cube": 1, f"m{pk}_action": "played", f"m{pk}_owner": ""})
    form[f"m{table['Cat'].pk}_owner"] = "box"  # a centred cube has no owner
    response = _logged_in(director).post(f"/chouette/sessions/{session.pk}/record/", form)
    assert response.status_code == 400
    html = response.content.decode()
    assert "owner_of_centred_cube, members[1].owner" in html
    cat_card = html[html.index('aria-label="Cat"') : html.index('aria-label="Dan"')]
    assert '<p class="error">Nobody owns a cube' in cat_card
    assert not ChouetteGame.objects.exists()


@pytest.mark.parametrize("value", ["abc", "a\x00b", "1e400", "漢字", "-3"])
def test_hostile_numbers_on_the_sheet_forms_are_refused_not_a_500(director, session, table, value):
    browser = _logged_in(director)
    url = f"/chouette/sessions/{session.pk}/"
    _play(director, session, 1)
    assert browser.post(url + "join/", {"player": value}).status_code == 404
    assert browser.post(url + "leave/", {"player": value}).status_code == 404
    assert browser.post(url + "undo/", {"number": value}).status_code == 302
    assert ChouetteGame.objects.count() == 1


def _drop_form(table, dan_cube):
    """Game 1: the box (Ann) doubles Dan, who drops; Ben and Cat play on centred cubes
    and the box wins the board."""
    form = {"number": 1, "winner": "box", "level": "single", "ending": ""}
    for name in ("Ben", "Cat", "Dan"):
        pk = table[name].pk
        form.update({f"m{pk}_cube": 1, f"m{pk}_action": "played", f"m{pk}_owner": ""})
    dan = table["Dan"].pk
    form.update({f"m{dan}_cube": dan_cube, f"m{dan}_action": "dropped"})
    return form


def test_the_card_takes_a_drop_as_the_cube_offered_like_match_entry(director, session, table):
    """Issue #27: tapping 2 for a dropped first double charged the dropper 2 points; the
    card now asks for the cube offered, says so next to the field, and charges 1."""
    browser = _logged_in(director)
    page = browser.get(f"/chouette/sessions/{session.pk}/").content.decode()
    assert "For a drop: the cube offered (2 for a first double)" in page
    response = browser.post(
        f"/chouette/sessions/{session.pk}/record/", _drop_form(table, 2), follow=True
    )
    assert "Game 1 recorded." in response.content.decode()
    dan = ChouetteGame.objects.get(session=session).members.get(player=table["Dan"])
    assert (dan.cube, dan.action, dan.points) == (1, "dropped", -1)


def test_a_drop_left_at_cube_1_is_refused_on_the_members_card(director, session, table):
    response = _logged_in(director).post(
        f"/chouette/sessions/{session.pk}/record/", _drop_form(table, 1)
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "drop_needs_cube_offered, members[2].cube" in html
    dan_card = html[html.index('aria-label="Dan"') :]
    assert '<p class="error">For a drop, choose the cube that was offered' in dan_card
    assert not ChouetteGame.objects.exists()
