"""Demo content for ``seed_demo``: an open chouette among five demo players, three games.

Idempotent: a demo session (labelled :data:`DEMO_LABEL`) is created once per club.
"""

from __future__ import annotations

from typing import Any

from games.models import Club
from games.services.actors import actor_for_user

from .models import Session
from .records import GameInput, MemberInput
from .services import recording as recording_services
from .services import sessions as session_services

DEMO_LABEL = "Demo chouette"


def seed(*, club: Club, director: Any, stdout: Any = None) -> Session:
    existing = Session.objects.filter(club=club, label=DEMO_LABEL).first()
    if existing is not None:
        return existing
    players = list(club.players.order_by("display_name")[:5])
    if len(players) < 3:
        raise ValueError("The demo chouette needs at least three players in the club.")
    actor = actor_for_user(director)
    session = session_services.open_session(
        actor=actor,
        club=club,
        stake="0.50",
        label=DEMO_LABEL,
        rolls={p.pk: roll for p, roll in zip(players, (4, 6, 2, 5, 1), strict=False)},
    )

    def record(winner: str, level: str = "single", cubes: dict[int, tuple] | None = None) -> None:
        session.refresh_from_db()
        members = []
        for line, pk in enumerate(session.lineup[1:]):
            cube, action = (cubes or {}).get(line, (1, "played"))
            members.append(MemberInput(pk, cube=cube, action=action))
        recording_services.record_game(
            actor=actor,
            session_id=session.pk,
            game=GameInput(members=tuple(members), winner=winner, level=level),
        )

    record("box")  # the box beats everyone on centred cubes and stays
    record("team", "gammon", {0: (2, "played"), 2: (1, "dropped")})  # the captain takes the box
    record("box", "single", {1: (4, "beavered")})
    if stdout is not None:
        stdout.write(f"Chouette: {session.get_absolute_url()} (three games recorded)")
    session.refresh_from_db()
    return session
