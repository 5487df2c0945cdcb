"""Pages for check-in and calls: a player's check-in on a phone, and the director's
check-in ticks, "drop no-shows", "call the round" and late-penalty buttons.

Each form post is one service call; domain errors come back as messages. A late
penalty is confirmed first: the confirmation page says what the rule gives for the
minutes since the call, and only the confirmed post applies it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core import access
from games.rules.errors import BoxcarsError
from games.services.actors import actor_for_user

from .models import Entry, EntryStatus, Tournament, TournamentStatus
from .selectors_calls import call_reach
from .services import calls, check_in, late_penalties


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)


def _check_in_page(
    request: HttpRequest, tournament: Tournament, entry: Entry, token: str | None
) -> HttpResponse:
    if request.method == "POST":
        try:
            check_in.check_in_entry(
                actor=actor_for_user(request.user),
                tournament_id=tournament.pk,
                entry_id=entry.pk,
                token=token,
            )
            messages.success(request, _("You are checked in. See you at the board!"))
        except BoxcarsError as error:
            messages.error(request, error.message)
        return redirect(request.path)
    return render(
        request,
        "tournaments/check_in.html",
        {
            "tournament": tournament,
            "entry": entry,
            "open": tournament.status in check_in.BEFORE_THE_DRAW,
        },
    )


def check_in_by_link(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The entry's private link: check in from a phone, no account needed."""
    tournament = _tournament(slug)
    found = check_in.read_check_in_token(token)
    if found is None or found[0] != tournament.pk:
        raise Http404
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=found[1])
    return _check_in_page(request, tournament, entry, token)


@login_required
def check_in_signed_in(request: HttpRequest, slug: str) -> HttpResponse:
    """A signed-in player checks in for their own entry."""
    tournament = _tournament(slug)
    player = actor_for_user(request.user).player
    entry = (
        Entry.objects.filter(tournament=tournament, player=player).select_related("player").first()
        if player is not None
        else None
    )
    if entry is None:
        raise Http404
    return _check_in_page(request, tournament, entry, None)


def _penalty_confirmation(
    request: HttpRequest, tournament: Tournament, match_id: int, late_entry_id: int
) -> HttpResponse:
    quote = late_penalties.quote_late_penalty(
        actor=actor_for_user(request.user),
        tournament=tournament,
        match_id=match_id,
        late_entry_id=late_entry_id,
    )
    due = quote.due
    late, opponent = quote.late.player.display_name, quote.opponent.player.display_name
    if due.match_lost:
        consequence = _(
            "%(late)s is %(minutes)d minutes late: beyond half the match length, so "
            "%(opponent)s wins the match by forfeit."
        ) % {"late": late, "minutes": due.minutes_late, "opponent": opponent}
    elif due.points:
        consequence = _(
            "%(late)s is %(minutes)d minutes late: %(opponent)s gets %(points)d penalty "
            "point(s), shown on the score sheet."
        ) % {"late": late, "minutes": due.minutes_late, "opponent": opponent, "points": due.points}
    else:
        messages.error(
            request,
            _("%(minutes)d minutes since the call: no more penalty is due yet.")
            % {"minutes": due.minutes_late},
        )
        return redirect("tournament-director", slug=tournament.slug)
    return render(
        request,
        "tournaments/confirm.html",
        {
            "tournament": tournament,
            "question": _("Apply the late penalty to %(late)s?") % {"late": late},
            "consequence": consequence,
            "button": _("Yes, apply it"),
            "action_url": reverse("tournament-calls-action", args=[tournament.slug, "penalty"]),
            "fields": [("match", match_id), ("late_entry", late_entry_id)],
        },
    )


def _no_shows_confirmation(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """Ask before dropping the no-shows, naming them (withdrawing is not undone with a
    tap); None when there is nothing to ask (no one to drop, or the service refuses)."""
    if not tournament.check_in_required:
        return None
    names = [entry.player.display_name for entry in check_in.no_show_entries(tournament)]
    if not names:
        return None
    return render(
        request,
        "tournaments/confirm.html",
        {
            "tournament": tournament,
            "question": ngettext(
                "Drop %(count)d no-show from %(event)s?",
                "Drop %(count)d no-shows from %(event)s?",
                len(names),
            )
            % {"count": len(names), "event": tournament.name},
            "consequence": _(
                "Not checked in: %(names)s. They are withdrawn and the waitlist moves up."
            )
            % {"names": ", ".join(names)},
            "button": _("Yes, drop them"),
            "action_url": reverse(
                "tournament-calls-action", args=[tournament.slug, "drop-no-shows"]
            ),
            "fields": [],
        },
    )


@login_required
@require_POST
def director_calls_action(request: HttpRequest, slug: str, call_action: str) -> HttpResponse:
    """Check-in ticks, dropping no-shows, calling a round, a late penalty."""
    tournament = _tournament(slug)
    if not access.is_director(request.user, tournament.club):
        raise Http404
    actor = actor_for_user(request.user)
    post = request.POST
    action = call_action
    try:
        if action == "check-in":
            waiting = Entry.objects.filter(
                tournament=tournament, pk=int(post["entry"]), status=EntryStatus.WAITLISTED
            ).exists()
            entry = check_in.check_in_entry(
                actor=actor,
                tournament_id=tournament.pk,
                entry_id=int(post["entry"]),
                checked_in=post.get("checked_in", "1") == "1",
            )
            if not entry.checked_in_at:
                done = _("%(player)s is no longer checked in.")
            elif waiting and entry.status == EntryStatus.ACTIVE:
                done = _("%(player)s is checked in and moves up from the waitlist.")
            else:
                done = _("%(player)s is checked in.")
            done %= {"player": entry.player.display_name}
        elif action == "drop-no-shows":
            if post.get("confirm") != "1":
                asked = _no_shows_confirmation(request, tournament)
                if asked is not None:
                    return asked
            dropped = check_in.drop_no_shows(actor=actor, tournament_id=tournament.pk)
            done = dropped_in_words(dropped)
        elif action == "call":
            round_ = calls.round_of_event(tournament, int(post["round"]))
            called = calls.call_round(
                actor=actor,
                tournament_id=tournament.pk,
                round_number=round_.number,
                stage=round_.stage.kind,
            )
            done = call_message([c.round_id for c in called], round_.number)
        elif action == "penalty":
            match_id, late_entry_id = int(post["match"]), int(post["late_entry"])
            if post.get("confirm") != "1":
                return _penalty_confirmation(request, tournament, match_id, late_entry_id)
            penalty = late_penalties.apply_late_penalty(
                actor=actor,
                tournament_id=tournament.pk,
                match_id=match_id,
                late_entry_id=late_entry_id,
            )
            done = _("Late penalty applied: %(points)d point(s).") % {"points": penalty.points}
        else:
            raise Http404
        messages.success(request, done)
    except BoxcarsError as error:
        messages.error(request, error.message)
    except (KeyError, ValueError):
        messages.error(request, _("Fill in the form."))
    return redirect("tournament-director", slug=slug)


def dashboard_context(tournament: Tournament, ready: list, rounds_in_play: list) -> dict:
    """What the dashboard's check-in and calls parts show (``tournaments/_calls_*.html``)."""
    from . import selectors_calls

    calls_by_round = selectors_calls.round_calls([r.pk for r, _name in rounds_in_play])
    by_match = selectors_calls.match_calls(ready, calls_by_round)
    before_draw = tournament.status in check_in.BEFORE_THE_DRAW
    return {
        "calls_rounds": [(r, name, calls_by_round.get(r.pk)) for r, name in rounds_in_play],
        "lateness": [(m, by_match[m.row.match_id]) for m in ready if m.row.match_id in by_match],
        "check_in_rows": selectors_calls.check_in_rows(tournament) if before_draw else [],
        "no_shows": check_in.no_shows_left(tournament) if before_draw else 0,
        "waitlisted": Entry.objects.filter(
            tournament=tournament, status=EntryStatus.WAITLISTED
        ).count(),
        "calls_running": tournament.status == TournamentStatus.RUNNING,
    }


def dropped_in_words(dropped: check_in.Dropped) -> str:
    """Who was dropped and who moved up from the waitlist into their places."""
    if not dropped:
        return _("No no-show to drop: everyone still in has checked in.")
    names = ", ".join(e.player.display_name for e in dropped)
    done = _("%(count)d no-show(s) dropped: %(names)s.") % {"count": len(dropped), "names": names}
    if dropped.moved_up:
        done += " " + _("Moved up from the waitlist: %(names)s.") % {
            "names": ", ".join(e.player.display_name for e in dropped.moved_up)
        }
    elif Entry.objects.filter(
        tournament_id=dropped[0].tournament_id, status=EntryStatus.WAITLISTED
    ).exists():
        done += " " + _(
            "No one moved up: the waitlisted players have not checked in; each moves up "
            "into a free place as they check in."
        )
    return done


def call_message(round_ids: list[int], number: int) -> str:
    """What calling a round reached: "Round 2 called: 30 players emailed, 2 without
    email: Ann, Bob", and who was not emailed because their address is not confirmed
    yet (the emails themselves leave through the outbox)."""
    reach = call_reach(round_ids)
    if not reach.without:
        text = _("Round %(number)s called: %(count)s players emailed.") % {
            "number": number,
            "count": reach.emailed,
        }
    else:
        text = _(
            "Round %(number)s called: %(count)s players emailed, %(missing)s without "
            "email: %(names)s (tell them in the room)."
        ) % {
            "number": number,
            "count": reach.emailed,
            "missing": len(reach.without),
            "names": ", ".join(reach.without),
        }
    if reach.unconfirmed:
        text += " " + ngettext(
            "%(count)s player has not confirmed their address yet, so was not emailed: "
            "%(names)s (tell them in the room).",
            "%(count)s players have not confirmed their address yet, so were not "
            "emailed: %(names)s (tell them in the room).",
            len(reach.unconfirmed),
        ) % {"count": len(reach.unconfirmed), "names": ", ".join(reach.unconfirmed)}
    return text
