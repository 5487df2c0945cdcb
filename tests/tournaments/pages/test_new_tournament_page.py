"""The new-event page offers every option of the tournament-create API, per format.

Through Django's client: each format's options reach the event (and are the same
event the API creates from the same options), the fields of other formats are
ignored, per-round lengths are stored and played, bad input comes back next to its
field in words with nothing written, and the preview says what the options will play.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Club
from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tournaments import options as tournament_options
from tournaments.forms import FORMAT_OPTIONS
from tournaments.models import Round, StageKind, Tournament
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(director) -> Client:
    browser = Client()
    browser.force_login(director)
    return browser


def url(club) -> str:
    return f"/tournaments/new/{club.slug}/"


def config(tournament: Tournament) -> dict:
    return {f: getattr(tournament, f) for f in tournament_options.names() if f != "name"}


def create(desk: Client, club: Club, fields: dict[str, str]) -> Tournament:
    """Posts the new-event form and returns the event it made: a made event always
    sends the director on to its dashboard (a refusal fails here, showing the page)."""
    response = desk.post(url(club), fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    made = Tournament.objects.get(name=fields["name"])
    assert response["Location"] == f"/tournaments/{made.slug}/director/"
    return made


def preview(desk: Client, club: Club, fields: dict[str, str], *, htmx: bool = False) -> str:
    """The page's preview of these options (``action=preview``): always a page, whatever
    the options; by htmx only the preview's fragment."""
    headers = {"HX-Request": "true"} if htmx else None
    response = desk.post(url(club), {"action": "preview", **fields}, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def field_error(html: str, field: str) -> str:
    """The error shown in the field's own box (empty when it has none)."""
    box = re.search(
        rf'<div class="field invalid">\s*<label[^>]* for="id_{field}".*?</div>', html, re.S
    )
    if box is None:
        return ""
    found = re.search(r'<p class="error"[^>]*>(.*?)</p>', box.group(0), re.S)
    return found.group(1) if found else ""


def test_the_page_shows_every_formats_fields_grouped_for_browsers_without_javascript(desk, club):
    html = desk.get(url(club)).content.decode()
    groups = re.findall(r'data-formats="([^"]*)"', html)
    for formats in ("single_elimination", "double_elimination", "swiss", "round_robin"):
        assert formats in groups  # each format's own match lengths, at least
    assert "single_elimination double_elimination" in groups  # the drop-ins
    served = {f for group in groups for f in group.split()}
    assert served == set(FORMAT_OPTIONS)  # every registered format has its groups
    for name in (
        "consolation_from",
        "last_chance_from",
        "feed_orders",
        "prize_order",
        "grand_final_reset",
        "swiss_rounds",
        "max_losses",
        "groups",
        "playoff_qualifiers",
        "tie_break_1",
        "bye_is_win",
        "seeding",
        "random_seed",
        "starts_on",
        "ends_on",
        "crawford",
        "rated",
        "length_main_semi",
        "length_main_quarter",
        "length_main_3",
        "length_main_final",
        "length_consolation_final",
        "length_last_chance_1",
        "length_grand_final_2",
        "length_swiss_last",
        "length_playoff_final",
    ):
        assert f'name="{name}"' in html, name
    assert "js/new-event.js" in html  # hides the groups of other formats


def test_single_elimination_with_every_option_is_the_event_the_api_creates(
    desk, club, client_for, director
):
    page_made = create(
        desk,
        club,
        {
            "name": "Club Night",
            "format": "single_elimination",
            "seeding": "random",
            "random_seed": "42",
            "length": "3",
            "crawford": "on",
            "consolation_from": "1, 2",
            "last_chance_from": "1",
            "feed_orders": "straight reversed",
            "prize_order": "main, consolation:1",
            "length_main_1": "3",
            "length_main_2": "3",
            "length_main_semi": "5",
            "length_main_final": "7",
            "length_consolation_final": "5",
            # another format's fields: ignored
            "swiss_rounds": "9",
            "tie_break_1": "buchholz",
            "groups": "4",
            "length_swiss_1": "11",
        },
    )
    api = client_for(director).post(
        "/api/v1/tournaments/",
        {
            "club": club.slug,
            "name": "Club Night API",
            "format": "single_elimination",
            "seeding": "random",
            "random_seed": 42,
            "consolation_from": [1, 2],
            "last_chance_from": [1],
            "feed_orders": ["straight", "reversed"],
            "prize_order": ["main", "consolation:1"],
            "crawford": True,
            "rated": False,
            "match_lengths": {
                "default": 3,
                "rounds": {
                    "main": {"1": 3, "2": 3, "-2": 5, "-1": 7},
                    "consolation": {"-1": 5},
                },
            },
        },
        format="json",
    )
    assert api.status_code == 201, api.json()
    assert config(page_made) == config(Tournament.objects.get(name="Club Night API"))
    assert page_made.swiss_rounds is None and page_made.groups == 1  # not this format's
    assert page_made.rated is False  # an unticked box is "no"


def test_double_elimination_takes_its_reset_and_grand_final_lengths(desk, club):
    event = create(
        desk,
        club,
        {
            "name": "Double",
            "format": "double_elimination",
            "length": "5",
            "rated": "on",
            "crawford": "on",
            "length_winners_final": "9",
            "length_grand_final_1": "11",
            "length_grand_final_2": "7",
            "consolation_from": "1",  # single elimination's: ignored
        },
    )
    assert event.grand_final_reset is False  # unticked
    assert event.consolation_from == []
    assert event.match_lengths == {
        "default": 5,
        "rounds": {"winners": {"-1": 9}, "grand_final": {"1": 11, "2": 7}},
    }


def test_swiss_takes_rounds_tie_breaks_and_byes(desk, club):
    event = create(
        desk,
        club,
        {
            "name": "Tuesday Swiss",
            "format": "swiss",
            "swiss_rounds": "4",
            "max_losses": "3",
            "tie_break_1": "match_wins",
            "tie_break_2": "median_buchholz",
            "tie_break_3": "points_difference",
            "length": "5",
            "length_swiss_last": "7",
            "consolation_from": "not a number",  # another format's field, even wrong
        },
    )
    assert (event.swiss_rounds, event.max_losses) == (4, 3)
    assert event.tie_breaks == ["match_wins", "median_buchholz", "points_difference"]
    assert event.bye_is_win is False
    assert event.consolation_from == []
    assert event.match_lengths == {"default": 5, "rounds": {"swiss": {"-1": 7}}}


def test_round_robin_takes_groups_and_playoff_and_its_default_tie_breaks(desk, club):
    event = create(
        desk,
        club,
        {
            "name": "League",
            "format": "round_robin",
            "groups": "2",
            "playoff_qualifiers": "2",
            "bye_is_win": "on",
            "length_playoff_final": "9",
            "swiss_rounds": "3",  # Swiss's: ignored
        },
    )
    assert (event.groups, event.playoff_qualifiers, event.swiss_rounds) == (2, 2, None)
    assert event.tie_breaks[0] == "match_wins" and len(event.tie_breaks) > 1
    assert event.match_lengths == {"default": 5, "rounds": {"playoff": {"-1": 9}}}


def test_n_lives_takes_its_lives_and_playoff_and_ignores_the_swiss_rounds(desk, club):
    event = create(
        desk,
        club,
        {
            "name": "Three Lives",
            "format": "n_lives",
            "max_losses": "3",
            "playoff_qualifiers": "8",
            "bye_is_win": "on",
            "swiss_rounds": "5",  # a fixed-rounds Swiss's: ignored
            "length_playoff_final": "11",
        },
    )
    assert (event.format, event.max_losses, event.playoff_qualifiers) == ("n_lives", 3, 8)
    assert event.swiss_rounds is None and event.bye_is_win is True
    assert event.tie_breaks[:2] == ["match_wins", "buchholz"]
    assert event.match_lengths == {"default": 5, "rounds": {"playoff": {"-1": 11}}}


def test_n_lives_without_a_playoff_is_told_next_to_the_field(desk, club):
    fields = {"name": "No Playoff", "format": "n_lives", "max_losses": "3"}
    response = desk.post(url(club), {**fields, "playoff_qualifiers": "0", "bye_is_win": "on"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "at least 2 players" in field_error(html, "playoff_qualifiers")
    assert not Tournament.objects.filter(name="No Playoff").exists()


def test_per_round_lengths_are_played_by_the_rounds(desk, club, director):
    event = create(
        desk,
        club,
        {
            "name": "Eight",
            "format": "single_elimination",
            "length": "3",
            "length_main_semi": "5",
            "length_main_final": "7",
        },
    )
    actor = actor_for_user(director)
    for n in range(8):
        player = club_services.create_player(display_name=f"P{n}", clubs=[club])
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    lengths = dict(
        Round.objects.filter(stage__tournament=event, stage__kind=StageKind.MAIN).values_list(
            "number", "match_length"
        )
    )
    assert lengths == {1: 3, 2: 5, 3: 7}
    first = event.pairings.filter(match__isnull=False).select_related("match").first()
    assert first.match.length == 3


@pytest.mark.parametrize(
    ("posted", "field", "words"),
    [
        ({"length_main_final": "0"}, "length_main_final", "greater than or equal to 1"),
        ({"length_consolation_semi": "100"}, "length_consolation_semi", "less than or equal"),
        ({"consolation_from": "first"}, "consolation_from", "numbers separated by commas"),
        ({"consolation_from": "0"}, "consolation_from", "counted from 1"),
        ({"last_chance_from": "1"}, "last_chance_from", "add a consolation first"),
        ({"feed_orders": "sideways"}, "feed_orders", "is not a drop-in order"),
        ({"prize_order": "main, bronze"}, "prize_order", ""),
        ({"starts_on": "2026-12-05", "ends_on": "2026-12-04"}, "ends_on", "ends before it starts"),
        ({"name": "  "}, "name", ""),
        ({"format": "knockout"}, "format", "not one of the available choices"),
        ({"length": "abc"}, "length", "Enter a whole number"),
    ],
)
def test_bad_input_is_told_next_to_its_field_and_nothing_is_written(
    desk, club, posted, field, words
):
    data = {"name": "Bad", "format": "single_elimination", "length": "5", **posted}
    response = desk.post(url(club), data)
    html = response.content.decode()
    assert response.status_code == 400
    assert not Tournament.objects.exists()
    assert "Nothing was created." in html
    error = field_error(html, field)
    assert error, f"no error next to {field}"
    assert words in error


@pytest.mark.parametrize(
    ("posted", "field", "words"),
    [
        ({"swiss_rounds": "", "max_losses": ""}, "swiss_rounds", "number of rounds"),
        ({"tie_break_1": "buchholz", "tie_break_2": "buchholz"}, "tie_break_1", "listed twice"),
        ({"length_swiss_2": "-3"}, "length_swiss_2", "greater than or equal to 1"),
    ],
)
def test_swiss_rules_are_told_next_to_their_field(desk, club, posted, field, words):
    data = {"name": "Bad Swiss", "format": "swiss", "swiss_rounds": "5", **posted}
    response = desk.post(url(club), data)
    assert response.status_code == 400
    assert not Tournament.objects.exists()
    assert words in field_error(response.content.decode(), field)


def test_a_refused_event_keeps_what_was_typed(desk, club):
    html = desk.post(
        url(club),
        {"name": "Keep Me", "format": "single_elimination", "length_main_final": "0"},
    ).content.decode()
    assert 'value="Keep Me"' in html
    assert '<option value="single_elimination" selected>' in html


def test_the_preview_says_which_consolation_round_feeds_the_last_chance(desk, club):
    html = preview(
        desk,
        club,
        {
            "format": "single_elimination",
            "consolation_from": "1, 2",
            "last_chance_from": "1",
            "preview_entries": "24",
            "length": "3",
            "length_main_final": "7",
        },
    )
    assert not Tournament.objects.exists()  # a preview writes nothing
    assert "With 24 players" in html
    assert "The last chance takes the losers of consolation round 2." in html
    assert "Asked: round 1;" in html
    rows = dict(re.findall(r"<tr><td>([^<]+)</td><td>.*?</td><td>(\d+)</td></tr>", html))
    assert rows["Final"] == "7" and rows["Round 1"] == "3"
    assert rows["Last chance final"] == "3"
    assert "Nothing was created." not in html  # no name needed for a preview


def test_the_preview_by_htmx_is_only_the_preview(desk, club):
    html = preview(
        desk, club, {"format": "swiss", "swiss_rounds": "3", "length_swiss_last": "7"}, htmx=True
    )
    assert html.lstrip().startswith('<div id="preview"')
    rows = re.findall(r"<tr><td>(Round \d)</td><td>.*?</td><td>(\d+)</td></tr>", html)
    assert rows == [("Round 1", "5"), ("Round 2", "5"), ("Round 3", "7")]


def test_the_preview_says_when_the_players_are_too_few_for_the_last_chance(desk, club):
    html = preview(
        desk,
        club,
        {
            "format": "single_elimination",
            "consolation_from": "1",
            "last_chance_from": "1",
            "preview_entries": "4",
        },
    )
    assert "Not possible with these players" in html
    assert "fewer than two players" in html


def test_the_preview_names_a_wrong_field_instead_of_guessing(desk, club):
    html = preview(
        desk,
        club,
        {"format": "single_elimination", "consolation_from": "one", "preview_entries": "8"},
        htmx=True,
    )
    assert "No preview:" in html and "numbers separated by commas" in html
    assert "With 8 players" not in html
