"""One small club world with an object behind every path parameter of the service.

The permission matrix and the API fuzzers need real objects to aim at: a club with
its director, players with and without accounts, matches in the states the match
endpoints act on (in progress and awaiting a confirmation, disputed, another match
for a foreign score link), a started tournament, a chouette session with a game, and a
job. Everything is built through the services, as a club would build it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q

from chouette.records import GameInput as ChouetteGameInput
from chouette.records import MemberInput
from chouette.services import recording as recording_services
from chouette.services import sessions as session_services
from core.jobs import start_job
from core.models import Job
from games import score_links
from games.models import Club, Match, Player
from games.services import clubs as club_services
from games.services import match_create, match_disputes, match_records, score_entry
from games.services.actors import actor_for_user
from tournaments.models import Entry, Pairing, Tournament
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

ROLES = (
    "anonymous",
    "player",
    "other_player",
    "other_director",
    "director",
    "admin",
    "other_link",
)
"""Who knocks: nobody; a player of the match/event/session; a club member who is not in
it; the director of another club; the club's director; a site admin; and an anonymous
client holding a valid private score link for a different match."""


@dataclass
class World:
    users: dict[str, Any]
    club: Club
    other_club: Club
    alice: Player
    bob: Player
    carol: Player
    dave: Player
    erin: Player
    match: Match
    disputed: Match
    other_match: Match
    other_link: str
    own_link: str
    tournament: Tournament
    entry: Entry
    pairing: Pairing
    session_id: int
    job: Job
    extra: dict[str, Any] = field(default_factory=dict)


def _user(username: str, **extra: Any) -> Any:
    user = get_user_model().objects.create(username=username, **extra)
    user.set_password("pw-for-tests-1")
    user.save(update_fields=["password"])
    return user


def _game(winner: Player, **extra: Any) -> match_records.GameInput:
    return match_records.GameInput(
        winner_id=winner.pk, cube=1, cube_owner="centre", ending="played", level="single", **extra
    )


def build_world() -> World:
    director = _user("director")
    other_director = _user("otherdir")
    admin = _user("root", is_superuser=True, is_staff=True)
    alice_user, bob_user, carol_user = _user("alice"), _user("bob"), _user("carol")
    users = {
        "anonymous": None,
        "player": alice_user,
        "other_player": carol_user,
        "other_director": other_director,
        "director": director,
        "admin": admin,
        "other_link": None,
        "bob": bob_user,
    }

    club = club_services.create_club(created_by=director, name="Test Club", slug="test-club")
    other_club = club_services.create_club(
        created_by=other_director, name="Other Club", slug="other-club"
    )
    alice = club_services.create_player(display_name="Alice", clubs=[club], user=alice_user)
    bob = club_services.create_player(display_name="Bob", clubs=[club], user=bob_user)
    carol = club_services.create_player(display_name="Carol", clubs=[club], user=carol_user)
    dave = club_services.create_player(display_name="Dave", clubs=[club])
    erin = club_services.create_player(display_name="Erin", clubs=[club])
    club_services.create_player(display_name="Olga", clubs=[other_club])

    as_director = actor_for_user(director)
    as_bob = actor_for_user(bob_user)
    as_alice = actor_for_user(alice_user)

    # The match everyone aims at: Bob entered game 1, Alice has to confirm it.
    match = match_create.create_match(
        actor=as_director, club=club, player1=alice, player2=bob, length=5
    )
    match = score_entry.record_game(actor=as_bob, match_id=match.pk, game=_game(bob))

    disputed = match_create.create_match(
        actor=as_director, club=club, player1=alice, player2=bob, length=3
    )
    score_entry.record_game(actor=as_bob, match_id=disputed.pk, game=_game(bob))
    match_disputes.dispute_match(actor=as_alice, match_id=disputed.pk, reason="It was mine.")
    disputed.refresh_from_db()

    other_match = match_create.create_match(
        actor=as_director, club=club, player1=carol, player2=dave, length=3
    )
    other_link = score_links.make_token(other_match, carol)
    own_link = score_links.make_token(match, alice)

    tournament = event_services.create_tournament(
        actor=as_director,
        club=club,
        name="Club Night",
        seeding="manual",
        format="single_elimination",
    )
    for player in (alice, bob, dave, erin):
        entry_services.register_entry(
            actor=as_director, tournament_id=tournament.pk, player_id=player.pk
        )
    entry_services.start_tournament(actor=as_director, tournament_id=tournament.pk)
    tournament.refresh_from_db()
    entry = Entry.objects.get(tournament=tournament, player=alice)
    pairing = (
        Pairing.objects.filter(tournament=tournament)
        .filter(Q(entry1__player=alice) | Q(entry2__player=alice))
        .order_by("id")
        .first()
    )

    session = session_services.open_session(
        actor=as_director, club=club, stake="1.00", players=[alice.pk, bob.pk, dave.pk]
    )
    recording_services.record_game(
        actor=as_director,
        session_id=session.pk,
        game=ChouetteGameInput(
            members=(MemberInput(player_id=bob.pk), MemberInput(player_id=dave.pk)),
            winner="box",
        ),
    )

    job, _ = start_job(
        kind="ratings.recompute_all",
        params={},
        club=club,
        created_by=director,
    )

    return World(
        users=users,
        club=club,
        other_club=other_club,
        alice=alice,
        bob=bob,
        carol=carol,
        dave=dave,
        erin=erin,
        match=match,
        disputed=disputed,
        other_match=other_match,
        other_link=other_link,
        own_link=own_link,
        tournament=tournament,
        entry=entry,
        pairing=pairing,
        session_id=session.pk,
        job=job,
    )


def path_params(template: str, w: World) -> dict[str, Any]:
    """Real values for every path parameter a route of the service can name."""
    t = w.tournament
    params: dict[str, Any] = {
        "number": 1,
        "match_pk": w.match.pk,
        "session_pk": w.session_id,
        "entry_id": w.entry.pk,
        "key": w.pairing.key,
        "match_id": w.pairing.match_id,
        "round_id": w.pairing.round_id,
        "token": w.own_link,
        "club_slug": w.club.slug,
        "action": "forfeit",
        "call_action": "call",
        "lot": 1,
        "payment": 10**6,  # no such payment: a director's undo is refused (400)
        "export": "wbgf",
        "uidb64": "MQ",  # an invitation's set-password link (its token: not a valid one)
        "job_id": w.job.pk,
        "player_id": w.alice.pk,  # a member without an address: a resend is refused (400)
    }
    params["slug"] = w.club.slug
    if template.startswith(("/api/v1/variants/", "/variants/")):
        params["key"] = "standard"
    if template.startswith(("/api/v1/tournaments/", "/tournaments/")):
        params["slug"] = t.slug
    elif template.startswith("/players/"):
        params["slug"] = w.alice.slug
    if template.startswith("/api/v1/players/"):
        params["pk"] = w.alice.pk
    elif template.startswith("/api/v1/jobs/"):
        params["pk"] = w.job.pk
    elif template.startswith(("/api/v1/chouette/", "/chouette/")):
        params["pk"] = w.session_id
    elif "/resolve/" in template:
        params["pk"] = w.disputed.pk
    else:
        params["pk"] = w.match.pk
    params["id"] = params["pk"]  # the schema's name for a route's pk
    return params
