"""Walk-ins, bulk registration, unregistering and player edits: the services that the
director's pages and the API share."""

from __future__ import annotations

import pytest

from games.models import Club, Membership, Player
from games.rules.errors import ConflictError, NotAllowed, RuleViolation
from games.rules.names import name_key
from games.services import clubs as club_services
from games.services.actors import actor_for_user
from tournaments.models import Entry
from tournaments.selectors import ratings_for_seeding
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services
from tournaments.services import registration
from tournaments.services.registration import LineAction

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, actor):
    return event_services.create_tournament(
        actor=actor, club=club, name="Thursday", format="single_elimination", seeding="manual"
    )


def member(club, name: str) -> Player:
    return club_services.create_player(display_name=name, clubs=[club])


def test_name_key_ignores_case_accents_and_spaces():
    assert name_key("  Ann   Smíth ") == name_key("ann smith") == "ann smith"
    assert name_key("Ann Smith") != name_key("Anne Smith")


def test_walk_in_is_a_player_and_a_member_in_one_step(club, actor):
    player = club_services.add_walk_in(
        club=club, display_name=" Zoë  Ng ", email="zoe@example.org", rating=1620, by=actor
    )
    assert player.display_name == "Zoë Ng"
    assert player.email == "zoe@example.org" and player.declared_rating == 1620
    assert Membership.objects.filter(club=club, player=player).exists()
    # Seeding reads the declared rating until the player is rated on the list.
    assert ratings_for_seeding(club, [player])[player.pk] == 1620.0


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"display_name": "  "}, "display_name_blank", "display_name"),
        ({"display_name": "x" * 81}, "display_name_too_long", "display_name"),
        ({"display_name": "Zed", "email": "not-an-address"}, "email_invalid", "email"),
        ({"display_name": "Zed", "rating": 0}, "rating_out_of_range", "rating"),
    ],
)
def test_bad_walk_in_names_the_field_and_writes_nothing(club, actor, fields, code, field):
    with pytest.raises(RuleViolation) as caught:
        club_services.add_walk_in(club=club, by=actor, **fields)
    assert (caught.value.code, caught.value.field) == (code, field)
    assert not Player.objects.exists()


def test_walk_in_with_a_name_the_club_has_is_refused(club, actor):
    member(club, "Ann Smith")
    with pytest.raises(ConflictError) as caught:
        club_services.add_walk_in(club=club, display_name="ANN SMÍTH", by=actor)
    assert caught.value.code == "name_in_club"
    assert Player.objects.count() == 1


def test_only_the_clubs_directors_add_walk_ins(club, make_user):
    other = actor_for_user(make_user("stranger"))
    with pytest.raises(NotAllowed):
        club_services.add_walk_in(club=club, display_name="Zed", by=other)
    assert not Player.objects.exists()


def test_bulk_preview_matches_creates_and_flags_without_writing(club, actor, night):
    ann = member(club, "Ann Smith")
    member(club, "Bob Jones")
    member(club, "Bob  Jones")  # a namesake: the second Bob
    cy = member(club, "Cy Young")
    entry_services.register_entry(actor=actor, tournament_id=night.pk, player_id=cy.pk)
    names = ["ann smith", "", "Bob Jones", "Cy Young", "New Person", "new person", "ANN SMITH"]
    result = registration.register_many(
        actor=actor, tournament_id=night.pk, names=names, dry_run=True
    )
    actions = [(line.index, line.action) for line in result.lines]
    assert actions == [
        (0, LineAction.REGISTER),
        (2, LineAction.AMBIGUOUS),
        (3, LineAction.ALREADY_ENTERED),
        (4, LineAction.CREATE),
        (5, LineAction.DUPLICATE),
        (6, LineAction.DUPLICATE),
    ]
    assert result.lines[0].player_id == ann.pk
    assert len(result.lines[1].candidates) == 2
    assert Player.objects.count() == 4 and Entry.objects.count() == 1


def test_bulk_write_is_all_or_nothing(club, actor, night):
    member(club, "Bob Jones")
    member(club, "Bob Jones")
    with pytest.raises(RuleViolation) as caught:
        registration.register_many(
            actor=actor, tournament_id=night.pk, names=["New One", "Bob Jones", "New Two"]
        )
    assert caught.value.code == "ambiguous_name" and caught.value.field == "names[1]"
    assert Player.objects.count() == 2 and not Entry.objects.exists()


def test_bulk_write_enters_everyone_and_picks_resolve_ambiguity(club, actor, night):
    first = member(club, "Bob Jones")
    member(club, "Bob Jones")
    result = registration.register_many(
        actor=actor,
        tournament_id=night.pk,
        names=["Dee", "Éva Kiss", "Dee"],
        player_ids=[first.pk],
    )
    entered = set(
        Entry.objects.filter(tournament=night).values_list("player__display_name", flat=True)
    )
    assert entered == {"Bob Jones", "Dee", "Éva Kiss"}
    assert len(result.entries) == 3
    assert Player.objects.get(display_name="Éva Kiss").clubs.filter(pk=club.pk).exists()


def test_a_refused_late_entry_rolls_back_the_new_players(club, actor, night):
    for name in ("A", "B", "C", "D"):
        entry_services.register_entry(
            actor=actor, tournament_id=night.pk, player_id=member(club, name).pk
        )
    entry_services.start_tournament(actor=actor, tournament_id=night.pk)
    before = Player.objects.count()
    with pytest.raises(ConflictError) as caught:
        registration.register_many(actor=actor, tournament_id=night.pk, names=["Late One"])
    assert caught.value.field == "names[0]"
    assert Player.objects.count() == before


def test_enter_walk_in_adds_and_registers_both_or_neither(club, actor, night):
    entry = registration.enter_walk_in(actor=actor, tournament_id=night.pk, display_name="Wal K")
    assert entry.player.clubs.filter(pk=club.pk).exists()
    with pytest.raises(RuleViolation):
        registration.enter_walk_in(
            actor=actor, tournament_id=night.pk, display_name="Other", email="bad"
        )
    assert not Player.objects.filter(display_name="Other").exists()


def test_unregister_before_the_draw_and_refused_after(club, actor, night):
    players = [member(club, n) for n in ("A", "B", "C")]
    entries = [
        entry_services.register_entry(actor=actor, tournament_id=night.pk, player_id=p.pk)
        for p in players
    ]
    registration.unregister_entry(actor=actor, tournament_id=night.pk, entry_id=entries[0].pk)
    assert not Entry.objects.filter(pk=entries[0].pk).exists()
    assert Membership.objects.filter(player=players[0], club=club).exists()
    entry_services.start_tournament(actor=actor, tournament_id=night.pk)
    with pytest.raises(ConflictError) as caught:
        registration.unregister_entry(actor=actor, tournament_id=night.pk, entry_id=entries[1].pk)
    assert caught.value.code == "entry_drawn"
    assert Entry.objects.filter(pk=entries[1].pk).exists()


def test_director_edits_name_email_and_only_their_clubs(club, actor, director, make_user):
    """Tenancy: a player who is also in a club the director does not direct is the
    person's to rename or re-address (403 ``person_not_yours``), and joins another club
    only with their consent (403 ``consent_required``); the director still takes them
    out of their own club. A walk-in of the director's club alone is still kept."""
    other_director = make_user("other")
    other = club_services.create_club(created_by=other_director, name="Other", slug="other")
    third = club_services.create_club(created_by=director, name="Third", slug="third")
    player = club_services.create_player(display_name="Pat", clubs=[club, other])
    with pytest.raises(NotAllowed) as refused:
        club_services.update_player(
            player=player, display_name="Pat Q", email="pat@example.org", by=actor
        )
    assert (refused.value.code, refused.value.field) == ("person_not_yours", "display_name")
    with pytest.raises(NotAllowed) as refused:
        club_services.update_player(player=player, clubs=[third], by=actor)
    assert refused.value.code == "consent_required"
    player.refresh_from_db()
    assert (player.display_name, player.email) == ("Pat", "")
    assert set(player.clubs.values_list("slug", flat=True)) == {"test-club", "other"}
    club_services.update_player(player=player, display_name="Pat", clubs=[], by=actor)
    assert set(player.clubs.values_list("slug", flat=True)) == {"other"}
    with pytest.raises(NotAllowed):
        club_services.update_player(
            player=player,
            clubs=[
                third,
                club,
                Club.objects.get(slug="other"),
                club_services.create_club(created_by=other_director, name="Fourth", slug="fourth"),
            ],
            by=actor,
        )
    kept = club_services.create_player(display_name="Kim", clubs=[club])
    club_services.update_player(
        player=kept, display_name="Kim Q", email="kim@example.org", clubs=[third], by=actor
    )
    kept.refresh_from_db()
    assert (kept.display_name, kept.email) == ("Kim Q", "kim@example.org")
    assert set(kept.clubs.values_list("slug", flat=True)) == {"third"}
    lone = club_services.create_player(display_name="Lone", clubs=[club])
    with pytest.raises(RuleViolation) as caught:
        club_services.update_player(player=lone, clubs=[], by=actor)
    assert caught.value.code == "clubs_empty"
    assert lone.clubs.count() == 1
