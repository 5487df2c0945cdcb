"""The director dashboard's buttons: one handler per action, each calling one service
and saying what happened in words.

"Done." after starting an event, calling a round or awarding a forfeit told a director
nothing (who was emailed? which match?). Each handler returns the sentence the
dashboard shows: "Round 2 called: 30 players emailed, 2 without email: Ann, Bob",
"Chen Wei wins Main, round 1, match 3 by forfeit". The page (``pages.director_action``)
stays a thin door: it looks the action up here, handles the domain error, redirects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest
from django.utils.translation import gettext

from core import access
from core.actors import Actor
from core.jobs import start_job
from games.services.tables import set_table

from . import job_kinds, room, selectors
from .models import Pairing, Tournament
from .services import calls, entries, events, registration, results, round_clocks

#: ``request.POST`` (its stubs' type is private); handlers read it as a mapping of strings.
Post = Any
Handler = Callable[[HttpRequest, Tournament, Actor, Post], str]
ACTIONS: dict[str, Handler] = {}


def action(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        ACTIONS[name] = handler
        return handler

    return register


def _directors_only(request: HttpRequest, tournament: Tournament) -> None:
    """Actions that start work before a service checks the actor (a job)."""
    if not access.is_director(request.user, tournament.club):
        raise Http404


def pairing_label(tournament: Tournament, key: str) -> str:
    """A slot's name as the room says it ("Main, round 1, match 3"), else its key."""
    labels = room.pairing_labels(selectors.bracket_view(tournament))
    pk = Pairing.objects.filter(tournament=tournament, key=key).values_list("pk", flat=True)
    found = labels.get(pk[0]) if pk else None
    return found or key


@action("open")
def _open(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    events.open_registration(actor=actor, tournament_id=t.pk)
    return gettext("Registration for %(event)s is open.") % {"event": t.name}


@action("register")
def _register(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    entry = entries.register_entry(actor=actor, tournament_id=t.pk, player_id=int(post["player"]))
    return gettext("%(player)s is registered.") % {"player": entry.player.display_name}


@action("seed")
def _seed(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    seeded = entries.seed_entries(
        actor=actor, tournament_id=t.pk, method=post.get("method") or None
    )
    return gettext("%(count)s entries seeded.") % {"count": len(seeded)}


@action("start")
def _start(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    entries.start_tournament(actor=actor, tournament_id=t.pk)
    ready = t.pairings.filter(match__isnull=False).count()
    return gettext("%(event)s has started: %(count)s matches to play.") % {
        "event": t.name,
        "count": ready,
    }


@action("next-round")
def _next_round(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    _directors_only(request, t)
    number = selectors.next_round_number(t)
    start_job(
        kind=job_kinds.PAIR_ROUND,
        params={"tournament": t.pk, "round": number},
        club=t.club,
        created_by=request.user,
        dedupe_key=f"pair:{t.pk}:{number}",
    )
    return gettext(
        "Round %(number)s is being paired: its matches appear here in a few seconds."
    ) % {"number": number}


@action("unregister")
def _unregister(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    player = registration.unregister_entry(
        actor=actor, tournament_id=t.pk, entry_id=int(post["entry"])
    )
    return gettext("%(player)s is no longer registered for %(event)s.") % {
        "player": player.display_name,
        "event": t.name,
    }


@action("withdraw")
def _withdraw(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    entry = entries.withdraw_entry(actor=actor, tournament_id=t.pk, entry_id=int(post["entry"]))
    return gettext("%(player)s is withdrawn: their open matches go to their opponents.") % {
        "player": entry.player.display_name
    }


@action("forfeit")
def _forfeit(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    pairing = results.forfeit_pairing(
        actor=actor, tournament_id=t.pk, key=post["pairing"], winner_entry_id=int(post["winner"])
    )
    winner = pairing.winner.player.display_name if pairing.winner else ""
    return gettext("%(player)s wins %(match)s by forfeit.") % {
        "player": winner,
        "match": pairing_label(t, pairing.key),
    }


@action("reissue")
def _reissue(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    pairing = results.reissue_pairing(actor=actor, tournament_id=t.pk, key=post["pairing"])
    return gettext("%(match)s has a new match to play.") % {"match": pairing_label(t, pairing.key)}


@action("table")
def _table(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    match_id = int(post["match"])
    pairing = Pairing.objects.filter(tournament=t, match_id=match_id).first()
    if pairing is None:  # the dashboard moves only its own matches
        raise Http404
    table = int(post["table"]) if post.get("table", "").strip() else None
    set_table(actor=actor, match_id=match_id, table=table)
    label = pairing_label(t, pairing.key)
    if table is None:
        return gettext("%(match)s has no table now.") % {"match": label}
    return gettext("%(match)s is at table %(table)s.") % {"match": label, "table": table}


@action("round-clock")
def _round_clock(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    _directors_only(request, t)
    round_ = calls.round_of_event(t, int(post["round"]))
    changed = round_clocks.set_round_clock_policy(
        actor=actor,
        tournament_id=t.pk,
        round_number=round_.number,
        stage=round_.stage.kind,
        policy=post["clock_policy"],
    )
    return gettext("Clocks for round %(number)s: %(policy)s (%(count)s round(s) set).") % {
        "number": round_.number,
        "policy": post["clock_policy"] or gettext("the event's policy"),
        "count": len(changed),
    }


@action("finish")
def _finish(request: HttpRequest, t: Tournament, actor: Actor, post: Post) -> str:
    events.finish_tournament(actor=actor, tournament_id=t.pk)
    winner = selectors.standings_table(t).winner
    if winner is None:
        return gettext("%(event)s is finished.") % {"event": t.name}
    return gettext("%(event)s is finished: %(player)s wins.") % {
        "event": t.name,
        "player": winner.display_name,
    }


def perform(request: HttpRequest, tournament: Tournament, actor: Actor, name: str) -> str:
    """Run the dashboard's action ``name`` (404 for an unknown one); its sentence."""
    handler = ACTIONS.get(name)
    if handler is None:
        raise Http404
    return handler(request, tournament, actor, request.POST)


__all__ = ["ACTIONS", "pairing_label", "perform"]
