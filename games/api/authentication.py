"""The API's token check (knox's, in one query); its own module because DRF imports the
authentication classes while ``rest_framework.views`` is still loading."""

from __future__ import annotations

import binascii
from hmac import compare_digest
from typing import Any

from django.db.models import Exists, OuterRef
from django.utils import timezone
from knox import auth as knox_auth
from knox.crypto import hash_token
from knox.models import get_token_model
from knox.settings import CONSTANTS, knox_settings
from rest_framework.exceptions import AuthenticationFailed


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
        text = token.decode("utf-8")
        now = timezone.now()
        model = get_token_model()
        expired_others = model.objects.filter(user_id=OuterRef("user_id"), expiry__lt=now).exclude(
            digest=OuterRef("digest")
        )
        candidates = (
            model.objects.filter(token_key=text[: CONSTANTS.TOKEN_KEY_LENGTH])
            .select_related("user", "user__player")
            .annotate(expired_others=Exists(expired_others))
        )
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
