"""The API's token check (knox's, in one query); its own module because DRF imports the
authentication classes while ``rest_framework.views`` is still loading."""

from __future__ import annotations

import binascii
import functools
from hmac import compare_digest
from typing import Any

from django.db import connection
from django.db.models import BooleanField, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext_lazy
from knox import auth as knox_auth
from knox.crypto import hash_token
from knox.models import get_token_model
from knox.settings import CONSTANTS, knox_settings
from rest_framework.exceptions import AuthenticationFailed

from core.compiled_queries import CompiledQuery


class TokenAuthentication(knox_auth.TokenAuthentication):
    """Knox's token check in one query: the token, its user and the user's player.

    Knox reads the token with its user, then every token of that user to delete the
    expired ones, and the actor then reads the user's player: three round trips on
    every API call. Here one query brings the token, the user, the player
    (``select_related``, so :func:`games.services.actors.actor_for_user` needs no
    query) and whether any *other* token of the user has expired; knox's own sweep
    (:meth:`_cleanup_token`) runs only when there is something to delete, so expired
    tokens still go exactly as knox deletes them.
    """

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        text = _token_text(token)
        now = timezone.now()
        candidates = _CANDIDATES.rows(key=text[: CONSTANTS.TOKEN_KEY_LENGTH], now=now)
        for auth_token in candidates:
            expired = auth_token.expiry is not None and auth_token.expiry < now
            if (auth_token.expired_others or expired) and self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(text)
            except (TypeError, binascii.Error):
                raise AuthenticationFailed("Invalid token.") from None
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise AuthenticationFailed("Invalid token.")


def _token_text(token: bytes) -> str:
    """The token as text, or 401 when it cannot be one of ours.

    Our tokens are printable ASCII (knox's hex, with the configured prefix). A header's
    bytes reach us as they were sent (WSGI reads them as Latin-1), and knox decoded them
    as UTF-8: bytes that are not UTF-8 raised ``UnicodeDecodeError``, a 500 on every path
    (issue #37, item 6); a NUL reached PostgreSQL, which refuses it in a query. Either
    is simply not a token.
    """
    try:
        text = token.decode("ascii")
    except UnicodeDecodeError:
        raise AuthenticationFailed(_INVALID) from None
    if not text.isprintable():
        raise AuthenticationFailed(_INVALID)
    return text


#: The words knox answers for a token that is not valid.
_INVALID = gettext_lazy("Invalid token.")


def _candidates(key: str, now: Any) -> QuerySet[Any]:
    """The tokens that start with ``key``, with their user and player, and whether
    another token of that user has expired."""
    return (
        get_token_model()
        .objects.filter(token_key=key)
        .select_related("user", "user__player")
        .annotate(expired_others=RawSQL(_expired_others_sql(), (now,), BooleanField()))
    )


# Compiled once (core.compiled_queries): building and compiling this query on every
# API call was most of the token check's CPU that was not the query itself.
_CANDIDATES = CompiledQuery(_candidates, "key", "now")


@functools.cache
def _expired_others_sql() -> str:
    """Whether another token of the same user has expired, as SQL written once.

    It was an ``Exists(OuterRef(...))`` expression, and resolving and compiling that on
    every API call was about a third of the token check's CPU (bench score-entry's
    profile). It reads the outer row by its table name, as the locking query's
    subqueries do (:func:`games.services.score_entry._annotation_sql`)."""
    q = connection.ops.quote_name
    table = q(get_token_model()._meta.db_table)
    return (
        f"EXISTS (SELECT 1 FROM {table} other WHERE other.{q('user_id')} = {table}.{q('user_id')}"
        f" AND other.{q('expiry')} < %s AND other.{q('digest')} <> {table}.{q('digest')})"
    )
