"""The tenancy matrix: every write that touches a person, by the director of another club
and by the person's own club, the person and a site admin (docs/reliability.md,
"Tenancy").

Clubs are tenants and any signed-in user may found one, so the director of club B is
a stranger to club A's players. Each row is one door (an API operation or a page form)
aimed at a player who belongs to club A only: Alice (her own account, signed in) or
Dave (a walk-in club A wrote in, with an address and no account). Each cell is sent
for real against the permission matrix's world (``world.py``, plus club B's own event
and chouette table) inside a rolled-back savepoint (``matrix.send``), and says what
comes back: a refusal must carry its code and write nothing; a success must write.

Columns: club B's director (``other_director``), club A's director (``director``), the
person Alice (``player``), a site admin (``admin``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.core import mail
from django.test import override_settings

from chouette.services import sessions as session_services
from games.models import Player
from games.rules.errors import NotAllowed
from games.services import clubs as club_services
from games.services import invitations
from games.services.actors import actor_for_user
from tests.factories import confirm_address
from tournaments.models import Tournament
from tournaments.services import events as event_services

from .matrix import Clients, send
from .world import World, build_world

COLUMNS = ("other_director", "director", "player", "admin")

Expect = int | tuple[int, str]
"""A status, or (status, the API error's code)."""


@dataclass(frozen=True)
class Door:
    """One write that touches a person: its method, and per acting role the path and
    body (a director acts in their own club: club B's director on club B's event, club
    A's on club A's), and what each column gets."""

    name: str
    method: str
    path: Callable[[World, str], str]
    body: Callable[[World, str], Any]
    expect: dict[str, Expect]
    mails: bool = False  # a success sends mail (and may write nothing)


def cells(other: Expect, director: Expect, player: Expect, admin: Expect) -> dict[str, Expect]:
    return dict(zip(COLUMNS, (other, director, player, admin), strict=True))


def _own_event(w: World, role: str) -> Tournament:
    """The acting director's own draft event (a site admin uses club B's)."""
    return w.extra["own_event"] if role == "director" else w.extra["other_event"]


def _own_session(w: World, role: str) -> int:
    return w.session_id if role == "director" else w.extra["other_session"]


def _own_club(w: World, role: str) -> str:
    return w.club.slug if role == "director" else w.other_club.slug


NOT_IN_CLUB = (403, "player_not_in_club")
NOT_YOURS = (403, "person_not_yours")

DOORS: list[Door] = [
    # -- the person's own fields, through the player API ------------------------------
    Door(
        "e-mail of a person with an account",
        "PATCH",
        lambda w, r: f"/api/v1/players/{w.alice.pk}/",
        lambda w, r: {"email": "inbox@b.example"},
        cells(403, NOT_YOURS, 200, 200),
    ),
    Door(
        "name of a person with an account",
        "PATCH",
        lambda w, r: f"/api/v1/players/{w.alice.pk}/",
        lambda w, r: {"display_name": "Renamed"},
        cells(403, NOT_YOURS, 200, 200),
    ),
    Door(
        "e-mail of club A's walk-in (kept by club A)",
        "PATCH",
        lambda w, r: f"/api/v1/players/{w.dave.pk}/",
        lambda w, r: {"email": "inbox@b.example"},
        cells(403, 200, 403, 200),
    ),
    Door(
        "name of club A's walk-in (kept by club A)",
        "PATCH",
        lambda w, r: f"/api/v1/players/{w.dave.pk}/",
        lambda w, r: {"display_name": "Renamed"},
        cells(403, 200, 403, 200),
    ),
    Door(
        "a membership of the acting director's club, added by naming",
        "PATCH",
        lambda w, r: f"/api/v1/players/{w.alice.pk}/",
        lambda w, r: {"clubs": [_own_club(w, r)]},
        # club A's director: a club she is in already (no change); Alice may not add
        # a club she does not direct; the admin adds club B
        cells(403, 200, (403, "not_director_of_club"), 200),
    ),
    # -- the person's fields, through the pages ---------------------------------------
    Door(
        "the player edit page (name and e-mail)",
        "POST",
        lambda w, r: f"/players/{w.alice.slug}/edit/",
        lambda w, r: {
            "display_name": "Renamed",
            "email": "inbox@b.example",
            "clubs": [w.club.pk] if r in ("director", "admin") else [],
        },
        # club A's director: the person's fields are read-only, the save keeps them
        cells(404, 302, 302, 302),
    ),
    Door(
        "the player edit page for club A's walk-in",
        "POST",
        lambda w, r: f"/players/{w.dave.slug}/edit/",
        lambda w, r: {"display_name": "Renamed", "email": "inbox@b.example", "clubs": [w.club.pk]},
        cells(404, 302, 404, 302),
    ),
    # -- entries, seats, matches, money: a player id named for another club ------------
    Door(
        "event entry by id",
        "POST",
        lambda w, r: f"/api/v1/tournaments/{_own_event(w, r).slug}/entries/",
        lambda w, r: {"player": w.dave.pk},
        cells(NOT_IN_CLUB, 201, 403, NOT_IN_CLUB),
    ),
    Door(
        "bulk entry of ticked ids",
        "POST",
        lambda w, r: f"/api/v1/tournaments/{_own_event(w, r).slug}/entries/bulk/",
        lambda w, r: {"player_ids": [w.dave.pk]},
        cells(NOT_IN_CLUB, 201, 403, NOT_IN_CLUB),
    ),
    Door(
        "chouette join by id",
        "POST",
        lambda w, r: f"/api/v1/chouette/sessions/{_own_session(w, r)}/join/",
        lambda w, r: {"player": w.erin.pk},
        cells(NOT_IN_CLUB, 200, 403, NOT_IN_CLUB),
    ),
    Door(
        "a match between named players",
        "POST",
        lambda w, r: "/api/v1/matches/",
        lambda w, r: {
            "club": _own_club(w, r),
            "player1": w.dave.pk,
            "player2": w.erin.pk,
            "length": 3,
        },
        cells(NOT_IN_CLUB, 201, 403, NOT_IN_CLUB),
    ),
    # -- accounts, sign-in codes, invitations, score-link mails -----------------------
    Door(
        "a printed sign-in code",
        "POST",
        lambda w, r: f"/clubs/{w.club.slug}/people/",
        lambda w, r: {"action": "code", "code-player": w.erin.pk},
        cells(404, 200, 404, 200),
    ),
    Door(
        "an invitation to an account",
        "POST",
        lambda w, r: f"/clubs/{w.club.slug}/people/",
        lambda w, r: {"action": "invite", "invite-player": w.dave.pk},
        cells(404, 302, 404, 302),
    ),
    Door(
        "a printed sign-in code in club B for club A's walk-in",
        "POST",
        lambda w, r: f"/clubs/{_own_club(w, r)}/people/",
        lambda w, r: {"action": "code", "code-player": w.erin.pk},
        # not on club B's list of players; club A's director: his own club's walk-in
        cells(400, 200, 404, 400),
    ),
    Door(
        "score links mailed for club A's match",
        "POST",
        lambda w, r: f"/matches/{w.other_match.pk}/links/",
        lambda w, r: {},
        cells(403, 302, 403, 302),
        mails=True,
    ),
]


@pytest.fixture
def tenancy_world(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with override_settings(
        CACHES={
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": "tenancy-matrix",
            }
        }
    ):
        w = build_world()
        director = actor_for_user(w.users["director"])
        stranger = actor_for_user(w.users["other_director"])
        Player.objects.filter(pk=w.dave.pk).update(email="dave@a.example")
        w.dave.refresh_from_db()
        confirm_address(w.club, "dave@a.example")  # Dave agreed to club A's mail
        w.extra["own_event"] = event_services.create_tournament(
            actor=director, club=w.club, name="Club Open", format="single_elimination"
        )
        w.extra["other_event"] = event_services.create_tournament(
            actor=stranger, club=w.other_club, name="Other Night", format="single_elimination"
        )
        olga = Player.objects.get(display_name="Olga")
        table = [olga] + [
            club_services.create_player(display_name=name, clubs=[w.other_club])
            for name in ("Oscar", "Otto")
        ]
        w.extra["other_session"] = session_services.open_session(
            actor=stranger, club=w.other_club, stake="1.00", players=[p.pk for p in table]
        ).pk
        yield w, Clients(w)


def test_every_write_that_touches_a_person(tenancy_world):
    w, clients = tenancy_world
    failures = []
    for door in DOORS:
        for role, expected in door.expect.items():
            mail.outbox.clear()
            outcome = send(
                clients, role, door.method, door.path(w, role), door.body(w, role), "json"
            )
            mailed = bool(mail.outbox)
            status, code = expected if isinstance(expected, tuple) else (expected, None)
            refused = status >= 400
            done = mailed if door.mails else outcome.wrote
            ok = outcome.status == status and done != refused
            if refused:
                ok = ok and not outcome.wrote and not mailed
            if code is not None:
                ok = ok and outcome.code == code
            if not ok:
                failures.append(
                    f"{door.name} as {role}: expected {expected}, got {outcome.status} "
                    f"{outcome.code or ''}{' (wrote)' if outcome.wrote else ' (wrote nothing)'}"
                )
    assert not failures, "\n".join(failures)


def test_the_club_edit_page_keeps_the_persons_own_fields(tenancy_world):
    """Club A's director saves Alice's edit page: her memberships are his to change,
    her name and address are hers, so what he typed in them is not written."""
    w, clients = tenancy_world
    client = clients.page("director")
    response = client.post(
        f"/players/{w.alice.slug}/edit/",
        {"display_name": "Renamed", "email": "inbox@b.example", "clubs": [w.club.pk]},
    )
    assert response.status_code == 302
    w.alice.refresh_from_db()
    assert (w.alice.display_name, w.alice.email) == ("Alice", "")
    page = client.get(f"/players/{w.alice.slug}/edit/").content.decode()
    assert "only they change it" in page


def test_a_person_joins_another_club_themself_then_its_director_enters_them(tenancy_world):
    """The consent path: Alice joins club B on its page (signed in), and from then on
    club B's director may enter her in club B's events."""
    w, clients = tenancy_world
    entry = f"/api/v1/tournaments/{w.extra['other_event'].slug}/entries/"
    director_b = clients.api("other_director")
    headers = clients.headers("other_director", "/api/")
    refused = director_b.post(entry, {"player": w.alice.pk}, format="json", **headers)
    assert (refused.status_code, refused.json()["code"]) == (403, "player_not_in_club")
    joined = clients.page("player").post(f"/clubs/{w.other_club.slug}/join/")
    assert joined.status_code == 302
    assert w.alice.clubs.filter(pk=w.other_club.pk).exists()
    entered = director_b.post(entry, {"player": w.alice.pk}, format="json", **headers)
    assert entered.status_code == 201
    again = clients.api("player").post(
        f"/api/v1/clubs/{w.other_club.slug}/join/", **clients.headers("player", "/api/")
    )
    assert again.status_code == 200


# --- the probe's findings (issue #37), each through the door it used --------------------


def test_finding_a_no_capture_so_no_score_link_redirected(tenancy_world):
    """(a) Club B's director entered Alice of club A in his event, which made him an
    editor of her; then pointed her address at his inbox and had club A's score links
    mailed there. Every step is now refused and nothing is sent."""
    w, clients = tenancy_world
    headers = clients.headers("other_director", "/api/")
    api = clients.api("other_director")
    entry = api.post(
        f"/api/v1/tournaments/{w.extra['other_event'].slug}/entries/",
        {"player": w.dave.pk},
        format="json",
        **headers,
    )
    assert (entry.status_code, entry.json()["code"]) == (403, "player_not_in_club")
    assert not w.dave.clubs.filter(pk=w.other_club.pk).exists()
    patch = api.patch(
        f"/api/v1/players/{w.dave.pk}/", {"email": "inbox@b.example"}, format="json", **headers
    )
    assert patch.status_code == 403
    mail.outbox.clear()
    links = clients.page("other_director").post(f"/matches/{w.match.pk}/links/")
    assert links.status_code == 403
    assert mail.outbox == []
    w.dave.refresh_from_db()
    assert w.dave.email == "dave@a.example"


def test_finding_b_no_new_sign_in_code_for_another_clubs_player(tenancy_world):
    """(b) Club B's director captured club A's walk-in (an entry in his event), then
    printed her a new code on club B's people page, and club A's printed slip stopped
    working. The capture is refused, so is the code, and club A's slip still works."""
    w, clients = tenancy_world
    slip = clients.page("director").post(
        f"/clubs/{w.club.slug}/people/", {"action": "code", "code-player": w.erin.pk}
    )
    assert slip.status_code == 200
    code, username = slip.context["slip"].code, slip.context["slip"].username
    capture = _capture(clients, w, w.erin)
    stranger = clients.page("other_director")
    own = stranger.post(
        f"/clubs/{w.other_club.slug}/people/", {"action": "code", "code-player": w.erin.pk}
    )
    theirs = stranger.post(
        f"/clubs/{w.club.slug}/people/", {"action": "code", "code-player": w.erin.pk}
    )
    assert (capture.status_code, capture.json().get("code")) == (403, "player_not_in_club")
    assert (own.status_code, theirs.status_code) == (400, 404)
    user = invitations.redeem_sign_in_code(username=username, code=code, password="Long-enough-9x")
    assert user.player.pk == w.erin.pk


def test_finding_c_no_invitation_to_another_clubs_player(tenancy_world):
    """(c) Club B's director sent the invitation of a player without an account to his
    own inbox and took the account. Neither the address nor the invitation is his."""
    w, clients = tenancy_world
    mail.outbox.clear()
    capture = _capture(clients, w, w.dave)
    assert (capture.status_code, capture.json().get("code")) == (403, "player_not_in_club")
    readdress = clients.api("other_director").patch(
        f"/api/v1/players/{w.dave.pk}/",
        {"email": "inbox@b.example"},
        format="json",
        **clients.headers("other_director", "/api/"),
    )
    assert readdress.status_code == 403
    stranger = clients.page("other_director")
    assert (
        stranger.post(
            f"/clubs/{w.club.slug}/people/", {"action": "invite", "invite-player": w.dave.pk}
        ).status_code
        == 404
    )
    own = stranger.post(
        f"/clubs/{w.other_club.slug}/people/", {"action": "invite", "invite-player": w.dave.pk}
    )
    assert own.status_code == 400
    with pytest.raises(NotAllowed) as refused:
        invitations.invite_player(
            actor=actor_for_user(w.users["other_director"]),
            club=w.other_club,
            player_id=w.dave.pk,
            site="http://testserver",
        )
    assert refused.value.code == "player_not_in_club"
    assert mail.outbox == []
    w.dave.refresh_from_db()
    assert w.dave.user_id is None


def test_finding_d_no_renaming_another_clubs_player(tenancy_world):
    """(d) Club B's director captured Alice (an entry in his event) and renamed her
    everywhere. The capture is refused, and the rename through the API (403) and the
    edit page (404): her name is hers."""
    w, clients = tenancy_world
    capture = _capture(clients, w, w.alice)
    api = clients.api("other_director").patch(
        f"/api/v1/players/{w.alice.pk}/",
        {"display_name": "Renamed"},
        format="json",
        **clients.headers("other_director", "/api/"),
    )
    page = clients.page("other_director").post(
        f"/players/{w.alice.slug}/edit/", {"display_name": "Renamed", "email": ""}
    )
    assert (capture.status_code, capture.json().get("code")) == (403, "player_not_in_club")
    assert (api.status_code, page.status_code) == (403, 404)
    w.alice.refresh_from_db()
    assert w.alice.display_name == "Alice"


def _capture(clients: Clients, w: World, player: Player) -> Any:
    """The probe's first step: club B's director enters a club A player by id in his
    own event (which made them a member of club B)."""
    return clients.api("other_director").post(
        f"/api/v1/tournaments/{w.extra['other_event'].slug}/entries/",
        {"player": player.pk},
        format="json",
        **clients.headers("other_director", "/api/"),  # type: ignore[arg-type]
    )
