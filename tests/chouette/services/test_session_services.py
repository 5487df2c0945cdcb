"""A long session through the services: many games, players joining and leaving,
corrections; the stored sheet always equals a fresh replay of the records."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from chouette.models import ChouetteGame, Seat, Session
from chouette.records import GameInput, MemberInput, events_from_rows, opening_lineup, session_rules
from chouette.rules import replay_session, settle
from chouette.selectors import session_sheet
from chouette.services import corrections as correction_services
from chouette.services import recording as recording_services
from chouette.services import seats as seat_services
from chouette.services import sessions as session_services
from games.rules.errors import ConflictError, NotAllowed, RuleViolation
from games.services.actors import actor_for_user
from tests.chouette.helpers import make_table

pytestmark = pytest.mark.django_db


def _random_game(rng: random.Random, lineup: list[int]) -> GameInput:
    members = []
    for pk in lineup[1:]:
        cube = rng.choice([1, 1, 2, 4])
        action = rng.choice(["played", "played", "played", "dropped"])
        members.append(MemberInput(pk, cube=cube, action=action))
    still_in = any(m.action == "played" for m in members)
    return GameInput(
        members=tuple(members),
        winner=rng.choice(["box", "team"]) if still_in else None,
        level=rng.choice(["single", "single", "gammon", "backgammon"]) if still_in else "single",
    )


def _assert_sheet_is_the_replay(session: Session) -> None:
    rows = list(
        session.events.select_related("game").prefetch_related("game__members").order_by("sequence")
    )
    replay = replay_session(session_rules(session), opening_lineup(session), events_from_rows(rows))
    sheet = session_sheet(session.pk)
    assert sheet.totals == dict(replay.totals)
    assert sum(sheet.totals.values()) == 0
    for entry, derived in zip(sheet.ledger, replay.games, strict=True):
        assert dict(entry.row.payouts) == dict(derived.payouts)
        assert sum(entry.row.payouts.values()) == 0
        assert entry.game.box_id == derived.lineup_before.box
        assert entry.game.team_order == list(derived.lineup_before.team)
    assert list(replay.lineup.players) == Session.objects.get(pk=session.pk).lineup
    lineup = Session.objects.get(pk=session.pk).lineup
    assert len(set(lineup)) == len(lineup)  # every seated player exactly once
    seated = set(
        Seat.objects.filter(session=session, left_at__isnull=True).values_list("player", flat=True)
    )
    assert seated == set(lineup)
    assert sheet.transfers == tuple(settle(dict(replay.totals), session.stake))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_many_games_with_players_joining_and_leaving(seed, club, director):
    rng = random.Random(seed)
    table = make_table(club, count=7, accounts=0)
    actor = actor_for_user(director)
    names = list(table)
    session = session_services.open_session(
        actor=actor, club=club, stake="0.10", players=[table[n].pk for n in names[:4]]
    )
    waiting = [table[n] for n in names[4:]]
    for turn in range(40):
        session.refresh_from_db()
        if turn % 9 == 4 and waiting:
            seat_services.join_session(actor=actor, session_id=session.pk, player=waiting.pop())
        elif turn % 11 == 7 and len(session.lineup) > 3:
            leaver = table[names[0]].__class__.objects.get(pk=rng.choice(session.lineup))
            seat_services.leave_session(actor=actor, session_id=session.pk, player=leaver)
            waiting.insert(0, leaver)
        session.refresh_from_db()
        recording_services.record_game(
            actor=actor, session_id=session.pk, game=_random_game(rng, session.lineup)
        )
    assert ChouetteGame.objects.filter(session=session).count() == 40
    _assert_sheet_is_the_replay(session)

    # correct game 5 (same seats, a different level): everything after is re-derived
    game5 = ChouetteGame.objects.get(session=session, number=5)
    members = tuple(
        MemberInput(m.player_id, cube=m.cube, action=m.action) for m in game5.members.all()
    )
    if game5.winner:
        before = session_sheet(session.pk).totals
        level = "backgammon" if game5.level != "backgammon" else "single"
        correction_services.correct_game(
            actor=actor,
            session_id=session.pk,
            number=5,
            game=GameInput(members=members, winner=game5.winner, level=level),
        )
        _assert_sheet_is_the_replay(session)
        assert ChouetteGame.objects.get(session=session, number=5).level == level
        assert session_sheet(session.pk).totals != before or all(
            m.cube == 1 for m in game5.members.all()
        )
    # undo the last three games one by one
    for number in (40, 39, 38):
        correction_services.undo_last_game(actor=actor, session_id=session.pk, number=number)
        _assert_sheet_is_the_replay(session)


def test_a_leaving_box_is_replaced_by_the_captain(club, director):
    table = make_table(club, count=4, accounts=0)
    actor = actor_for_user(director)
    ids = [p.pk for p in table.values()]
    session = session_services.open_session(actor=actor, club=club, stake="1", players=ids)
    seat_services.leave_session(actor=actor, session_id=session.pk, player=table["Ann"])
    session.refresh_from_db()
    assert session.lineup == ids[1:]
    with pytest.raises(RuleViolation) as error:
        seat_services.leave_session(actor=actor, session_id=session.pk, player=table["Ann"])
    assert (error.value.code, error.value.field) == ("not_seated", "player")
    # Ann comes back: at the bottom, on her old seat
    seat_services.join_session(actor=actor, session_id=session.pk, player=table["Ann"])
    session.refresh_from_db()
    assert session.lineup == [*ids[1:], ids[0]]
    assert Seat.objects.filter(session=session).count() == 4


def test_a_club_member_may_seat_themself_but_not_others(club, director, make_user):
    table = make_table(club, count=5, accounts=5)
    ids = [table[n].pk for n in ("Ann", "Ben", "Cat")]
    session = session_services.open_session(
        actor=actor_for_user(director), club=club, stake="1", players=ids
    )
    eve = actor_for_user(table["Eve"].user)
    with pytest.raises(NotAllowed):
        seat_services.join_session(actor=eve, session_id=session.pk, player=table["Dan"])
    seat_services.join_session(actor=eve, session_id=session.pk, player=table["Eve"])
    assert Session.objects.get(pk=session.pk).lineup[-1] == table["Eve"].pk


def test_a_director_corrects_a_closed_session_but_players_cannot(club, director):
    table = make_table(club, count=3, accounts=3)
    ids = [p.pk for p in table.values()]
    session = session_services.open_session(
        actor=actor_for_user(director), club=club, stake="1.5", players=ids
    )
    ben, cat = table["Ben"], table["Cat"]
    game = GameInput(members=(MemberInput(ben.pk), MemberInput(cat.pk)), winner="box")
    recording_services.record_game(actor=actor_for_user(ben.user), session_id=session.pk, game=game)
    session_services.close_session(actor=actor_for_user(ben.user), session_id=session.pk)
    fixed = GameInput(members=(MemberInput(ben.pk), MemberInput(cat.pk)), winner="team")
    with pytest.raises(ConflictError):
        correction_services.correct_game(
            actor=actor_for_user(ben.user), session_id=session.pk, number=1, game=fixed
        )
    correction_services.correct_game(
        actor=actor_for_user(director), session_id=session.pk, number=1, game=fixed
    )
    sheet = session_sheet(session.pk)
    assert sheet.money == {
        ids[0]: Decimal("-3.00"),
        ids[1]: Decimal("1.50"),
        ids[2]: Decimal("1.50"),
    }
