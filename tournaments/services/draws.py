"""Redrawing a bracket before play starts, and the drop-map preview."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from core.actors import Actor
from core.errors import N_
from games.models import MatchStatus
from games.rules.errors import ConflictError
from games.services import match_results
from tournaments.formats import registry as format_registry
from tournaments.formats.bracket_graph import playable_matches
from tournaments.formats.drop_maps import drop_map_preview, feed_note
from tournaments.formats.labels import bracket_key_labels, stage_round_title
from tournaments.formats.schedule import check_schedule, match_length
from tournaments.models import (
    Pairing,
    SeedingMethod,
    Stage,
    TournamentStatus,
)
from tournaments.selectors_graph import _cached_graph

from .brackets import draw_bracket
from .common import (
    bump,
    lock_unstarted_matches_then_tournament,
    require_director,
    require_locked,
    require_status,
    system_actor,
)
from .entries import _apply_seeding
from .odds import request_odds

LARGE_EVENT = 128
"""Drop-map previews for more entries than this run as a job."""


@transaction.atomic
def redraw_bracket(
    *, actor: Actor, tournament_id: int, random_seed: int | None = None
) -> dict[str, Any]:
    """Seed again (a new random draw, or new ratings) and draw the bracket afresh.

    Only before any match has started; the unstarted matches are voided (kept on
    record) and the bracket's rows rebuilt. Locks those matches before the tournament
    (the one lock order), so a score entry racing the redraw never deadlocks with it.
    """
    tournament, locked = lock_unstarted_matches_then_tournament(tournament_id)
    require_director(actor, tournament)
    require_status(tournament, TournamentStatus.RUNNING, doing="redraw")
    if not tournament.is_elimination:
        raise ConflictError("not_a_bracket", N_("Only elimination brackets are redrawn."))
    pairings = list(Pairing.objects.filter(tournament=tournament).select_related("match"))
    started = [
        p.key
        for p in pairings
        if p.match is not None
        and (p.match.status != MatchStatus.SCHEDULED or p.match.score1 or p.match.score2)
    ]
    if started:
        raise ConflictError(
            "bracket_started",
            N_("%(count)s match(es) have started: too late to redraw.", count=len(started)),
        )
    system = system_actor(tournament)
    matches = [p.match_id for p in pairings if p.match_id]
    require_locked({m for m in matches if m is not None}, locked)
    Pairing.objects.filter(tournament=tournament).delete()
    for match_id in matches:
        match_results.void_match(actor=system, match_id=match_id)
    Stage.objects.filter(tournament=tournament).delete()
    if random_seed is not None:
        tournament.random_seed = random_seed
    elif tournament.seeding == SeedingMethod.RANDOM:
        tournament.random_seed += 1
    tournament.save()
    order = [e.pk for e in _apply_seeding(tournament)]
    draw_bracket(tournament, order)
    bump(tournament)
    request_odds(tournament_id=tournament.pk)
    return {
        "entries": len(order),
        "voided_matches": len(matches),
        "random_seed": tournament.random_seed,
    }


def drop_map_preview_for(
    *,
    format: str,
    entries: int,
    consolation_from: list[int] | None = None,
    last_chance_from: list[int] | None = None,
    grand_final_reset: bool = True,
    feed_orders: list[str] | None = None,
    last_chance_drawn: list[int] | None = None,
) -> dict[str, Any]:
    """Where every loser goes and how many matches could be early rematches
    (``last_chance_drawn``: a drawn bracket's own last-chance wiring)."""
    graph = _cached_graph(
        format,
        entries,
        tuple(consolation_from or ()),
        tuple(last_chance_from or ()),
        grand_final_reset,
        tuple(feed_orders or ()),
        tuple(last_chance_drawn or ()),
    )
    preview = drop_map_preview(graph)
    return {
        "entries": entries,
        "matches": len(graph.matches),
        "possible_rematches": preview.possible_rematches,
        "possible_rematch_matches": list(preview.possible_rematch_matches),
        "feeds": [
            {
                "stage": f.stage.value,
                "from_stage": f.from_stage.value,
                "asked": list(f.asked),
                "rounds": list(f.rounds),
                "note": feed_note(f),
            }
            for f in preview.feeds
        ],
        "drops": [
            {
                "match": d.match,
                "stage": d.stage.value,
                "round": d.round,
                "to_match": d.to_match,
                "to_stage": d.to_stage.value if d.to_stage else None,
                "to_round": d.to_round,
                "to_side": d.to_side,
            }
            for d in preview.drops
        ],
    }


def event_preview(
    *,
    format: str,
    entries: int,
    match_lengths: dict[str, Any],
    swiss_rounds: int | None = None,
    consolation_from: list[int] | None = None,
    last_chance_from: list[int] | None = None,
    grand_final_reset: bool = True,
    feed_orders: list[str] | None = None,
) -> dict[str, Any]:
    """What an event configured so would play with ``entries`` players, before it exists:
    every round with its matches (walkovers apart) and match length, and for a bracket
    the drop map (where every loser goes, which rounds feed each stage and why).

    Raises the format's error when the configuration cannot be drawn for that many
    players (a last chance the consolation cannot reach), for the page to say so.
    """
    schedule = check_schedule(match_lengths)
    rounds: list[dict[str, Any]] = []
    format_spec = format_registry.spec(format)
    if format_spec.preview is None:
        return {"entries": entries, "rounds": [], "drop_map": None}
    if format_spec.preview_rounds is not None:
        count = format_spec.preview_rounds(
            {
                "swiss_rounds": swiss_rounds,
                "consolation_from": consolation_from,
                "last_chance_from": last_chance_from,
                "grand_final_reset": grand_final_reset,
                "feed_orders": feed_orders,
            }
        )
        stage_kind = format_spec.stages[0][0]
        for number in range(1, count + 1):
            rounds.append(
                {
                    "title": gettext("Round %(number)s") % {"number": number},
                    "matches": entries // 2,
                    "walkovers": entries % 2,
                    "length": match_length(schedule, stage_kind, number, count),
                }
            )
        return {"entries": entries, "rounds": rounds, "drop_map": None}
    graph = _cached_graph(
        format,
        entries,
        tuple(consolation_from or ()),
        tuple(last_chance_from or ()),
        grand_final_reset,
        tuple(feed_orders or ()),
    )
    playable = playable_matches(graph.matches, entries)
    for stage in graph.stages:
        stage_rounds = graph.rounds(stage)
        for number, matches in enumerate(stage_rounds, start=1):
            real = sum(playable[m.key] for m in matches)
            title = stage_round_title(
                stage_kind=stage.value, round_number=number, rounds_in_stage=len(stage_rounds)
            )
            rounds.append(
                {
                    "title": title,
                    "matches": real,
                    "walkovers": len(matches) - real,
                    "length": match_length(schedule, stage.value, number, len(stage_rounds)),
                }
            )
    preview = labelled_drop_map(
        format=format,
        entries=entries,
        consolation_from=consolation_from,
        last_chance_from=last_chance_from,
        grand_final_reset=grand_final_reset,
        feed_orders=feed_orders,
    )
    return {"entries": entries, "rounds": rounds, "drop_map": preview}


def labelled_drop_map(**params: Any) -> dict[str, Any]:
    """:func:`drop_map_preview_for` with each slot's label as people read it
    ("Consolation, round 2, match 3"), for the pages."""
    preview = drop_map_preview_for(**params)
    names = bracket_key_labels(d["match"] for d in preview["drops"])
    preview["drops"] = [
        {**d, "label": names[d["match"]], "to_label": names.get(d["to_match"] or "")}
        for d in preview["drops"]
    ]
    return preview
