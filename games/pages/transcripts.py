"""The director's page for importing a ``.mat`` transcript into a club.

A thin view over ``games.services.transcripts.import_transcript`` (the same service as
``POST /api/v1/matches/import/`` and ``manage.py import_mat``): one file, checked and
written whole or refused with its errors listed. An imported match goes to its page;
when the club analyses automatically, the ``match.finished`` event has started its
analysis by then (``analysis.jobs``), so games knows nothing of the analysis.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import access
from games.models import Club
from games.services import transcripts as transcript_services
from games.services.actors import actor_for_user

# the API's limit for a file answered at once (a bigger upload is the API's job)
MAX_BYTES = 1_000_000


class TranscriptImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Transcript (.mat)"),
        error_messages={"required": gettext_lazy("Choose a .mat file to import.")},
    )

    file_name = ""

    def clean_file(self) -> str:
        """The file's text (its name kept in ``file_name``)."""
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(_("A transcript is at most 1 MB."))
        self.file_name = str(upload.name)
        return str(transcript_services.decode_transcript(upload.read()))


@login_required
def import_transcript(request: HttpRequest, slug: str) -> HttpResponse:
    """Import one transcript as a finished match of the club (directors only)."""
    club = get_object_or_404(Club, slug=slug)
    if not access.is_director(request.user, club):
        raise Http404
    posted = request.method == "POST"
    form = TranscriptImportForm(request.POST, request.FILES) if posted else TranscriptImportForm()
    errors: list[dict[str, object]] = []
    if posted and form.is_valid():
        name = form.file_name
        outcome = transcript_services.import_transcript(
            actor=actor_for_user(request.user),
            club=club,
            text=form.cleaned_data["file"],
            name=name,
        )
        if outcome.match_id is not None and outcome.status == transcript_services.IMPORTED:
            messages.success(request, _("%(file)s imported.") % {"file": name})
            return redirect("match-detail", pk=outcome.match_id)
        if outcome.match_id is not None:  # the same file was imported before
            messages.info(request, _("%(file)s was already imported.") % {"file": name})
            return redirect("match-detail", pk=outcome.match_id)
        errors = outcome.errors
    return render(
        request,
        "games/transcript_import.html",
        {"club": club, "form": form, "refused": errors},
    )
