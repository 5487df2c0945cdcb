"""``settings.FAST_PATH`` on and off write the same thing (``core.fast_path``).

The same score entries, through the API as a phone sends them (a token, an
``Idempotency-Key``, a final score, the opponent's confirmation), go once with the
hand-tuned path and once with the plain ORM, on two twin matches: the stored rows, the
audit trail and the signals sent must be equal but for keys and times. Run on SQLite
(where the plain ORM is the default) and on PostgreSQL (where the fast path is, and
where ``FOR KEY SHARE`` falls back to ``FOR NO KEY UPDATE``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

import pytest
from django.db.models import signals
from rest_framework.test import APIClient

from games.models import Game, Match
from games.services import match_create
from games.services.actors import actor_for_user
from tests.factories import token_for

pytestmark = pytest.mark.django_db

_TIMES_AND_KEYS = {"id", "match_id", "created_at", "updated_at", "history_id", "history_date"}


def _client(user) -> APIClient:
    _, token = token_for(user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _plain(row: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in _TIMES_AND_KEYS and not k.endswith("_at")}


def _play(settings, fast: bool, director, club, alice, bob, alice_user, bob_user) -> dict[str, Any]:
    """Alice enters three games, Bob confirms, on a new match; what was stored and
    signalled."""
    settings.FAST_PATH = fast
    actor = actor_for_user(director)
    match = match_create.create_match(actor=actor, club=club, player1=alice, player2=bob, length=3)
    heard: list[tuple[str, str, bool | None, tuple[str, ...] | None]] = []

    def hear(sender, signal, **kwargs):
        label = sender._meta.label
        if label.split(".")[0] in {"games", "core"} and "Historical" not in label:
            fields = kwargs.get("update_fields")
            heard.append(
                (
                    "pre" if signal is signals.pre_save else "post",
                    label,
                    kwargs.get("created"),
                    tuple(sorted(fields)) if fields else None,
                )
            )

    signals.pre_save.connect(hear, weak=False, dispatch_uid="fast-path-test-pre")
    signals.post_save.connect(hear, weak=False, dispatch_uid="fast-path-test-post")
    try:
        alice_client = _client(alice_user)
        for number, (winner, cube) in enumerate([(alice, 1), (bob, 1), (alice, 2)], start=1):
            response = alice_client.post(
                f"/api/v1/matches/{match.pk}/games/",
                {"winner": winner.pk, "number": number, "cube": cube},
                format="json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )
            assert response.status_code == 201, response.json()
        confirm = _client(bob_user).post(f"/api/v1/matches/{match.pk}/confirm/", format="json")
        assert confirm.status_code == 200, confirm.json()
    finally:
        signals.pre_save.disconnect(dispatch_uid="fast-path-test-pre")
        signals.post_save.disconnect(dispatch_uid="fast-path-test-post")
    match.refresh_from_db()
    return {
        "match": _plain(Match.objects.filter(pk=match.pk).values().get()),
        "games": [_plain(g) for g in Game.objects.filter(match=match).order_by("number").values()],
        "match history": [
            (h.history_type, h.status, h.version)
            for h in match.history.order_by("history_date", "history_id")
        ],
        "game history": [
            (h.history_type, h.number, h.points)
            for h in Game.history.filter(match_id=match.pk).order_by("history_date", "history_id")
        ],
        "signals": heard,
        "status": match.status,
    }


def test_the_plain_orm_and_the_fast_path_store_and_signal_the_same(
    settings, director, club, alice, bob, alice_user, bob_user
):
    fast = _play(settings, True, director, club, alice, bob, alice_user, bob_user)
    plain = _play(settings, False, director, club, alice, bob, alice_user, bob_user)

    assert fast["status"] == plain["status"] == "finished"
    for part in ("match", "games", "match history", "game history", "signals"):
        assert fast[part] == plain[part], part
    # what was compared is not empty: three games, each with its audit row, and the
    # match written at each of them
    assert len(fast["games"]) == 3 and len(fast["game history"]) >= 3
    assert len(fast["match history"]) >= 4
    assert ("post", "games.Game", True, None) in fast["signals"]
