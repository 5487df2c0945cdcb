"""Private score links: a signed token that lets one player of one match enter and
confirm scores from a phone without an account.

The token names the match and the player and is signed with the site secret (it
cannot be forged or moved to another match). It stops working when the match is
finished and confirmed, when the match is void or a forfeit, or after ``MAX_AGE``.
"""

from __future__ import annotations

from typing import Any

from django.core import signing

from games.models import Confirmation, Match, MatchStatus, Player

SALT = "boxcars.score-link"
HEADER = "X-Score-Link"
"""The request header that carries a token (the ``link`` query parameter also does)."""
MAX_AGE = 60 * 60 * 24 * 30  # a month: long enough for a club's league round


def make_token(match: Match, player: Player) -> str:
    if match.side_of(player) is None:
        raise ValueError("a score link is for one of the match's players")
    return signing.dumps({"m": match.pk, "p": player.pk}, salt=SALT, compress=True)


def read_token(token: str) -> tuple[int, int] | None:
    """(match id, player id) for a valid token, None for a forged or expired one."""
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or "m" not in data or "p" not in data:
        return None
    return int(data["m"]), int(data["p"])


def token_of(request: Any) -> str | None:
    """The token a (Django or DRF) request carries, in the header or the ``link`` parameter."""
    return request.headers.get(HEADER) or request.GET.get("link") or None


def idempotency_scope(request: Any) -> str | None:
    """Whose ``Idempotency-Key`` a score link's request carries: its match and player
    (registered with :func:`core.idempotency.register_scope` by ``games/wiring.py``)."""
    token = token_of(request)
    link = read_token(token) if token else None
    if link is not None:
        return f"link:{link[0]}:{link[1]}"
    return None


def link_is_live(match: Match) -> bool:
    """A link expires once the result is final: confirmed, void or forfeit."""
    if match.status in (MatchStatus.VOID, MatchStatus.FORFEIT):
        return False
    return not (
        match.status == MatchStatus.FINISHED and match.confirmation == Confirmation.CONFIRMED
    )
