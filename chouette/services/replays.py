"""Replaying a session and storing what the replay derived (lineups, payouts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from simple_history.utils import bulk_create_with_history

from core.actors import Actor
from core.errors import N_
from games.models import Player
from games.rules.errors import RuleViolation

from ..models import ChouetteGame, MemberResult, Session, SessionEvent
from ..records import GameInput, events_from_rows, opening_lineup, session_rules
from ..rules import GameScore, Lineup, SessionReplay, replay_session
from .common import authored


def event_rows(session: Session) -> list[SessionEvent]:
    return list(
        session.events.select_related("game").prefetch_related("game__members").order_by("sequence")
    )


def store_replay(
    session: Session, rows: list[SessionEvent], replay: SessionReplay, actor: Actor
) -> None:
    """Store what the replay derived on each game and member row, and the lineup now.

    Only rows whose derived facts changed are saved (each save keeps its history).
    """
    game_rows = [event.game for event in rows if event.kind == SessionEvent.Kind.GAME]
    for game, derived in zip(game_rows, replay.games, strict=True):
        store_game(game, derived.number, derived.lineup_before, derived.score, actor)
    session.lineup = list(replay.lineup.players)


def derived_facts(number: int, lineup: Lineup, score: GameScore) -> dict[str, Any]:
    """What the replay says about one game: who sat where and the box side's points."""
    return {
        "number": number,
        "box_id": score.box,
        "partner_id": score.partner,
        "captain_id": lineup.captain,
        "board_captain_id": score.board_captain,
        "board_winner": score.board_winner.value,
        "team_order": list(lineup.team),
        "box_points": score.payouts[score.box],
        "partner_points": score.payouts[score.partner] if score.partner is not None else 0,
    }


def store_game(
    game: ChouetteGame, number: int, lineup: Lineup, score: GameScore, actor: Actor
) -> None:
    facts = derived_facts(number, lineup, score)
    if any(getattr(game, k) != v for k, v in facts.items()):
        for key, value in facts.items():
            setattr(game, key, value)
        authored(actor, game).save()
    for member in game.members.all():
        points = score.payouts[member.player_id]
        if member.points != points:
            member.points = points
            authored(actor, member).save()


def replay_rows(
    session: Session, rows: list[SessionEvent], extra: Sequence[Any] = ()
) -> SessionReplay:
    return replay_session(
        session_rules(session), opening_lineup(session), [*events_from_rows(rows), *extra]
    )


def next_sequence(rows: list[SessionEvent]) -> int:
    return rows[-1].sequence + 1 if rows else 1


def create_game_rows(
    *,
    session: Session,
    event: SessionEvent,
    game: GameInput,
    number: int,
    lineup: Lineup,
    score: GameScore,
    actor: Actor,
) -> ChouetteGame:
    row = ChouetteGame(
        session=session,
        event=event,
        winner=game.winner or "",
        level=game.level,
        ending=game.ending or "",
        automatic_doubles=game.automatic_doubles,
        given_partner_id=game.partner_id,
        recorded_by=actor.user,
        **derived_facts(number, lineup, score),
    )
    authored(actor, row).save()
    # the rules' players are Hashable; ours are pks
    store_members(row, game, cast("dict[int, int]", score.payouts), actor)
    return row


def store_members(
    row: ChouetteGame, game: GameInput, payouts: dict[int, int], actor: Actor
) -> None:
    """One member row per team member of ``game`` (its line, cube, action, points), in
    one bulk write with history: recording a game and correcting one store them alike.
    A member whose cube was not given holds the game's opening cube."""
    initial = 2**game.automatic_doubles
    bulk_create_with_history(
        [
            MemberResult(
                game=row,
                player_id=m.player_id,
                line=index,
                cube=initial if m.cube is None else m.cube,
                owner=m.owner or "",
                action=m.action,
                raccoon=m.raccoon,
                stake=m.stake,
                taken_over=m.taken_over,
                points=payouts[m.player_id],
            )
            for index, m in enumerate(game.members)
        ],
        MemberResult,
        default_user=actor.user,
    )


def check_players_known(game: GameInput) -> None:
    named = (("partner", game.partner_id), ("box", game.box_id), ("captain", game.captain_id))
    ids = [m.player_id for m in game.members] + [pk for _, pk in named if pk is not None]
    known = set(Player.objects.filter(pk__in=ids).values_list("pk", flat=True))
    for index, member in enumerate(game.members):
        if member.player_id not in known:
            raise RuleViolation(
                "unknown_player",
                N_("There is no player %(player_id)s.", player_id=member.player_id),
                f"members[{index}].player",
            )
    for name, pk in named:
        if pk is not None and pk not in known:
            raise RuleViolation("unknown_player", N_("There is no player %(pk)s.", pk=pk), name)
