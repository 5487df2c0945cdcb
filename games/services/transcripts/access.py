"""Who may import or attach a transcript: the club's directors (or the command line)."""

from __future__ import annotations

from core import access
from core.actors import Actor
from games.models import Club, Match


def require_director(actor: Actor | None, club: Club) -> None:
    """Only the club's directors import or attach; the management command (no actor) may."""
    if actor is None:  # the management command: whoever runs it operates the site
        return
    access.require_director(actor, club, detail="Only the club's directors import transcripts.")


def require_may_attach(*, actor: Actor | None, match: Match) -> None:
    """Refuse a stranger before the upload is read: 403 comes before a 400 on the body."""
    require_director(actor, match.club)
