"""The award order: the director's decision on who each pool pays, best first."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core.errors import BoxcarsError
from games.services.actors import actor_for_user
from money import selectors, services
from tournaments.models import Tournament

from .common import directed_event
from .forms import AwardForm, page_error


def _award_pools(tournament: Tournament) -> list[dict[str, Any]]:
    view = selectors.money_view(tournament)
    names = selectors.entry_names(tournament)
    pools = []
    for pool in view.pools:
        order = pool.award_order or []
        rows = []
        for group in order:
            for position, entry in enumerate(group):
                rows.append({"entry": entry, "tie": position > 0})
        size = min(max(len(pool.table), len(rows), 1) + 2, 32)
        rows += [{"entry": None, "tie": False}] * (size - len(rows))
        pools.append(
            {
                "pool": pool,
                "current": [[names.get(e, str(e)) for e in group] for group in order],
                "rows": rows,
            }
        )
    return pools


@login_required
def award_order(request: HttpRequest, slug: str) -> HttpResponse:
    """The director decides who a pool pays, best first (a side pool nobody eligible
    reached far), or clears the decision so the places pay it again."""
    tournament = directed_event(request, slug)
    error = None
    if request.method == "POST":
        form = AwardForm(request.POST)
        form_id = f"award-{request.POST.get('key', '')}"
        if not form.is_valid():
            error = page_error(form_id, form)
        else:
            try:
                services.set_award_order(
                    actor=actor_for_user(request.user),
                    tournament=tournament,
                    key=form.cleaned_data["key"],
                    groups=form.cleaned_data["groups"],
                )
            except BoxcarsError as error_:
                error = page_error(form_id, form, error_)
            else:
                messages.success(request, _("Saved."))
                return redirect(f"{request.path}#{form_id}")
    return render(
        request,
        "money/award.html",
        {
            "tournament": tournament,
            "pools": _award_pools(tournament),
            "entries": selectors.event_entries(tournament),
            "error": error,
        },
        status=400 if error else 200,
    )
