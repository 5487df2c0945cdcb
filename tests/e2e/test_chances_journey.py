"""Winning chances in the browser: a player's phone says "you are N% to win from 2-0"
after a game, and a spectator's match page follows by itself within seconds."""

from __future__ import annotations

import pytest

from games.met_tables import load_table
from games.templatetags.chances_tags import percent_text
from tests.factories import RatingFactory, RatingListFactory

from .conftest import LAPTOP

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NARROW_PHONE = {"width": 360, "height": 780}


def test_the_phone_and_the_spectators_page_show_the_chances(
    page_for, login, make_match, alice, bob
):
    match = make_match(5)
    spectator = page_for(LAPTOP, name="chances-match-page-1366")
    spectator.goto(f"/matches/{match.pk}/")
    spectator.get_by_text("Alice 50% · Bob 50% to win this 5-point match.").wait_for()

    phone = page_for(NARROW_PHONE, name="chances-entry-phone-360")
    login(phone, "alice")
    phone.goto(f"/matches/{match.pk}/enter/")
    phone.get_by_role("group", name="Who won?").get_by_role(
        "radio", name="You (Alice)", exact=True
    ).check()
    phone.get_by_role("group", name="Won by").get_by_role(
        "radio", name="Gammon", exact=True
    ).check()
    phone.get_by_role("button", name="Record game 1").click()
    phone.get_by_text("Game 1 recorded.").wait_for()
    mine = percent_text(load_table("Kazaross-XG2").win_chance(3, 5))
    phone.get_by_text(f"You are {mine} to win from 2–0.").wait_for()
    bar = phone.locator(".chances-bar").bounding_box()
    assert bar is not None and bar["width"] <= 360

    # The spectator did not reload: the polled head brings the new score and chances.
    spectator.get_by_text(f"Alice {mine} ·").wait_for(timeout=20_000)


def test_the_big_screen_draws_each_matchs_chances(page_for, club, director):
    from games.services import clubs as club_services
    from games.services import score_entry
    from games.services.actors import actor_for_user
    from games.services.match_records import GameInput
    from tournaments.models import Pairing
    from tournaments.services import entries as entry_services
    from tournaments.services import events as event_services

    actor = actor_for_user(director)
    event = event_services.create_tournament(
        actor=actor,
        club=club,
        name="Chances night",
        format="single_elimination",
        seeding="manual",
        match_lengths={"default": 7},
    )
    rating_list = RatingListFactory.create(club=club)
    for i, name in enumerate(["Ann", "Ben", "Cas", "Dee", "Eve", "Fox", "Gil", "Hal"]):
        player = club_services.create_player(display_name=name, clubs=[club])
        RatingFactory.create(rating_list=rating_list, player=player, rating=1700.0 - 40 * i)
        entry_services.register_entry(actor=actor, tournament_id=event.pk, player_id=player.pk)
    entry_services.start_tournament(actor=actor, tournament_id=event.pk)
    first = Pairing.objects.filter(tournament=event).exclude(match=None).order_by("pk").first()
    score_entry.record_game(
        actor=actor, match_id=first.match_id, game=GameInput(winner_id=first.match.player2_id)
    )
    for viewport, name in (({"width": 1366, "height": 900}, "1366"), (NARROW_PHONE, "360")):
        screen = page_for(viewport, name=f"chances-big-screen-{name}")
        screen.goto(f"/tournaments/{event.slug}/screen/")
        screen.locator(".chances-mini").first.wait_for()
        assert screen.locator(".chances-mini").count() == 4
