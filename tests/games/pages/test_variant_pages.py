"""The pages follow a match's variant (issue #28): the entry page offers only what the
variant scores, a tavli score sheet names each game's variant (portes, plakoto, fevga in
turn), chances without a match equity table say they come from the rating formula, the
analysis page says no engine analyses a variant gnubg does not play, and the rules of
each variant are a page with its start drawn."""

from __future__ import annotations

import pytest

from analysis import services as analysis_services
from analysis.engine_databases import missing_database
from games.rules.errors import RuleViolation

pytestmark = pytest.mark.django_db


def test_the_entry_page_offers_only_the_variants_levels_and_no_cube(client, director, make_match):
    match = make_match(5, variant="tavli")
    client.force_login(director)
    html = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert 'value="gammon"' in html and 'value="backgammon"' not in html
    assert 'name="cube"' not in html and 'name="cube_owner"' not in html
    assert 'value="dropped"' not in html
    standard = make_match(5)
    html = client.get(f"/matches/{standard.pk}/enter/").content.decode()
    assert 'value="backgammon"' in html and 'value="dropped"' in html


def test_a_game_entered_without_a_cube_is_recorded_at_one(client, director, make_match, alice):
    match = make_match(5, variant="acey-deucey")
    client.force_login(director)
    posted = client.post(
        f"/matches/{match.pk}/enter/",
        {"action": "game", "number": 1, "winner": alice.pk, "ending": "played", "level": "gammon"},
    )
    assert posted.status_code == 302, posted.content.decode()[:3000]
    game = match.games.get()
    assert (game.cube, game.level, game.points) == (1, "gammon", 2)


def test_the_tavli_score_sheet_names_each_games_variant(client, director, make_match, alice, bob):
    match = make_match(7, variant="tavli")
    client.force_login(director)
    for number, winner in enumerate((alice, bob, alice, bob), start=1):
        client.post(
            f"/matches/{match.pk}/enter/",
            {
                "action": "game",
                "number": number,
                "winner": winner.pk,
                "ending": "played",
                "level": "single",
            },
        )
    html = client.get(f"/matches/{match.pk}/").content.decode()
    played = [part.split("<")[0] for part in html.split('data-role="game-variant">')[1:]]
    assert played == ["Portes (tavli)", "Plakoto (tavli)", "Fevga (tavli)", "Portes (tavli)"]
    assert 'data-role="variant-rules"' in html  # the rules of this variant, linked


def test_chances_of_a_variant_without_a_table_say_so(client, director, make_match, alice):
    tavla = make_match(5, variant="tavla")
    nack = make_match(5, variant="nackgammon")
    client.force_login(director)
    for match in (tavla, nack):
        client.post(
            f"/matches/{match.pk}/enter/",
            {
                "action": "game",
                "number": 1,
                "winner": alice.pk,
                "ending": "played",
                "level": "single",
                "cube": 1,
                "cube_owner": "centre",
            },
        )
    assert 'data-role="no-table"' in client.get(f"/matches/{tavla.pk}/").content.decode()
    assert 'data-role="no-table"' not in client.get(f"/matches/{nack.pk}/").content.decode()


def test_no_engine_analyses_acey_deucey(client, director, make_match):
    match = make_match(3, variant="acey-deucey")
    match.transcript = " 3 point match\n"
    match.save(update_fields=["transcript"])
    client.force_login(director)
    html = client.get(f"/matches/{match.pk}/analysis/").content.decode()
    assert 'data-role="no-engine"' in html
    with pytest.raises(RuleViolation) as refused:
        analysis_services.request_analysis(user=director, match=match)
    assert refused.value.code == "variant_not_analysed"
    assert analysis_services.analysable(make_match(3, variant="nackgammon"))
    hyper = make_match(3, variant="hypergammon-2")
    assert analysis_services.engine_plays(hyper)  # analysed where gnubg has hyper2.bd
    assert analysis_services.analysable(hyper) == (missing_database("hypergammon-2") is None)
    assert not analysis_services.analysable(make_match(3, variant="tavli"))


@pytest.mark.parametrize("key", ["acey-deucey", "fevga", "hypergammon-1", "russian"])
def test_the_rules_page_draws_the_start_and_a_worked_turn(client, key):
    page = client.get(f"/variants/{key}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="decision-board"') == 2
    assert "legal play(s)" in html


def test_the_tavli_rules_page_shows_the_three_games(client):
    html = client.get("/variants/tavli/").content.decode()
    assert [key in html for key in ("rules-portes", "rules-plakoto", "rules-fevga")] == [True] * 3
    assert client.get("/variants/chess/").status_code == 404


def test_the_variants_page_lists_each_variant_with_its_rules_and_plays(client):
    """Issue 41: ``/variants/`` answered 404, though every rules page lives under it."""
    page = client.get("/variants/")
    assert page.status_code == 200
    html = page.content.decode()
    for key in ("standard", "russian", "acey-deucey", "tavli"):
        assert f'data-variant="{key}"' in html
        assert f'href="/variants/{key}/"' in html
    assert ">/api/v1/variants/russian/plays/</code>" in html
    assert ">/api/v1/variants/plakoto/plays/</code>" in html  # tavli's games


def test_the_russian_page_says_complementary_doublets_must_be_played(client):
    """Cady 1895: the player is "not only entitled to, but bound to use" them; the page
    said "may" (issue 41). Turkish keeps them a house option."""
    russian = client.get("/variants/russian/").content.decode()
    assert "must then be followed by the complementary doublets" in russian
    assert "first doublets of the game: they are played alone" in russian
    assert "may be followed" not in russian
    turkish = client.get("/variants/turkish/").content.decode()
    assert "Complementary doublets only by agreement" in turkish


def test_acey_deucey_chances_do_not_claim_to_follow_the_score(
    client, director, make_match, alice, bob
):
    """Issue 41: "You are 51% to win from 4-2" beside "the score is not counted": the
    number is the chance before the first game (no table covers the variant)."""
    match = make_match(7, variant="acey-deucey")
    client.force_login(director)
    for number, winner in enumerate((alice, alice, bob, alice), start=1):
        level = "gammon" if number == 1 else "single"
        client.post(
            f"/matches/{match.pk}/enter/",
            {
                "action": "game",
                "number": number,
                "winner": winner.pk,
                "ending": "played",
                "level": level,
            },
        )
    html = client.get(f"/matches/{match.pk}/").content.decode()
    words = html.split('<p class="chances-words">')[1].split("</p>")[0]
    assert "Before the first game:" in words and "this 7-point match" in words
    assert "from 4–1" not in words
    assert "the score so far (4–1) is not counted" in html
