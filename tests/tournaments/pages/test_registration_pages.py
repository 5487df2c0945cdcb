"""The director's player and registration pages, through Django's test client:
walk-ins (club page and dashboard), bulk registration (preview, then confirm),
unregister / withdraw / forfeit / finish behind a confirmation, and editing a player.
Every refusal comes back next to its field with nothing written."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Player
from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tournaments.models import Entry, Tournament
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def web(director) -> Client:
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def night(club, director) -> Tournament:
    return event_services.create_tournament(
        actor=actor_for_user(director),
        club=club,
        name="Thursday",
        format="single_elimination",
        seeding="manual",
    )


def enter(night, director, club, *names: str) -> list[Entry]:
    actor = actor_for_user(director)
    return [
        entry_services.register_entry(
            actor=actor,
            tournament_id=night.pk,
            player_id=club_services.create_player(display_name=n, clubs=[club]).pk,
        )
        for n in names
    ]


def html(response) -> str:
    return response.content.decode()


# --- walk-ins -------------------------------------------------------------------------


def test_director_adds_a_walk_in_from_the_club_page(web, club):
    page = html(web.get(f"/clubs/{club.slug}/"))
    assert "Add a player" in page and 'name="display_name"' in page
    response = web.post(
        f"/clubs/{club.slug}/players/add/",
        {"display_name": "Wanda", "email": "wanda@example.org", "rating": "1650"},
    )
    assert response.status_code == 302
    wanda = Player.objects.get(display_name="Wanda")
    assert wanda.clubs.filter(pk=club.pk).exists() and wanda.declared_rating == 1650


def test_bad_walk_in_shows_the_rule_next_to_the_field(web, club):
    response = web.post(
        f"/clubs/{club.slug}/players/add/",
        {"display_name": "Xavi", "email": "xavi@", "rating": "0"},
    )
    assert response.status_code == 200
    page = html(response)
    assert 'id="id_email-error"' in page and "That is not an e-mail address" in page
    assert 'id="id_rating-error"' in page and "at least 1" in page
    assert not Player.objects.exists()


def test_a_walk_in_with_a_members_name_is_refused_at_the_name(web, club):
    club_services.create_player(display_name="Ann Smith", clubs=[club])
    response = web.post(f"/clubs/{club.slug}/players/add/", {"display_name": "ann smith"})
    assert 'id="id_display_name-error"' in html(response)
    assert "already has a player called Ann Smith" in html(response)
    assert Player.objects.count() == 1


def test_members_neither_see_nor_use_the_walk_in_form(club, make_user):
    visitor = Client()
    visitor.force_login(make_user("visitor"))
    assert "Add a player" not in html(visitor.get(f"/clubs/{club.slug}/"))
    response = visitor.post(f"/clubs/{club.slug}/players/add/", {"display_name": "Nope"})
    assert response.status_code == 404 and not Player.objects.exists()


def test_dashboard_walk_in_joins_the_club_and_is_entered(web, night, club):
    response = web.post(
        f"/tournaments/{night.slug}/director/walk-in/", {"walkin-display_name": "Wal Kin"}
    )
    assert response.status_code == 302
    entry = Entry.objects.get(tournament=night)
    assert entry.player.display_name == "Wal Kin"
    assert entry.player.clubs.filter(pk=club.pk).exists()
    response = web.post(
        f"/tournaments/{night.slug}/director/walk-in/",
        {"walkin-display_name": "Other", "walkin-rating": "abc"},
    )
    assert "A rating is a whole number" in html(response)
    assert Entry.objects.filter(tournament=night).count() == 1


# --- bulk registration ------------------------------------------------------------------


def test_bulk_preview_writes_nothing_then_confirm_writes_all(web, night, club):
    ann = club_services.create_player(display_name="Ann Smith", clubs=[club])
    url = f"/tournaments/{night.slug}/director/register-players/"
    response = web.post(url, {"names": "ann smith\nNew Person\n\nnew person"})
    page = html(response)
    assert response.status_code == 200 and "Nothing is saved yet" in page
    assert "new player" in page and "listed twice" in page
    assert not Entry.objects.exists() and Player.objects.count() == 1
    assert "Register 2 players" in page
    response = web.post(url, {"names": "ann smith\nNew Person\n\nnew person", "confirm": "1"})
    assert response.status_code == 302
    entered = set(Entry.objects.filter(tournament=night).values_list("player_id", flat=True))
    assert ann.pk in entered and len(entered) == 2


def test_ambiguous_name_needs_a_pick_and_nothing_is_half_written(web, night, club):
    first = club_services.create_player(display_name="Bob Jones", clubs=[club])
    club_services.create_player(display_name="Bob Jones", clubs=[club])
    url = f"/tournaments/{night.slug}/director/register-players/"
    body = {"names": "Fresh Face\nBob Jones", "confirm": "1"}
    response = web.post(url, body)
    page = html(response)
    assert response.status_code == 200 and "Nothing was registered." in page
    assert 'name="pick_1"' in page and "pick one" in page
    assert not Entry.objects.exists() and not Player.objects.filter(display_name="Fresh Face")
    response = web.post(url, {**body, "pick_1": str(first.pk)})
    assert response.status_code == 302
    names = set(Entry.objects.values_list("player__display_name", flat=True))
    assert names == {"Fresh Face", "Bob Jones"}
    assert Entry.objects.filter(player=first).exists()


def test_roster_checklist_registers_and_disappears_when_everyone_is_in(web, night, club):
    members = [club_services.create_player(display_name=n, clubs=[club]) for n in ("A1", "B2")]
    dashboard = f"/tournaments/{night.slug}/director/"
    assert "Or tick club members" in html(web.get(dashboard))
    response = web.post(
        f"/tournaments/{night.slug}/director/register-players/",
        {"players": [str(m.pk) for m in members], "confirm": "1"},
    )
    assert response.status_code == 302 and Entry.objects.count() == 2
    page = html(web.get(dashboard))
    assert "Or tick club members" not in page
    assert "Register players" in page and "Add a walk-in" in page


def test_an_empty_bulk_form_says_what_to_do(web, night):
    response = web.post(f"/tournaments/{night.slug}/director/register-players/", {"names": " \n"})
    assert "Type at least one name or tick a member." in html(response)


# --- confirmations --------------------------------------------------------------------


def test_the_confirmation_asks_in_the_pages_language(web, night, director, club):
    entry, _ = enter(night, director, club, "Una", "Dos")
    url = f"/tournaments/{night.slug}/director/unregister/"
    page = html(web.post(url, {"entry": entry.pk}, HTTP_ACCEPT_LANGUAGE="de"))
    assert "Una von Thursday abmelden?" in page
    assert "Ja, Una abmelden" in page and "Take Una off" not in page
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_unregister_asks_first_then_takes_the_entry_off(web, night, director, club):
    entry, _ = enter(night, director, club, "Una", "Dos")
    url = f"/tournaments/{night.slug}/director/unregister/"
    response = web.post(url, {"entry": entry.pk})
    assert response.status_code == 200
    assert "Take Una off Thursday?" in html(response) and 'name="confirm" value="1"' in html(
        response
    )
    assert f'action="{url}"' in html(response)  # the yes posts back to the same action
    assert Entry.objects.filter(pk=entry.pk).exists()
    assert web.post(url, {"entry": entry.pk, "confirm": "1"}).status_code == 302
    assert not Entry.objects.filter(pk=entry.pk).exists()
    # The audit trail says who took the entry off, as it does for the API.
    removal = Entry.history.get(id=entry.pk, history_type="-")
    assert removal.history_user_id == director.pk


def test_withdraw_with_no_player_chosen_says_so(web, night, director, club):
    enter(night, director, club, "C1", "C2")
    entry_services.start_tournament(actor=actor_for_user(director), tournament_id=night.pk)
    response = web.post(f"/tournaments/{night.slug}/director/withdraw/", {"entry": ""}, follow=True)
    assert "Choose a player to withdraw." in html(response)
    assert not Entry.objects.filter(status="withdrawn").exists()


def test_after_the_draw_rows_offer_withdraw_and_unregister_is_refused(web, night, director, club):
    entries = enter(night, director, club, "W1", "W2", "W3", "W4")
    entry_services.start_tournament(actor=actor_for_user(director), tournament_id=night.pk)
    base = f"/tournaments/{night.slug}/director/"
    page = html(web.get(base))
    assert 'aria-label="Withdraw W1"' in page and "Unregister W1" not in page
    assert '<option value="">Choose a player…</option>' in page
    response = web.post(f"{base}unregister/", {"entry": entries[0].pk, "confirm": "1"}, follow=True)
    assert "withdraw them instead" in html(response)
    assert Entry.objects.filter(pk=entries[0].pk).exists()
    response = web.post(f"{base}withdraw/", {"entry": entries[0].pk})
    assert "Withdraw W1 from Thursday?" in html(response)
    assert Entry.objects.get(pk=entries[0].pk).status == "active"
    web.post(f"{base}withdraw/", {"entry": entries[0].pk, "confirm": "1"})
    assert Entry.objects.get(pk=entries[0].pk).status == "withdrawn"


def test_forfeit_and_finish_do_nothing_without_confirm(web, night, director, club):
    enter(night, director, club, "F1", "F2")
    entry_services.start_tournament(actor=actor_for_user(director), tournament_id=night.pk)
    pairing = night.pairings.get(status="ready")
    base = f"/tournaments/{night.slug}/director/"
    response = web.post(f"{base}forfeit/", {"pairing": pairing.key, "winner": pairing.entry1_id})
    assert "by forfeit?" in html(response)
    pairing.refresh_from_db()
    assert pairing.winner_id is None
    response = web.post(f"{base}finish/")
    assert "Finish Thursday?" in html(response)
    night.refresh_from_db()
    assert night.status == "running"


def test_a_non_director_gets_no_confirmation_page(night, make_user, director, club):
    (entry,) = enter(night, director, club, "Solo")
    visitor = Client()
    visitor.force_login(make_user("visitor"))
    response = visitor.post(f"/tournaments/{night.slug}/director/unregister/", {"entry": entry.pk})
    assert response.status_code == 302 and Entry.objects.filter(pk=entry.pk).exists()


# --- editing a player -----------------------------------------------------------------


def test_director_edits_name_email_and_clubs(web, club, director):
    third = club_services.create_club(created_by=director, name="Third", slug="third")
    player = club_services.create_player(display_name="Pat", clubs=[club])
    url = f"/players/{player.slug}/edit/"
    page = html(web.get(url))
    assert 'value="Pat"' in page and "Third" in page
    response = web.post(url, {"display_name": "Pat Q", "email": "bad", "clubs": [club.pk]})
    assert "That is not an e-mail address" in html(response)
    player.refresh_from_db()
    assert player.display_name == "Pat"
    response = web.post(url, {"display_name": "", "email": "", "clubs": []})
    assert "A player needs a name." in html(response)
    response = web.post(url, {"display_name": "Pat", "email": "", "clubs": []})
    assert "A player stays in at least one club" in html(response)
    assert player.clubs.count() == 1
    response = web.post(
        url, {"display_name": "Pat Q", "email": "pat@example.org", "clubs": [third.pk]}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.display_name, player.email) == ("Pat Q", "pat@example.org")
    assert list(player.clubs.values_list("slug", flat=True)) == ["third"]


def test_only_directors_of_the_players_clubs_edit_them(club, make_user):
    player = club_services.create_player(display_name="Pat", clubs=[club])
    visitor = Client()
    visitor.force_login(make_user("visitor"))
    assert visitor.get(f"/players/{player.slug}/edit/").status_code == 404
    assert visitor.post(f"/players/{player.slug}/edit/", {"display_name": "X"}).status_code == 404
    player.refresh_from_db()
    assert player.display_name == "Pat"


def test_the_bulk_form_takes_1024_lines_and_refuses_more(web, night):
    url = f"/tournaments/{night.slug}/director/register-players/"
    names = "\n".join(f"Player {i:04d}" for i in range(1024))
    response = web.post(url, {"names": names + "\nOne Too Many"})
    assert "At most 1024 lines at a time" in html(response)
    assert not Entry.objects.exists()
    response = web.post(url, {"names": names, "confirm": "1"})
    assert response.status_code == 302
    assert Entry.objects.filter(tournament=night).count() == 1024


def test_a_walk_in_beyond_the_capacity_is_told_they_wait(web, night, director):
    """A full capped field: the walk-in goes on the waitlist and the page says so (not
    "is entered"); a list says how many of its names wait."""
    event_services.configure_tournament(
        actor=actor_for_user(director), tournament_id=night.pk, capacity=2
    )
    url = f"/tournaments/{night.slug}/director/walk-in/"
    for name in ("Ann One", "Ben Two"):
        assert f"{name} is entered." in html(
            web.post(url, {"walkin-display_name": name}, follow=True)
        )
    page = html(web.post(url, {"walkin-display_name": "Cy Three"}, follow=True))
    assert "Cy Three is on the waitlist (place 1): the field of 2 is full." in page
    assert Entry.objects.get(player__display_name="Cy Three").status == "waitlisted"
    done = web.post(
        f"/tournaments/{night.slug}/director/register-players/",
        {"names": "Di Four\nEd Five", "confirm": "1"},
        follow=True,
    )
    # who waits, by name and place (issue 41: "2 wait" did not say who)
    assert (
        "Entered 2 players. 2 of them are new to the club. Di Four (place 2), Ed Five "
        "(place 3) wait on the waitlist: the field is full." in html(done)
    )
