"""Opening a chouette from the club's page: the form, its refusals, who may use it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from chouette.models import Session
from games.services import clubs as club_services
from tests.chouette.helpers import make_table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(club):
    return make_table(club, count=5, accounts=2)  # Ann and Ben have accounts


def _browser(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def _checked(html: str, name: str, value: str | None = None) -> bool:
    """Whether the form shows that checkbox (or radio value) ticked."""
    value_part = f' value="{value}"' if value is not None else ""
    return re.search(rf'<input[^>]*name="{name}"{value_part}[^>]*\bchecked\b', html) is not None


def _url(club) -> str:
    return f"/chouette/clubs/{club.slug}/open/"


def _modern_rules() -> dict:
    """The rule fields as the form first shows them (modern defaults; unchecked boxes
    are simply absent from a real POST)."""
    return {
        "profile": "modern",
        "cubes": "multiple",
        "jacoby": "on",
        "beavers": "on",
        "automatic_double_limit": "1",
        "backgammon_value": "3",
        "cube_limit": "",
        "partner_threshold": "",
        "partner_choice": "bottom",
        "box_retention": "beat_captain",
        "consultation": "checker_play",
    }


def _form(table, rolls=None, seats=None, **extra) -> dict:
    data = {"stake": "0.50", "currency": "usd", "label": "", "played_on": "", **_modern_rules()}
    data["order_from"] = "rolls" if rolls is not None else "seats"
    for name, value in (rolls or {}).items():
        data[f"p{table[name].pk}_rolls"] = value
    for name, value in (seats or {}).items():
        data[f"p{table[name].pk}_seat"] = value
    data.update(extra)
    return data


def test_club_page_links_to_the_open_form_for_its_director_only(club, director, table):
    assert "Open a chouette" in _browser(director).get(f"/clubs/{club.slug}/").content.decode()
    assert "Open a chouette" not in Client().get(f"/clubs/{club.slug}/").content.decode()


def test_the_form_shows_every_house_rule_with_the_modern_defaults(club, director, table):
    html = _browser(director).get(_url(club)).content.decode()
    for name in (
        "cubes",
        "jacoby",
        "beavers",
        "raccoons",
        "automatic_doubles",
        "automatic_double_limit",
        "philadelphia",
        "backgammon_value",
        "cube_limit",
        "partner_threshold",
        "partner_choice",
        "captain_takeover",
        "box_retention",
        "consultation",
        "allow_starting_cube",
    ):
        assert f'name="{name}"' in html, name
    assert _checked(html, "jacoby") and _checked(html, "beavers")
    assert not _checked(html, "raccoons") and not _checked(html, "captain_takeover")
    assert _checked(html, "cubes", "multiple") and _checked(html, "backgammon_value", "3")
    assert "Starting from: <strong>Modern</strong>" in html


def test_order_from_rolls_with_a_re_roll_opens_the_session(club, director, table):
    data = _form(table, rolls={"Ann": "4", "Ben": "6", "Cat": "3 5", "Dan": "3, 2"})
    response = _browser(director).post(_url(club), data, follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Chouette opened: Ben is box, Ann captain." in html
    session = Session.objects.get()
    names = {p.pk: p.display_name for p in table.values()}
    assert [names[pk] for pk in session.opening_order] == ["Ben", "Ann", "Cat", "Dan"]
    assert (str(session.stake), session.currency) == ("0.50", "USD")
    assert session.opening_rolls[str(table["Cat"].pk)] == [3, 5]


def test_an_unresolved_tie_is_shown_with_the_rule_and_nothing_opens(club, director, table):
    data = _form(table, rolls={"Ann": "4", "Ben": "6", "Cat": "3", "Dan": "3"})
    response = _browser(director).post(_url(club), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Players Cat, Dan are tied after 1 roll(s)" in html
    assert "unresolved_tie" in html
    assert not Session.objects.exists()


def test_seats_given_by_hand(club, director, table):
    data = _form(table, seats={"Dan": 1, "Ann": 2, "Eve": 3})
    _browser(director).post(_url(club), data)
    names = {p.pk: p.display_name for p in table.values()}
    assert [names[pk] for pk in Session.objects.get().opening_order] == ["Dan", "Ann", "Eve"]


@pytest.mark.parametrize(
    ("seats", "extra", "message"),
    [
        ({"Dan": 1, "Ann": 1, "Eve": 2}, {}, "each once, without gaps"),
        ({"Dan": 1, "Ann": 2}, {}, "too_few_players"),
        ({"Dan": 1, "Ann": 2, "Eve": 3}, {"stake": "0.005"}, "stake_below_cent"),
        ({"Dan": 1, "Ann": 2, "Eve": 3}, {"currency": "E1"}, "invalid_currency"),
        ({"Dan": 1, "Ann": 2, "Eve": 3}, {"partner_threshold": "3"}, "partner_threshold"),
    ],
)
def test_bad_openings_are_refused_naming_the_rule(club, director, table, seats, extra, message):
    response = _browser(director).post(_url(club), _form(table, seats=seats, **extra))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Session.objects.exists()


def test_rolls_that_are_not_numbers_are_refused_on_that_row(club, director, table):
    data = _form(table, rolls={"Ann": "four", "Ben": "6", "Cat": "2"})
    html = _browser(director).post(_url(club), data).content.decode()
    assert "Rolls are numbers 1 to 6" in html
    assert not Session.objects.exists()


def test_the_thorne_1930_button_refills_the_rules_and_keeps_the_players(club, director, table):
    data = _form(table, rolls={"Ann": "4", "Ben": "6", "Cat": "2"}, preset="thorne_1930")
    response = _browser(director).post(_url(club), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Starting from: <strong>Thorne 1930</strong>" in html
    assert _checked(html, "cubes", "single") and _checked(html, "consultation", "free")
    assert not _checked(html, "jacoby") and not _checked(html, "beavers")
    assert _checked(html, "captain_takeover")
    assert f'name="p{table["Cat"].pk}_rolls" value="2"' in html
    assert not Session.objects.exists()


def test_a_thorne_1930_session_opens_with_its_rules_as_submitted(club, director, table):
    rules = {
        "profile": "thorne_1930",
        "cubes": "single",
        "captain_takeover": "on",
        "automatic_double_limit": "1",
        "backgammon_value": "4",  # the table changed one rule of the profile
        "partner_choice": "bottom",
        "box_retention": "beat_captain",
        "consultation": "free",
    }
    data = {
        k: v
        for k, v in _form(table, seats={"Ann": 1, "Ben": 2, "Cat": 3}).items()
        if k not in _modern_rules()
    }
    _browser(director).post(_url(club), {**data, **rules})
    session = Session.objects.get()
    assert session.profile == "thorne_1930"
    assert (session.cubes, session.jacoby, session.beavers) == ("single", False, False)
    assert (session.captain_takeover, session.backgammon_value) == (True, 4)


def test_a_club_player_opens_a_table_they_sit_at_but_not_one_without_them(club, table):
    ann = _browser(table["Ann"].user)
    html = ann.post(_url(club), _form(table, seats={"Ben": 1, "Cat": 2, "Dan": 3})).content
    assert b"directors_or_players_only" in html
    assert not Session.objects.exists()
    ann.post(_url(club), _form(table, seats={"Ben": 1, "Ann": 2, "Dan": 3}))
    assert Session.objects.get().created_by == table["Ann"].user


def test_outsiders_cannot_open(club, table):
    assert Client().get(_url(club)).status_code == 302  # to the login page
    stranger = UserFactory.create(username="stranger", password=None)
    assert _browser(stranger).get(_url(club)).status_code == 403
    other = club_services.create_club(created_by=stranger, name="Other", slug="other")
    outsider = UserFactory.create(username="outsider", password=None)
    club_services.create_player(display_name="Olga", clubs=[other], user=outsider)
    response = _browser(outsider).post(_url(club), _form(table, seats={"Ann": 1, "Ben": 2}))
    assert response.status_code == 403
    assert not Session.objects.exists()
