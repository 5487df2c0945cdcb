"""Bulk registration, walk-ins, unregistering and player edits through the API."""

from __future__ import annotations

import pytest

from games.models import Player
from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tournaments.models import Entry
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, director):
    return event_services.create_tournament(
        actor=actor_for_user(director),
        club=club,
        name="Thursday",
        format="single_elimination",
        seeding="manual",
    )


def bulk(client, night, **body):
    return client.post(f"/api/v1/tournaments/{night.slug}/entries/bulk/", body, format="json")


def test_bulk_dry_run_previews_and_writes_nothing(client_for, director, club, night):
    club_services.create_player(display_name="Ann Smith", clubs=[club])
    response = bulk(client_for(director), night, names=["ann smith", "Newbie"], dry_run=True)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["dry_run"], body["to_register"], body["to_create"]) == (True, 1, 1)
    assert [line["action"] for line in body["lines"]] == ["register", "create"]
    assert Player.objects.count() == 1 and not Entry.objects.exists()


def test_bulk_write_enters_everyone(client_for, director, club, night):
    response = bulk(client_for(director), night, names=["One", "Two", "Three"])
    assert response.status_code == 201, response.json()
    assert len(response.json()["entries"]) == 3
    assert Entry.objects.filter(tournament=night).count() == 3


def test_bulk_write_with_an_ambiguous_name_writes_nothing(client_for, director, club, night):
    for _ in range(2):
        club_services.create_player(display_name="Bob Jones", clubs=[club])
    response = bulk(client_for(director), night, names=["New One", "bob jones"])
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["field"]) == ("ambiguous_name", "names[1]")
    assert "pick one" in body["detail"]
    assert Player.objects.count() == 2 and not Entry.objects.exists()


def test_bulk_write_with_a_too_long_name_writes_nothing(client_for, director, night):
    response = bulk(client_for(director), night, names=["Fine", "x" * 200])
    assert response.status_code == 400
    assert response.json()["field"] == "names[1]"
    assert not Player.objects.exists()


def test_bulk_needs_something_to_register(client_for, director, night):
    response = bulk(client_for(director), night, names=[])
    assert response.status_code == 400 and response.json()["field"] == "names"


@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_only_directors_register_in_bulk(client_for, make_user, night, who):
    user = None if who == "anonymous" else make_user("someone")
    response = bulk(client_for(user), night, names=["Sneaky"], dry_run=True)
    assert response.status_code == (401 if user is None else 403)
    assert not Player.objects.exists()


def test_walk_in_entry_and_club_walk_in(client_for, director, club, night):
    client = client_for(director)
    response = client.post(
        f"/api/v1/tournaments/{night.slug}/entries/walk-in/",
        {"display_name": "Wanda", "email": "wanda@example.org", "rating": 1700},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["player"]["display_name"] == "Wanda"
    response = client.post(
        f"/api/v1/clubs/{club.slug}/players/", {"display_name": "wanda"}, format="json"
    )
    assert response.status_code == 409 and response.json()["code"] == "name_in_club"
    response = client.post(
        f"/api/v1/clubs/{club.slug}/players/",
        {"display_name": "Xavi", "email": "nope"},
        format="json",
    )
    assert response.status_code == 400 and response.json()["field"] == "email"
    assert not Player.objects.filter(display_name="Xavi").exists()
    response = client.post(
        f"/api/v1/clubs/{club.slug}/players/", {"display_name": "Xavi"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["clubs"] == [club.slug]


def test_unregister_before_the_draw_then_refused_after(client_for, director, club, night):
    actor = actor_for_user(director)
    entries = [
        entry_services.register_entry(
            actor=actor,
            tournament_id=night.pk,
            player_id=club_services.create_player(display_name=n, clubs=[club]).pk,
        )
        for n in ("A", "B", "C")
    ]
    client = client_for(director)
    url = f"/api/v1/tournaments/{night.slug}/entries/{{}}/"
    assert client.delete(url.format(entries[0].pk)).status_code == 204
    assert not Entry.objects.filter(pk=entries[0].pk).exists()
    assert Entry.history.get(id=entries[0].pk, history_type="-").history_user_id == director.pk
    entry_services.start_tournament(actor=actor, tournament_id=night.pk)
    response = client.delete(url.format(entries[1].pk))
    assert response.status_code == 409
    assert response.json()["code"] == "entry_drawn"
    assert Entry.objects.filter(pk=entries[1].pk).exists()


def test_director_patches_email_and_clubs(client_for, director, club):
    third = club_services.create_club(created_by=director, name="Third", slug="third")
    player = club_services.create_player(display_name="Pat", clubs=[club])
    response = client_for(director).patch(
        f"/api/v1/players/{player.pk}/",
        {"email": "pat@example.org", "clubs": ["third"]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["email"] == "pat@example.org"
    assert response.json()["clubs"] == [third.slug]
    # The public read leaves the e-mail address out.
    assert "email" not in client_for(None).get(f"/api/v1/players/{player.pk}/").json()


# --- a championship's field in one request (issue 26) ------------------------------------


def _queries_for(client, night, names, django_assert_max_num_queries, limit):
    with django_assert_max_num_queries(limit) as captured:
        response = bulk(client, night, names=names)
    assert response.status_code == 201, response.json()
    return len(captured.captured_queries)


def test_bulk_write_takes_1024_names_in_a_fixed_number_of_queries(
    client_for, director, club, night, django_assert_max_num_queries
):
    """Before the draw the whole list is a few bulk inserts: entering 1,024 names costs
    no more statements than entering 3 (on SQLite, whose statements hold at most 999
    values, the inserts come in a few more batches)."""
    from django.db import connection

    ann = club_services.create_player(display_name="Ann Smith", clubs=[club])
    client = client_for(director)
    other = event_services.create_tournament(
        actor=actor_for_user(director), club=club, name="Warm-up", format="single_elimination"
    )
    few = _queries_for(
        client, other, ["Ann Smith", "Cy One", "Cy Two"], django_assert_max_num_queries, 60
    )
    names = ["Ann Smith", *(f"Player {i:04d}" for i in range(1, 1024))]
    many = _queries_for(client, night, names, django_assert_max_num_queries, 80)
    if connection.vendor == "postgresql":
        assert many == few
    entries = Entry.objects.filter(tournament=night)
    assert entries.count() == 1024
    assert entries.filter(player=ann).exists()
    created = Player.objects.filter(display_name__startswith="Player ")
    assert created.count() == 1023
    assert len(set(created.values_list("slug", flat=True))) == 1023
    assert all(p.clubs.filter(pk=club.pk).exists() for p in created[:5])
    assert created.first().history.count() == 1  # each new player has its audit row
    night.refresh_from_db()
    assert night.version == 2  # one bump for the whole list


def test_bulk_write_refuses_1025_names_naming_the_field(client_for, director, night):
    response = bulk(client_for(director), night, names=[f"P{i}" for i in range(1025)])
    assert response.status_code == 400
    assert response.json()["field"] == "names"
    assert not Entry.objects.exists()


def test_bulk_slugs_follow_the_ones_the_club_has(client_for, director, club, night):
    club_services.create_player(display_name="Dee Dee", clubs=[])  # slug dee-dee, not a member
    response = bulk(client_for(director), night, names=["Dee-Dee", "Eve"])
    assert response.status_code == 201, response.json()
    slugs = set(Entry.objects.filter(tournament=night).values_list("player__slug", flat=True))
    assert slugs == {"dee-dee-2", "eve"}


def test_bulk_write_fills_a_capped_field_then_the_waitlist(client_for, director, club):
    capped = event_services.create_tournament(
        actor=actor_for_user(director),
        club=club,
        name="Capped",
        format="single_elimination",
        capacity=4,
    )
    entry_services.register_entry(
        actor=actor_for_user(director),
        tournament_id=capped.pk,
        player_id=club_services.create_player(display_name="First", clubs=[club]).pk,
    )
    response = bulk(client_for(director), capped, names=[f"N{i}" for i in range(6)])
    assert response.status_code == 201, response.json()
    rows = list(
        Entry.objects.filter(tournament=capped)
        .order_by("pk")
        .values_list("status", "waitlist_position")
    )
    assert rows == [("active", None)] * 4 + [
        ("waitlisted", 1),
        ("waitlisted", 2),
        ("waitlisted", 3),
    ]
